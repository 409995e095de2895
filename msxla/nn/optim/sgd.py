"""``mindspore.nn.SGD``: stochastic gradient descent with optional momentum.

With ``momentum > 0`` the first step seeds the velocity with the gradient
itself (no dampening); later steps use ``v = momentum * v + (1 - dampening)
* g``. The update is ``w -= lr * v`` (``w -= lr * (g + momentum * v)`` with
Nesterov). Slots: ``accum.<name>`` (velocity) and ``stat.<name>`` (1 until
the first step).
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["SGD"]


def _make_rule(nesterov):
    def rule(hyper, lr, wd, step, w, g, accum, stat):
        momentum, dampening = hyper
        use_momentum = momentum > 0
        velocity = jnp.where(stat > 0, g, momentum * accum + (1 - dampening) * g)
        accum = jnp.where(use_momentum, velocity, accum)
        if nesterov:
            direction = g + momentum * accum
        else:
            direction = jnp.where(use_momentum, accum, g)
        stat = jnp.where(use_momentum, jnp.zeros_like(stat), stat)
        return w - lr * direction, accum, stat
    return rule


_RULES = {False: _make_rule(False), True: _make_rule(True)}


class SGD(Optimizer):
    """Stochastic gradient descent (``mindspore.nn.SGD``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, int) and not isinstance(momentum, bool):
            momentum = float(momentum)
        if not isinstance(momentum, float):
            raise TypeError("For 'SGD', the argument 'momentum' must be float type, but got "
                            f"{type(momentum)}.")
        if momentum < 0.0:
            raise ValueError("For 'SGD', the argument 'momentum' must be at least 0.0, but got "
                             f"{momentum}.")
        if isinstance(dampening, int) and not isinstance(dampening, bool):
            dampening = float(dampening)
        if not isinstance(dampening, float):
            raise TypeError("For 'SGD', the argument 'dampening' must be float type, but got "
                            f"{type(dampening)}.")
        if dampening < 0.0:
            raise ValueError("For 'SGD', the argument 'dampening' must be at least 0.0, but got "
                             f"'dampening' {dampening}")
        self.dampening = dampening
        validator.check_value_type("nesterov", nesterov, [bool], self.cls_name)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             "'dampening' must equal to 0.0, but got 'momentum' "
                             f"{momentum}, 'dampening' {dampening}.")
        self.nesterov = nesterov
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the "
                            "argument 'weight_decay' or 'weight_decay' set in grouped 'params' "
                            "must be float or int type.")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.accum = self._parameters.clone(prefix="accum", init="zeros")
        self.stat = self._parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients):
        hyper = (self.momentum._data, jnp.float32(self.dampening))
        return self._run_rule(gradients, _RULES[self.nesterov], (self.accum, self.stat), hyper)
