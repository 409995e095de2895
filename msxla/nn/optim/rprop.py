"""``mindspore.nn.Rprop``: resilient backpropagation (sign-based steps).

Each coordinate keeps a step size (``lr`` at the first step): it grows by
``etaplus`` while the gradient keeps its sign, shrinks by ``etaminus`` when
the sign flips (and that step is skipped), and stays within ``step_sizes``.
``w -= sign(g) * step_size``. Slots ``prev`` (last gradient used) and
``step_size``.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["Rprop"]


def _rprop(hyper, lr, wd, step, w, g, prev, step_size):
    etaminus, etaplus, size_min, size_max = hyper
    first = step.reshape(()) == 1
    step_size = jnp.where(first, jnp.ones_like(step_size) * lr, step_size)
    sign = jnp.sign(g * prev)
    sign = jnp.where(sign > 0, etaplus, sign)
    sign = jnp.where(sign < 0, etaminus, sign)
    sign = jnp.where(sign == 0, 1.0, sign)
    step_size = jnp.clip(step_size * sign, size_min, size_max)
    update = jnp.where(sign == etaminus, 0.0, g)
    return w - jnp.sign(update) * step_size, update, step_size


class Rprop(Optimizer):
    """Rprop (``mindspore.nn.Rprop``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0),
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise TypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise ValueError(f"For Rprop, etas must be a tuple with the size of 2, but got "
                             f"{len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise TypeError(f"For Rprop, step_sizes must be a tuple, but got {type(etas)}.")
        if len(step_sizes) != 2:
            raise ValueError("For Rprop, step_sizes must be a tuple with the size of 2, but got "
                             f"{len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError("For Rprop, maximal step size should not be less than minimal step "
                             f"size, but got {step_sizes[0]} > {step_sizes[1]}.")
        validator.check_float_range_open(etas[0], 0.0, 1.0, "etaminus", self.cls_name)
        validator.check_value_type("etaplus", etas[1], [float], self.cls_name)
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus "
                             f"{etas[1]}.")
        validator.check_value_type("min_step_sizes", step_sizes[0], [float], self.cls_name)
        validator.check_value_type("max_step_sizes", step_sizes[1], [float], self.cls_name)
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self._parameters.clone(prefix="prev", init="zeros")
        self.step_size = self._parameters.clone(prefix="step_size", init="zeros")

    def construct(self, gradients):
        hyper = tuple(jnp.float32(x) for x in (self.etaminus, self.etaplus, self.step_size_min,
                                                self.step_size_max))
        self._run_rule(gradients, _rprop, (self.prev, self.step_size), hyper)
        return True
