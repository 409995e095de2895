"""``mindspore.train.Model``: the high-level training and evaluation driver.

``Model(network, loss_fn, optimizer, metrics)`` builds three networks once:

- the training network: ``build_train_network`` (the loss, mixed precision,
  loss scaling, ``TrainOneStepCell``), or ``WithLossCell`` without an optimizer;
- the evaluation network: ``eval_network``, or ``WithEvalCell(network,
  loss_fn)`` returning ``(loss, outputs, label)`` for the metrics;
- the prediction network: ``network`` itself.

Each runs as one compiled graph per input signature, in GRAPH_MODE and in
PyNative alike (the network's ``JitConfig`` sets the level; a
``capture_mode`` key in it picks msxla's capture mode). ``train``, ``fit``
and ``eval`` drive them over a dataset (``dataset_helper``) with callbacks;
the loops themselves live in ``_loops``.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable

from msxla import nn
from msxla.common.tensor import Tensor
from msxla.context import CONTEXT, GRAPH_MODE
from msxla.nn import _checkparam as validator
from msxla.train import _loops
from msxla.train.amp import build_train_network
from msxla.parallel._broadcast import broadcast_parameters, parameter_broadcast_check
from msxla.train.metrics import Loss, get_metrics

__all__ = ["Model"]
LOG = logging.getLogger("msxla")
_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")


class Model:
    """Training and evaluation of ``network`` (see the module doc).

    Args:
        network (Cell): the network (with its loss when ``loss_fn`` is None).
        loss_fn (Cell): the loss, applied to ``network(data)`` and the label.
        optimizer (Optimizer): the optimizer; None for evaluation only.
        metrics (Union[dict, set]): metric names or ``{name: Metric}`` for eval.
        eval_network (Cell): the evaluation network (default: built from the loss).
        eval_indexes (list): where the loss, outputs and label are in its output.
        amp_level (str): mixed precision level ('O0', 'O1', 'O2', 'O3', 'auto').
        boost_level (str): MindSpore's boost mode (accepted; not applied).
        loss_scale_manager, keep_batchnorm_fp32: see ``build_train_network``.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        for arg in kwargs:
            if arg not in _KWARGS:
                raise ValueError("The argument in 'kwargs' should be 'loss_scale_manager' or "
                                 "'keep_batchnorm_fp32' or 'boost_config_dict' or 'acc_level', "
                                 f"but got '{arg}'.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._loss_scale_manager_set = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        self._amp_level = amp_level
        self._boost_level = kwargs.get("acc_level", boost_level)
        self._metrics = metrics
        self._parallel_mode, self._device_number = _parallel_setting()
        self._parameter_broadcast = _get_parameter_broadcast()
        self._broadcast_done = False
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is "
                             "None.Please set amp_level='O0' to disable auto mixed precision or "
                             "set 'optimizer' not be None to use auto mixed precision.")
        self._train_network = self._build_train_network()
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self.batch_num = -1
        self._backbone_is_train = True
        self._runners = {}

    # ------------------------------------------------------------ networks
    def _build_train_network(self):
        network = self._network
        validator.check_value_type("network", network, nn.Cell)
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set "
                             "'loss_scale_manager'.")
        if self._optimizer:
            config = {}
            if self._loss_scale_manager_set:
                config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            network = build_train_network(network, self._optimizer, self._loss_fn,
                                          level=self._amp_level, boost_level=self._boost_level,
                                          **config)
        elif self._loss_fn:
            network = nn.WithLossCell(network, self._loss_fn)
        if self._network.jit_config_dict and not network.jit_config_dict:
            network.__dict__["_jit_config_dict"] = dict(self._network.jit_config_dict)
        return network

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        self._metric_fns = get_metrics(metrics)
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list)
                                                 and len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a list or None. If "
                                 "'eval_indexes' is a list, length of it must be three. But got "
                                 f"'eval_indexes' {eval_indexes}")
            return
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set "
                             "`metrics` if you don't want an evaluation.\nIf evaluation is "
                             "required, you need to specify `eval_network`, which will be used in "
                             "the framework to evaluate the model.\nFor the simple scenarios with "
                             "one data, one label and one logits, `eval_network` is optional, and "
                             "then you can set `eval_network` or `loss_fn`. For the latter case, "
                             "framework will automatically build an evaluation network with "
                             "`network` and `loss_fn`.")
        self._eval_network = nn.WithEvalCell(self._network, self._loss_fn,
                                             self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self):
        """The training network."""
        return self._train_network

    @property
    def eval_network(self):
        """The evaluation network."""
        return self._eval_network

    @property
    def predict_network(self):
        """The prediction network."""
        return self._predict_network

    def _runner(self, network):
        """``network``'s compiled call: GRAPH_MODE compiles a Cell call itself; in PyNative
        the call is jitted here, once per network."""
        if CONTEXT.mode == GRAPH_MODE:
            return network
        runner = self._runners.get(id(network))
        if runner is None:
            from msxla.train._sink import step_function
            runner = self._runners[id(network)] = step_function(network)
        return runner

    def _sink_loop(self):
        """The compiled sink loop of the training network (GRAPH_MODE sink mode)."""
        loop = self._runners.get("sink")
        if loop is None:
            from msxla.train._sink import SinkLoop
            loop = self._runners["sink"] = SinkLoop(self._train_network)
        return loop

    def _check_network_mode(self, network, is_train):
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        if not is_train:
            network.set_grad(False)
        return network

    # ------------------------------------------------------------- metrics
    def _clear_metrics(self):
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs):
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self):
        return {name: metric.eval() for name, metric in self._metric_fns.items()}

    # ---------------------------------------------------------------- API
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1,
              initial_epoch=0):
        """Train for ``epoch`` epochs (``sink_size`` steps each in sink mode)."""
        validator.check_bool(dataset_sink_mode)
        sink_size = _loops.check_run_args("train", epoch, train_dataset, sink_size, initial_epoch)
        _check_callbacks(callbacks, "train")
        self._broadcast_parameters()
        _loops.train(self, epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                     initial_epoch)

    def _broadcast_parameters(self):
        """``parameter_broadcast``: every rank starts from rank 0's Parameters (once)."""
        if self._parameter_broadcast and not self._broadcast_done:
            parameter_broadcast_check(self._parallel_mode, self._parameter_broadcast)
            broadcast_parameters(self._train_network)
            self._broadcast_done = True

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1,
            initial_epoch=0):
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs."""
        validator.check_bool(dataset_sink_mode)
        validator.check_bool(valid_dataset_sink_mode)
        sink_size = _loops.check_run_args("fit", epoch, train_dataset, sink_size, initial_epoch)
        if not isinstance(valid_frequency, (int, list)):
            raise TypeError("For 'Model.fit', the type of 'valid_frequency' must be a list or an "
                            f"integer, but got type {type(valid_frequency)}.")
        if valid_dataset and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument "
                             "'metrics' can not beNone or empty, you should set the argument "
                             "'metrics' for model.")
        _check_callbacks(callbacks, "fit")
        self._broadcast_parameters()
        _loops.train(self, epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                     initial_epoch, (valid_dataset, valid_frequency, valid_dataset_sink_mode))

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """The metrics over ``valid_dataset``: ``{name: value}``."""
        validator.check_bool(dataset_sink_mode)
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or "
                             "empty, you should set the argument 'metrics' for model.")
        _check_callbacks(callbacks, "eval")
        return _loops.evaluate(self, valid_dataset, callbacks)

    def predict(self, *predict_data, backend=None, config=None):
        """The prediction network's output for ``predict_data``."""
        if backend not in ("lite", None):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got "
                             f"{backend}")
        if backend == "lite":
            LOG.warning("Lite inference failed, Import mindspore_lite failed, fallback to "
                        "original inference!")
        for item in predict_data:
            if item is None:
                continue
            if isinstance(item, Tensor):
                if item.size == 0:
                    raise ValueError("The input data can not be empty.")
                continue
            if not isinstance(item, (int, float, str)):
                kinds = "Tensor, None, int, float, str"
                raise TypeError(f"The types of input data must be in the Union({kinds}, "
                                f"tuple[{kinds}], list[{kinds}], dict[{kinds}]), but got type "
                                f"{type(item).__name__}.")
        self._check_network_mode(self._predict_network, False)
        return self._runner(self._predict_network)(*predict_data)

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1, sink_mode=True):
        """Compile the training (and evaluation) graphs for the datasets' first batch."""
        validator.check_positive_int(epoch)
        if not train_dataset and not valid_dataset:
            raise ValueError("The argument 'train_dataset' and 'valid_dataset' can not both be "
                             "None or empty.")
        if train_dataset:
            _loops.compile_for(self, train_dataset, True, sink_mode, sink_size)
        if valid_dataset:
            if not self._metric_fns:
                raise RuntimeError("If define `valid_dataset`, metric fn can not be None or empty, "
                                   "you should set the argument 'metrics' for model.")
            _loops.compile_for(self, valid_dataset, False, False, -1)


def _get_parameter_broadcast():
    from msxla.parallel._utils import _get_parameter_broadcast as get
    return get()


def _parallel_setting():
    """``(parallel_mode, device_number)`` from the auto-parallel context (data parallelism
    installs its gradient reducer in the training cell)."""
    from msxla.parallel._utils import _get_device_num, _get_parallel_mode
    return _get_parallel_mode(), _get_device_num()


def _check_callbacks(callbacks, mode):
    """MindSpore 1.x stage names (``step_end``) warn in train/eval and fail in fit."""
    from msxla.train import callback as cb_module
    if not callbacks:
        return
    old = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}
    for cb in (callbacks if isinstance(callbacks, Iterable) else [callbacks]):
        name = type(cb).__name__
        if name in cb_module.__all__:
            continue
        bad = set(type(cb).__dict__) & old
        if not bad:
            continue
        msg = (f"For {name} callback, {bad} methods may not be supported in later version, Use "
               "methods prefixed with 'on_train' or 'on_eval' instead when using customized "
               "callbacks.")
        if mode == "fit":
            raise ValueError(msg)
        LOG.warning(msg)
