"""``mindspore.nn.RMSProp``: gradients scaled by a running RMS, with momentum.

``ms = decay * ms + (1 - decay) * g^2``; ``mom = momentum * mom + lr * g /
sqrt(ms + eps)``; ``w -= mom``. Centered: ``mg = decay * mg + (1 - decay) * g``
and the denominator is ``sqrt(ms - mg^2 + eps)``. Slots: ``mean_square``
(starts at 1), ``moment`` and, centered, ``mean_grad``.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["RMSProp"]


def _rmsprop(hyper, lr, wd, step, w, g, ms, mom):
    decay, momentum, eps = hyper
    ms = decay * ms + (1 - decay) * g * g
    mom = momentum * mom + lr * g / jnp.sqrt(ms + eps)
    return w - mom, ms, mom


def _centered(hyper, lr, wd, step, w, g, mg, ms, mom):
    decay, momentum, eps = hyper
    mg = decay * mg + (1 - decay) * g
    ms = decay * ms + (1 - decay) * g * g
    mom = momentum * mom + lr * g / jnp.sqrt(ms - mg * mg + eps)
    return w - mom, mg, ms, mom


class RMSProp(Optimizer):
    """RMSProp (``mindspore.nn.RMSProp``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("decay", decay, [float], self.cls_name)
        validator.check_non_negative_float(decay, "decay", self.cls_name)
        validator.check_value_type("momentum", momentum, [float], self.cls_name)
        validator.check_non_negative_float(momentum, "momentum", self.cls_name)
        validator.check_value_type("epsilon", epsilon, [float], self.cls_name)
        validator.check_positive_float(epsilon, "epsilon", self.cls_name)
        validator.check_value_type("use_locking", use_locking, [bool], self.cls_name)
        validator.check_value_type("centered", centered, [bool], self.cls_name)
        self.centered = centered
        if centered:
            self.mg = self._parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self._parameters.clone(prefix="mean_square", init="ones")
        self.moment = self._parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay

    def construct(self, gradients):
        hyper = (jnp.float32(self.decay), jnp.float32(self.momentum), jnp.float32(self.epsilon))
        if self.centered:
            return self._run_rule(gradients, _centered, (self.mg, self.ms, self.moment), hyper)
        return self._run_rule(gradients, _rmsprop, (self.ms, self.moment), hyper)
