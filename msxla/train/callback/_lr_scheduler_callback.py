"""``LearningRateScheduler``: sets the optimizer's learning rate after each step
from ``learning_rate_function(lr, cur_step_num)``."""
from __future__ import annotations

import logging
import math

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.train.callback._callback import Callback

__all__ = ["LearningRateScheduler"]
LOG = logging.getLogger("msxla")


class LearningRateScheduler(Callback):
    """Change the learning rate during training.

    Args:
        learning_rate_function (Callable): ``(lr, cur_step_num) -> new lr``.
    """

    def __init__(self, learning_rate_function):
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        lr = float(np.array2string(cb_params.optimizer.learning_rate.asnumpy()))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            ops.assign(cb_params.optimizer.learning_rate, Tensor(new_lr, mstype.float32))
            LOG.info("At step %s, learning_rate change to %s", cb_params.cur_step_num, new_lr)
