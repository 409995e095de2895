"""The loops behind ``Model.train``, ``Model.fit`` and ``Model.eval``.

Per-step training (``dataset_sink_mode=False``): for each epoch, for each
batch, ``on_train_step_begin``, one compiled step, ``on_train_step_end``;
``cb_params.cur_step_num`` counts steps from the start of the run.

Sink mode (``dataset_sink_mode=True``), as MindSpore's GPU/Ascend sink mode:
an epoch is ``sink_size`` steps (the whole dataset when -1), drawn from the
data as one continuing stream; in GRAPH_MODE those steps run as one
executable (``_sink.SinkLoop``) and the callbacks see one step per sink, with
``cur_step_num`` advanced by ``sink_size`` and ``net_outputs`` the last
step's output; in PyNative each step runs and is seen on its own.

Evaluation runs the evaluation network per batch (also in sink mode, as
MindSpore does) and updates the metrics.
"""
from __future__ import annotations

import copy
import time
import weakref

import numpy as np

from msxla.context import CONTEXT, GRAPH_MODE
from msxla.nn import _checkparam as validator
from msxla.train.callback import ModelCheckpoint, TimeMonitor
from msxla.train.callback import __all__ as _CALLBACK_NAMES
from msxla.train.callback._callback import CallbackManager, InternalCallbackParam, RunContext
from msxla.train.dataset_helper import DataSource, stack_batches
from msxla.train.metrics import get_metric_fn
from msxla.train._sink import step_function


def check_run_args(api, epoch, dataset, sink_size, initial_epoch):
    """MindSpore's checks of ``train``/``fit`` arguments; returns the sink size."""
    if not isinstance(sink_size, int) or isinstance(sink_size, bool):
        raise TypeError(f"The input value must be int, but got '{type(sink_size).__name__}'.")
    validator.check_positive_int(epoch)
    validator.check_non_negative_int(initial_epoch)
    if initial_epoch >= epoch:
        raise ValueError(f"For 'Model.{api}', the parameter 'epoch' must bigger than parameter "
                         f"'initial_epoch', but got the parameter 'epoch' is {epoch}, "
                         f"'initial_epoch' is {initial_epoch}.")
    size = source_of(dataset).get_dataset_size()
    if size == 0:
        raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
    if sink_size == -1:
        sink_size = size
    if sink_size < -1 or sink_size == 0:
        raise ValueError(f"For 'Model.{api}', The argument 'sink_size' must be -1 or positive, "
                         f"but got {sink_size}.")
    return sink_size


_SOURCES = weakref.WeakKeyDictionary()  # a generator's batches, read once, kept


def source_of(dataset):
    """The dataset's ``DataSource``, kept on the dataset object (or beside a generator)
    so that every run reads the same batches; a list is simply iterated again."""
    if isinstance(dataset, DataSource):
        return dataset
    source = getattr(dataset, "__msxla_source__", None)
    if source is None:
        try:
            source = _SOURCES.get(dataset)
        except TypeError:  # not weakly referable (a list)
            pass
    if source is None:
        source = DataSource(dataset)
        try:
            dataset.__msxla_source__ = source
        except (AttributeError, TypeError):
            try:
                _SOURCES[dataset] = source
            except TypeError:
                pass
    return source


def _callback_list(callbacks):
    if callbacks is None:
        return []
    if isinstance(callbacks, (list, tuple)):
        return list(callbacks)
    return [callbacks]


def train(model, epoch, dataset, callbacks, sink_mode, sink_size, initial_epoch, valid=None):
    source = source_of(dataset)
    cb = InternalCallbackParam()
    cb.cur_step_num = 0
    cb.train_network = model._train_network
    cb.epoch_num = epoch - initial_epoch
    cb.batch_num = sink_size if sink_mode and sink_size > 0 else source.get_dataset_size()
    model.batch_num = cb.batch_num
    cb.mode = "train"
    cb.loss_fn = model._loss_fn
    cb.optimizer = model._optimizer
    cb.parallel_mode = model._parallel_mode
    cb.device_number = model._device_number
    cb.train_dataset = dataset
    cb.list_callback = _callback_list(callbacks)
    cb.train_dataset_element = None
    cb.network = model._network
    cb.last_save_ckpt_step = None
    cb.latest_ckpt_file = None
    cb.loss_scale_mananger = model._loss_scale_manager  # (sic) MindSpore's key
    cb.initial_step = None
    checkpoint = next((c for c in cb.list_callback if isinstance(c, ModelCheckpoint)), None)
    with CallbackManager(cb.list_callback) as callback_list:
        try:
            if sink_mode:
                _train_sink(model, epoch, source, callback_list, cb, sink_size, initial_epoch,
                            valid)
            else:
                _train_steps(model, epoch, source, callback_list, cb, initial_epoch, valid)
        except BaseException:
            if checkpoint is not None and checkpoint._config.exception_save:
                checkpoint.save_breakpoint(model._train_network, model._current_epoch_num,
                                           model._current_step_num)
            raise


def _run_step(model, step, inputs, source, first):
    """One training step; the first step names the dataset's columns if it fails."""
    if not first:
        return step(*inputs)
    try:
        return step(*inputs)
    except (TypeError, ValueError) as err:
        err.add_note(f"While running {type(model._train_network).__name__} on the dataset's "
                     f"columns {source.describe(inputs)}.")
        raise


def _check_arity(model, source, element):
    if model._loss_fn and len(element) != 2:
        names = source.column_names
        cols = f" (columns {names})" if names else ""
        raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return two elements, "
                         f"but got {len(element)}{cols}, please check the number of elements "
                         "returned by 'train_dataset'")


def _train_steps(model, epoch, source, callback_list, cb, initial_epoch, valid):
    cb.dataset_sink_mode = False
    run_context = RunContext(cb)
    step = model._runner(model._train_network)
    manager = model._loss_scale_manager
    source.open(epoch - initial_epoch)
    callback_list.on_train_begin(run_context)
    first = True
    for i in range(initial_epoch, epoch):
        cb.cur_epoch_num = i + 1
        model._current_epoch_num, model._current_step_num = cb.cur_epoch_num, 0
        callback_list.on_train_epoch_begin(run_context)
        for element in source.epoch():
            _check_arity(model, source, element)
            cb.cur_step_num += 1
            model._current_step_num = int((cb.cur_step_num - 1) % cb.batch_num + 1)
            cb.train_dataset_element = element
            callback_list.on_train_step_begin(run_context)
            model._check_network_mode(model._train_network, True)
            outputs = _run_step(model, step, element, source, first)
            first = False
            cb.net_outputs = outputs
            if manager is not None and manager.get_drop_overflow_update():
                manager.update_loss_scale(bool(np.all(outputs[1].asnumpy())))
            callback_list.on_train_step_end(run_context)
            if run_context.get_stop_requested():
                break
        _eval_during_train(model, valid, cb, callback_list)
        source.reset()
        callback_list.on_train_epoch_end(run_context)
        cb.pop("metrics", None)
        cb.pop("eval_results", None)
        if run_context.get_stop_requested():
            break
    callback_list.on_train_end(run_context)


def _train_sink(model, epoch, source, callback_list, cb, sink_size, initial_epoch, valid):
    graph = CONTEXT.mode == GRAPH_MODE
    cb.sink_size = sink_size
    cb.dataset_sink_mode = True
    run_context = RunContext(cb)
    # one unbounded iterator: sinks continue across the data's epochs; a graph sink stacks
    # its batches on the host and transfers each column once
    source.open(-1, host=graph)
    stream = source.stream(host=graph)
    loop = model._sink_loop() if graph else None
    step = None if graph else model._runner(model._train_network)
    callback_list.on_train_begin(run_context)
    first = True
    for i in range(epoch - initial_epoch):
        cb.cur_epoch_num = i + 1 + initial_epoch
        model.epoch_iter = i
        model._current_epoch_num, model._current_step_num = cb.cur_epoch_num, 0
        callback_list.on_train_epoch_begin(run_context)
        fetch_start = time.perf_counter()
        batches = [next(stream) for _ in range(sink_size)]
        _check_arity(model, source, batches[0])
        model._check_network_mode(model._train_network, True)
        if graph:
            stacked = stack_batches(batches, source)
            # host time per batch to read and stack the sink (TimeMonitor(data_time=True))
            cb.sink_data_time_ms = (time.perf_counter() - fetch_start) * 1000 / sink_size
            cb.cur_step_num += sink_size
            model._current_step_num = int((cb.cur_step_num - 1) % cb.batch_num + 1)
            cb.train_dataset_element = stacked
            callback_list.on_train_step_begin(run_context)
            cb.net_outputs = _run_step(model, loop, stacked, source, first)
            first = False
            callback_list.on_train_step_end(run_context)
        else:
            for element in batches:
                cb.cur_step_num += 1
                model._current_step_num = int((cb.cur_step_num - 1) % cb.batch_num + 1)
                cb.train_dataset_element = element
                callback_list.on_train_step_begin(run_context)
                cb.net_outputs = _run_step(model, step, element, source, first)
                first = False
                callback_list.on_train_step_end(run_context)
        _eval_during_train(model, valid, cb, callback_list)
        callback_list.on_train_epoch_end(run_context)
        cb.pop("metrics", None)
        cb.pop("eval_results", None)
        if run_context.get_stop_requested():
            break
    callback_list.on_train_end(run_context)


def _should_eval(epoch, frequency):
    return epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency


def _eval_during_train(model, valid, cb, callback_list):
    if not valid or not valid[0] or not _should_eval(cb.cur_epoch_num, valid[1]):
        return
    saved = (cb.cur_step_num, cb.batch_num, cb.dataset_sink_mode, cb.get("net_outputs"))
    callbacks = [c for c in callback_list._callbacks
                 if type(c).__name__ not in _CALLBACK_NAMES or isinstance(c, TimeMonitor)]
    dataset = valid[0]
    cb.eval_network = model._eval_network
    cb.valid_dataset = dataset
    cb.batch_num = source_of(dataset).get_dataset_size()
    cb.mode = "eval"
    cb.cur_step_num = 0
    model._clear_metrics()
    with CallbackManager(callbacks) as eval_list:
        _eval_loop(model, source_of(dataset), eval_list, cb, add_eval_loss=True)
    cb.mode = "train"
    cb.cur_step_num, cb.batch_num, cb.dataset_sink_mode, cb.net_outputs = saved


def evaluate(model, dataset, callbacks):
    source = source_of(dataset)
    cb = InternalCallbackParam()
    cb.eval_network = model._eval_network
    cb.valid_dataset = dataset
    cb.batch_num = source.get_dataset_size()
    cb.mode = "eval"
    cb.cur_step_num = 0
    cb.list_callback = _callback_list(callbacks)
    cb.network = model._network
    model._clear_metrics()
    with CallbackManager(cb.list_callback) as callback_list:
        return _eval_loop(model, source, callback_list, cb)


def _eval_loop(model, source, callback_list, cb, add_eval_loss=False):
    run_context = RunContext(cb)
    cb.dataset_sink_mode = False
    network = model._eval_network
    step = model._runner(network)
    callback_list.on_eval_begin(run_context)
    source.open(1)
    callback_list.on_eval_epoch_begin(run_context)
    eval_loss = get_metric_fn("loss") if add_eval_loss else None
    for element in source.epoch():
        cb.cur_step_num += 1
        cb.eval_dataset_element = element
        callback_list.on_eval_step_begin(run_context)
        model._check_network_mode(network, False)
        outputs = step(*element)
        cb.net_outputs = outputs
        callback_list.on_eval_step_end(run_context)
        model._update_metrics(outputs)
        if eval_loss is not None:
            eval_loss.update(outputs[model._eval_indexes[0]])
        if run_context.get_stop_requested():
            break
    callback_list.on_eval_epoch_end(run_context)
    source.reset()
    metrics = model._get_metrics()
    cb.metrics = metrics
    if eval_loss is not None:
        cb.eval_results = copy.deepcopy(metrics)
        cb.eval_results["eval_loss"] = eval_loss.eval()
    callback_list.on_eval_end(run_context)
    return metrics


def compile_for(model, dataset, is_train, sink_mode, sink_size):
    """``Model.build``: capture and compile the network for the dataset's first batch
    (or sink), so capture and compile errors surface before training."""
    source = source_of(dataset)
    source.open(1)
    first = next(iter(source.epoch()))
    source.open(-1)
    if not is_train:
        step_function(model._eval_network).lower(*first).compile()
        return
    if sink_mode and CONTEXT.mode == GRAPH_MODE:
        size = source.get_dataset_size() if sink_size == -1 else sink_size
        stacked = stack_batches([first] * size, source)
        model._sink_loop()._fn.lower(*stacked).compile()
        return
    step_function(model._train_network).lower(*first).compile()


