"""``mindspore.nn.Adadelta``: learning rates from running averages of steps and gradients.

``accum = rho accum + (1 - rho) g^2``; ``u = sqrt(accum_update + eps) /
sqrt(accum + eps) * g``; ``accum_update = rho accum_update + (1 - rho) u^2``;
``w -= lr * u``. Slots ``accum``, ``accum_update`` (both start at 0).
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["Adadelta"]


def _adadelta(hyper, lr, wd, step, w, g, accum, accum_update):
    rho, eps = hyper
    accum = rho * accum + (1 - rho) * g * g
    update = jnp.sqrt(accum_update + eps) / jnp.sqrt(accum + eps) * g
    accum_update = rho * accum_update + (1 - rho) * update * update
    return w - lr * update, accum, accum_update


class Adadelta(Optimizer):
    """Adadelta (``mindspore.nn.Adadelta``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("rho", rho, [float], self.cls_name)
        validator.check_value_type("epsilon", epsilon, [float], self.cls_name)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'rho' must be in range of [0.0, 1.0], "
                             f"but got {rho} with type 'float'.")
        validator.check_non_negative_float(epsilon, "epsilon", self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)
        self.rho = rho
        self.epsilon = epsilon

    def construct(self, grads):
        if not isinstance(grads, tuple) or not isinstance(grads[0], Tensor):
            raise TypeError("For 'Adadelta', the 'grads' must be a tuple of Tensor.")
        hyper = (jnp.float32(self.rho), jnp.float32(self.epsilon))
        return self._run_rule(grads, _adadelta, (self.accum, self.accum_update), hyper)
