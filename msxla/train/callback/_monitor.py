"""What ``EarlyStopping`` and ``ReduceLROnPlateau`` watch: the training loss
(``monitor="loss"``) or an evaluation result of ``Model.fit`` (``eval_loss`` or a
metric name), and which direction counts as an improvement."""
from __future__ import annotations

import logging

import numpy as np

from msxla.train.callback._callback import handle_loss

LOG = logging.getLogger("msxla")
SMALLER_IS_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity",
                     "mean_surface_distance", "root_mean_square_distance", "eval_loss")


class Plateau:
    """The improvement test of a monitor: ``better(current, best)`` and the start."""

    def __init__(self, monitor, mode, min_delta):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self.lower = mode == "min" or (mode == "auto" and monitor in SMALLER_IS_BETTER)
        self.min_delta = min_delta

    def start(self):
        return np.inf if self.lower else -np.inf

    def better(self, current, best):
        if self.lower:
            return np.less(current, best - self.min_delta)
        return np.greater(current, best + self.min_delta)


def monitor_value(cb_params, monitor, what, name):
    """The watched value as a numpy scalar, or None (warned) when the run has none."""
    candidates = {}
    if monitor == "loss":
        value = handle_loss(cb_params.get("net_outputs"))
    else:
        candidates = cb_params.get("eval_results", {})
        value = candidates.get(monitor)
    if value is None:
        LOG.warning("%s is conditioned on %s, which is not available. Available choices are: %s",
                    what, monitor, {"loss", *candidates})
    if isinstance(value, np.ndarray) and value.shape != ():
        raise ValueError(f"{name} only supports scalar monitor now.")
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    return np.array(value) if value else None
