"""``LambdaCallback``: a callback made of functions, one per stage."""
from __future__ import annotations

from msxla.train.callback._callback import Callback

__all__ = ["LambdaCallback"]


def _nothing(run_context):
    return None


class LambdaCallback(Callback):
    """A callback whose stages are the given functions (each takes ``run_context``)."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None, on_train_begin=None,
                 on_train_end=None, on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        super().__init__()
        given = dict(locals())
        for stage in ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
                      "on_train_step_end", "on_train_begin", "on_train_end",
                      "on_eval_epoch_begin", "on_eval_epoch_end", "on_eval_step_begin",
                      "on_eval_step_end", "on_eval_begin", "on_eval_end"):
            setattr(self, stage, given[stage] or _nothing)
