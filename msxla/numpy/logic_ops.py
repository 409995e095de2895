"""``mindspore.numpy`` comparisons and predicates: equal, less, logical_and, isnan, isclose, ..."""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.numpy._util import operand, to_tensor, with_dtype

_BINARY = {
    "equal": "equal", "not_equal": "not_equal", "less": "less", "less_equal": "less_equal",
    "greater": "greater", "greater_equal": "greater_equal", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor",
}
_UNARY = {"isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite", "signbit": "signbit",
          "logical_not": "logical_not"}

__all__ = sorted(_BINARY) + sorted(_UNARY) + [
    "isneginf", "isposinf", "isclose", "array_equal", "array_equiv", "isscalar", "sometrue"]


def _make_binary(name, opname):
    def fn(x1, x2, dtype=None):
        return with_dtype(getattr(ops, opname)(operand(x1), operand(x2)), dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}`` (``ops.{opname}``) with broadcasting."
    return fn


def _make_unary(name, opname):
    def fn(x, dtype=None):
        return with_dtype(getattr(ops, opname)(to_tensor(x)), dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}`` (``ops.{opname}``)."
    return fn


globals().update({n: _make_binary(n, o) for n, o in _BINARY.items()})
globals().update({n: _make_unary(n, o) for n, o in _UNARY.items()})


def isneginf(x):
    """True where ``x`` is negative infinity."""
    return ops.isneginf(to_tensor(x))


def isposinf(x):
    """True where ``x`` is positive infinity."""
    return ops.isposinf(to_tensor(x))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True where ``|a - b| <= atol + rtol * |b|``."""
    return ops.isclose(to_tensor(a), to_tensor(b), rtol, atol, equal_nan)


def array_equal(a1, a2, equal_nan=False):
    """True (a bool Tensor) when the inputs have one shape and equal elements."""
    a1, a2 = to_tensor(a1), to_tensor(a2)
    if a1.shape != a2.shape:
        return Tensor(False, mstype.bool_)
    same = ops.equal(a1, a2)
    if equal_nan:
        same = ops.logical_or(same, ops.logical_and(ops.isnan(a1), ops.isnan(a2)))
    return ops.all(same)


def array_equiv(a1, a2):
    """True (a bool Tensor) when the inputs broadcast to one shape with equal elements."""
    import numpy as np
    a1, a2 = to_tensor(a1), to_tensor(a2)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return Tensor(False, mstype.bool_)
    return ops.all(ops.equal(a1, a2))


def isscalar(element):
    """True for Python and numpy scalars (not for Tensors)."""
    return isinstance(element, (bool, int, float, complex, str, bytes))


def sometrue(a, axis=None, keepdims=False):
    """True where any element over ``axis`` is non-zero."""
    return ops.any(ops.not_equal(to_tensor(a), 0), axis, keepdims)
