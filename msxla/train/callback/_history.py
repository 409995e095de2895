"""``History``: records the network output and the metrics of every epoch.

``history.history`` maps ``net_output`` (the loss, or the mean / first
element of a custom network's output) and each metric name to a list with one
entry per epoch; ``history.epoch`` is ``{"epoch": [1, 2, ...]}``.
"""
from __future__ import annotations

import numpy as np

from msxla.common.tensor import Tensor
from msxla.train.callback._callback import Callback

__all__ = ["History"]


class History(Callback):
    """Record the network outputs and metrics of each epoch."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = None

    def begin(self, run_context):
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        out = cb_params.net_outputs
        if isinstance(out, (tuple, list)) and isinstance(out[0], Tensor):
            out = out[0]
        if isinstance(out, Tensor):
            out = np.mean(out.asnumpy())
        current = {"net_output": out}
        current.update(cb_params.get("metrics") or {})
        for key, value in current.items():
            self.history.setdefault(key, []).append(value)
