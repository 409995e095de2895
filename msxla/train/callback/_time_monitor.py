"""``TimeMonitor``: prints each epoch's time and the time per step.

The line is MindSpore's, ``Train epoch time: 1452.285 ms, per step time:
484.095 ms`` (``Eval`` during evaluation). With ``data_time=True`` and without
sink mode, the host time spent fetching data is added as ``(data time: x ms)``.
"""
from __future__ import annotations

import time

from msxla.nn import _checkparam as validator
from msxla.train.callback._callback import Callback

__all__ = ["TimeMonitor"]


class TimeMonitor(Callback):
    """Print the time of each epoch and of each step in it.

    Args:
        data_size (int): steps per epoch, used when the run does not say (``batch_num``).
        data_time (bool): also print the time spent fetching data. Default False.
    """

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        self.data_size = data_size
        self.epoch_time = time.time()
        self.data_time = data_time
        self.data_time_sum = 0.0
        self.data_time_start = 0.0
        validator.check_bool(data_time, "data_time")

    @staticmethod
    def _sink(run_context):
        return run_context.original_args()["dataset_sink_mode"]

    def on_train_step_begin(self, run_context):
        if self.data_time and not self._sink(run_context):
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context):
        if self.data_time and not self._sink(run_context):
            self.data_time_start = time.time()

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        if self.data_time and not self._sink(run_context):
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        steps = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            steps = batch_num
        validator.check_positive_int(steps)
        line = "{} epoch time: {:5.3f} ms, per step time: {:5.3f} ms".format(
            cb_params.get("mode", "").title(), epoch_ms, epoch_ms / steps)
        if self.data_time and not self._sink(run_context):
            line += " (data time: {:5.3f} ms)".format(self.data_time_sum * 1000 / steps)
        elif self.data_time:
            fetch = cb_params.get("sink_data_time_ms")
            if fetch is not None:
                line += " (data time: {:5.3f} ms)".format(fetch)
        print(line, flush=True)
