"""``mindspore.amp``: mixed precision and loss scaling for hand-written loops.

``all_finite(grads)`` says whether every gradient is finite; a ``LossScaler``
scales the loss (``scale``), unscales the gradients (``unscale``) and updates
its scale from ``all_finite`` (``adjust``). Its state is Parameters, so a
step written with them compiles to one graph under jit::

    scaler = amp.DynamicLossScaler(2**16, 2, 1000)
    def step(x, y):
        (loss, grads) = grad_fn(x, y)          # forward returns scaler.scale(loss)
        grads = scaler.unscale(grads)
        finite = amp.all_finite(grads)
        scaler.adjust(finite)
        if finite:
            optimizer(grads)
        return loss

``auto_mixed_precision``, ``build_train_network`` and the loss-scale managers
are re-exported from ``msxla.train``.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import jax.numpy as jnp

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap
from msxla.nn import _checkparam as validator
from msxla.train.amp import (auto_mixed_precision, build_train_network,  # noqa: F401
                             custom_mixed_precision, get_black_list, get_white_list)
from msxla.train.loss_scale_manager import (DynamicLossScaleManager,  # noqa: F401
                                            FixedLossScaleManager, LossScaleManager)

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager",
           "build_train_network", "DynamicLossScaler", "StaticLossScaler", "LossScaler",
           "auto_mixed_precision", "all_finite", "custom_mixed_precision", "get_white_list",
           "get_black_list"]


def all_finite(inputs):
    """A bool Tensor: whether every element of every Tensor in ``inputs`` is finite."""
    flags = [jnp.all(jnp.isfinite(t._data)) for t in inputs]
    return wrap(jnp.all(jnp.stack(flags)) if flags else jnp.asarray(True))


def _map(fn, inputs):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(fn(x) for x in inputs)
    return fn(inputs)


class LossScaler(ABC):
    """Base class of loss scalers: ``scale``, ``unscale`` and ``adjust``."""

    @abstractmethod
    def scale(self, inputs):
        """``inputs`` (a Tensor or a tuple of them) multiplied by the scale."""

    @abstractmethod
    def unscale(self, inputs):
        """``inputs`` divided by the scale."""

    @abstractmethod
    def adjust(self, grads_finite):
        """Update the scale from whether the gradients were finite."""

    def _scale(self, inputs):
        return _map(lambda g: g * self.scale_value.astype(g.dtype), inputs)

    def _unscale(self, inputs):
        return _map(lambda g: g * ops.reciprocal(self.scale_value).astype(g.dtype), inputs)


def _check_scale(scale_value):
    scale_value = validator.check_value_type("scale_value", scale_value, [float, int])
    if scale_value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
    return Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")


class StaticLossScaler(LossScaler):
    """A constant loss scale."""

    def __init__(self, scale_value):
        self.scale_value = _check_scale(scale_value)

    def scale(self, inputs):
        return self._scale(inputs)

    def unscale(self, inputs):
        return self._unscale(inputs)

    def adjust(self, grads_finite):
        """The scale is constant: returns False."""
        return False


class DynamicLossScaler(LossScaler):
    """A loss scale divided by ``scale_factor`` (never below 1) when the gradients are
    not finite and multiplied by it after ``scale_window`` finite steps in a row."""

    def __init__(self, scale_value, scale_factor, scale_window):
        self.scale_value = _check_scale(scale_value)
        self.scale_window = validator.check_positive_int(scale_window, "scale_window")
        self.scale_factor = validator.check_positive_int(scale_factor, "scale_factor")
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def scale(self, inputs):
        return self._scale(inputs)

    def unscale(self, inputs):
        return self._unscale(inputs)

    def adjust(self, grads_finite):
        one = ops.ones((), self.scale_value.dtype)
        grown = self.scale_value * self.scale_factor
        at_window = self.counter == (self.scale_window - 1)
        new_scale = ops.select(
            grads_finite,
            ops.select(at_window, ops.select(ops.isfinite(grown), grown, self.scale_value),
                       self.scale_value),
            ops.maximum(one, self.scale_value / self.scale_factor))
        ops.assign(self.scale_value, new_scale)
        ops.assign(self.counter, ((self.counter + 1) % self.scale_window) * grads_finite)
        return True
