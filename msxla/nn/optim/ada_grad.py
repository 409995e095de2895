"""``mindspore.nn.Adagrad``: per-coordinate learning rates from squared gradients.

``accum += g * g``; ``w -= lr * g / sqrt(accum)``. The slot
``accum.<name>`` starts at ``accum`` (0.1 by default). With
``update_slots=False`` the accumulator is left unchanged.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["Adagrad"]


def _adagrad(hyper, lr, wd, step, w, g, accum):
    accum = accum + g * g
    return w - lr * g / jnp.sqrt(accum), accum


def _adagrad_frozen(hyper, lr, wd, step, w, g, accum):
    return w - lr * g / jnp.sqrt(accum), accum


class Adagrad(Optimizer):
    """Adagrad (``mindspore.nn.Adagrad``)."""

    @opt_init_args_register
    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("accum", accum, [float], self.cls_name)
        validator.check_value_type("update_slots", update_slots, [bool], self.cls_name)
        validator.check_non_negative_float(accum, "accum", self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.update_slots = update_slots

    def construct(self, grads):
        rule = _adagrad if self.update_slots else _adagrad_frozen
        return self._run_rule(grads, rule, (self.accum,))
