"""``mindspore.nn.Momentum``: gradient descent with (Nesterov) momentum.

``v = momentum * v + g``; ``w -= lr * v``. With ``use_nesterov`` the step
is ``w -= lr * (g + momentum * v_prev)`` where ``v_prev`` is the velocity
before this step's update, as MindSpore's ApplyMomentum kernel computes it.
Slot: ``moments.<name>``.
"""
from __future__ import annotations

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["Momentum"]


def _momentum(hyper, lr, wd, step, w, g, v):
    (momentum,) = hyper
    v = momentum * v + g
    return w - lr * v, v


def _nesterov(hyper, lr, wd, step, w, g, v):
    (momentum,) = hyper
    w = w - lr * (g + momentum * v)
    return w, momentum * v + g


class Momentum(Optimizer):
    """Momentum SGD (``mindspore.nn.Momentum``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("momentum", momentum, [float], self.cls_name)
        if momentum < 0.0:
            raise ValueError("For 'Momentum', the argument 'momentum' must be at least 0.0, but "
                             f"got {momentum}")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = validator.check_bool(use_nesterov)
        self.moments = self.params.clone(prefix="moments", init="zeros")

    def construct(self, gradients):
        rule = _nesterov if self.use_nesterov else _momentum
        return self._run_rule(gradients, rule, (self.moments,), (self.momentum._data,))
