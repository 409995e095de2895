"""``SummaryCollector``: a training callback that writes what a run does to an
event file (``SummaryRecord``), when MindSpore's does.

It records at the first step and every ``collect_freq`` steps (epochs in sink
mode), and at each epoch's end: the loss as ``loss/auto`` (the mean of the
network's first output), histograms of the optimizer's Parameters as
``<name>/auto`` (the first five, or those matching ``histogram_regular``),
the first input as the image ``input_data/auto`` when it is an NCHW image
batch, and whatever the network's summary ops delivered. Tensor summaries are
kept at most 20 times a run unless ``collect_tensor_freq`` says otherwise.
MindSpore's graph, lineage and loss-landscape data (MindInsight's formats)
are not collected.
"""
from __future__ import annotations

import logging
import os
import re

import numpy as np

from msxla.common.tensor import Tensor
from msxla.train.callback._callback import Callback
from msxla.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryCollector"]

_log = logging.getLogger("msxla")

_DEFAULTS = {
    "collect_metric": True, "collect_graph": True, "collect_train_lineage": True,
    "collect_eval_lineage": True, "collect_input_data": True, "collect_dataset_graph": True,
    "histogram_regular": None,
    "collect_landscape": {"landscape_size": 40, "unit": "step", "num_samples": 2048,
                          "create_landscape": {"train": True, "result": True},
                          "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]},
}


def _positive(name, value, allow_none=False):
    if allow_none and value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The '{name}' must be int, but got {type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For 'SummaryCollector', the '{name}' should be greater than 0, but "
                         f"got {value}.")


def _specified(data, keep_default):
    if data is not None and not isinstance(data, dict):
        raise TypeError("The 'collect_specified_data' must be dict or None, but got "
                        f"{type(data).__name__}.")
    if not isinstance(keep_default, bool):
        raise TypeError("The 'keep_default_action' must be bool, but got "
                        f"{type(keep_default).__name__}.")
    if data is None:
        return dict(_DEFAULTS) if keep_default else {}
    unexpected = set(data) - set(_DEFAULTS)
    if unexpected:
        raise ValueError(f'For "SummaryCollector", the keys {unexpected} of '
                         "`collect_specified_data` are unsupported, expect the follow keys: "
                         f"{list(_DEFAULTS)}")
    regular = data.get("histogram_regular")
    if regular is not None:
        if not isinstance(regular, str):
            raise TypeError("The 'histogram_regular' must be str or None, but got "
                            f"{type(regular).__name__}.")
        try:
            re.compile(regular)
        except re.error as exc:
            raise ValueError("For `collect_specified_data`, the value of `histogram_regular` is "
                             f"not a valid regular expression. Detail: {exc}.") from exc
    for key in set(_DEFAULTS) - {"histogram_regular", "collect_landscape"}:
        if key in data and not isinstance(data[key], bool):
            raise TypeError(f"The '{key}' must be bool, but got {type(data[key]).__name__}.")
    return {**_DEFAULTS, **data} if keep_default else dict(data)


class SummaryCollector(Callback):
    """Collect the loss, Parameter histograms, input images and summary-op values of a
    ``Model`` run into an event file in ``summary_dir``."""

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        super().__init__()
        if not isinstance(summary_dir, str) or not summary_dir:
            raise ValueError("For 'SummaryCollector', the 'summary_dir' should be a non-empty "
                             f"str, but got {summary_dir!r}.")
        self._summary_dir = os.path.realpath(os.path.expanduser(summary_dir))
        os.makedirs(self._summary_dir, exist_ok=True)
        _positive("collect_freq", collect_freq)
        _positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        _positive("max_file_size", max_file_size, allow_none=True)
        self._collect_freq = collect_freq
        self._collect_tensor_freq = collect_tensor_freq
        self._max_file_size = max_file_size
        self._collect = _specified(collect_specified_data, keep_default_action)
        if custom_lineage_data is not None and not isinstance(custom_lineage_data, dict):
            raise TypeError("The 'custom_lineage_data' must be dict or None, but got "
                            f"{type(custom_lineage_data).__name__}.")
        self._record = None
        self._optimizer = None
        self._loss_ok = True
        self._first_step = True
        self._sink = True
        self._tensor_range = None

    def __enter__(self):
        self._record = SummaryRecord(log_dir=self._summary_dir, max_file_size=self._max_file_size)
        self._first_step, self._sink = True, True
        return self

    def __exit__(self, *err):
        self._record.close()

    def begin(self, run_context):
        cb = run_context.original_args()
        seen = [c for c in cb.get("list_callback", ()) if type(c).__name__ == "SummaryCollector"]
        if len(seen) > 1:
            raise ValueError("There are more than one SummaryCollector instance in callback "
                             "list,but expected only one SummaryCollector instance.")
        if cb.mode not in ("train", "eval"):
            raise ValueError("Only support `train` (model.train) and `eval` (model.eval) mode, "
                             f"but got `{cb.mode}` mode.")
        self._record.set_mode(cb.mode)
        self._sink = bool(cb.get("dataset_sink_mode", False))

    def step_end(self, run_context):
        cb = run_context.original_args()
        if cb.mode != "train":
            return
        if self._first_step:
            self._record.record(cb.cur_step_num)  # MindSpore's graph record: the ops' values
        if not self._sink:
            self._collect_tensor_data(cb)

    def epoch_end(self, run_context):
        self._collect_tensor_data(run_context.original_args())
        self._record.flush()

    def end(self, run_context):
        self._record.set_mode("eval")
        self._record.record(step=0)

    def _collect_tensor_data(self, cb):
        if cb.mode != "train":
            return
        if self._first_step:
            self._tensor_range = self._tensor_collect_range(cb)
            self._collect_at(cb, None)
            self._first_step = False
            self._record.flush()
            return
        current = cb.cur_epoch_num if self._sink else cb.cur_step_num
        due, in_range = current % self._collect_freq == 0, current in self._tensor_range
        if due and in_range:
            self._collect_at(cb, None)
        elif in_range:
            self._collect_at(cb, lambda plugin: plugin == "tensor")
        elif due:
            self._collect_at(cb, lambda plugin: plugin != "tensor")

    def _tensor_collect_range(self, cb):
        total = cb.epoch_num * (1 if self._sink else cb.batch_num)
        if self._collect_tensor_freq is not None:
            return range(0, total + 1, self._collect_tensor_freq)
        limit = 20
        if len(range(0, total + 1, self._collect_freq)) > limit:
            freq = total // (limit - 1)
            if freq > 1:
                return range(0, total + 1, freq)[:limit]
            return range(0, total + 1)[:limit + 1]
        return range(0, total + 1, self._collect_freq)

    def _collect_at(self, cb, plugin_filter):
        self._collect_input(cb)
        self._collect_loss(cb)
        self._collect_histograms(cb)
        self._record.record(cb.cur_step_num, plugin_filter=plugin_filter)

    def _collect_input(self, cb):
        if not self._collect.get("collect_input_data"):
            return
        data = cb.get("train_dataset_element")
        if isinstance(data, (list, tuple)) and data:
            data = data[0]
        try:
            self._record.add_value("image", "input_data/auto", data)
        except (TypeError, ValueError):
            _log.warning("The input data of network are not image, so will not collect by "
                         "SummaryCollector.")
            self._collect["collect_input_data"] = False

    def _collect_loss(self, cb):
        if not self._collect.get("collect_metric") or not self._loss_ok:
            return
        output = cb.get("net_outputs")
        if isinstance(output, (list, tuple)) and output:
            output = output[0]
        if not isinstance(output, (int, float, Tensor)):
            _log.warning("The output type could not be identified, expect type is one of [int, "
                         "float, Tensor, list, tuple], so no loss was recorded in "
                         "SummaryCollector.")
            self._loss_ok = False
            return
        value = output.asnumpy() if isinstance(output, Tensor) else np.asarray(output)
        self._record.add_value("scalar", "loss/auto", Tensor(np.mean(value)))

    def _collect_histograms(self, cb):
        if "histogram_regular" not in self._collect:
            return
        optimizer = self._find_optimizer(cb)
        if optimizer is None:
            return
        regular = self._collect["histogram_regular"]
        params = list(optimizer.parameters)
        chosen = ([p for p in params if re.match(regular, p.name)] if regular is not None
                  else params[:5])
        for p in chosen:
            self._record.add_value("histogram", p.name + "/auto", Tensor(p.asnumpy()))

    def _find_optimizer(self, cb):
        from msxla.nn.optim.optimizer import Optimizer
        if self._optimizer is None:
            found = cb.get("optimizer")
            if found is None:
                network = cb.train_network if cb.mode == "train" else cb.eval_network
                found = next((c for _, c in network.cells_and_names()
                              if isinstance(c, Optimizer)), None)
            if not isinstance(found, Optimizer):
                _log.warning("Can not find optimizer in network, or the optimizer does not "
                             "inherit MindSpore's optimizer, so we will not collect data about "
                             "optimizer in SummaryCollector.")
                found = False
            self._optimizer = found
        return self._optimizer or None
