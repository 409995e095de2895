"""Conversions shared by the ``mindspore.numpy`` modules."""
from __future__ import annotations

import numbers

import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor

_SCALARS = (bool, int, float, complex)


def to_tensor(a, dtype=None):
    """``a`` as a Tensor: Tensors pass through, Python ints become int32 and floats float32
    (``mindspore.numpy``'s defaults), numpy arrays keep their dtype."""
    from msxla import ops
    if isinstance(a, Tensor):
        t = a
    elif isinstance(a, (np.ndarray, np.generic)):
        t = Tensor(a)
    elif isinstance(a, (list, tuple, numbers.Number)):
        t = Tensor(a)
        if t.dtype is mstype.int64 and not _has_numpy(a):
            t = ops.cast(t, mstype.int32)
    else:
        raise TypeError(f"input data must be int, float, bool, Tensor, list, tuple or a numpy "
                        f"array, but got {type(a).__name__}.")
    if dtype is not None and t.dtype is not mstype.to_ms(dtype):
        t = ops.cast(t, dtype)
    return t


def _has_numpy(a):
    if isinstance(a, (list, tuple)):
        return any(_has_numpy(x) for x in a)
    return isinstance(a, (np.ndarray, np.generic, Tensor))


def operand(a):
    """A Tensor for array-likes; Python scalars stay scalars (they only lift categories)."""
    return a if isinstance(a, _SCALARS) else to_tensor(a)


def with_dtype(out, dtype):
    """``out`` cast to ``dtype`` when one is given."""
    from msxla import ops
    if dtype is None or out.dtype is mstype.to_ms(dtype):
        return out
    return ops.cast(out, dtype)


def all_axes(ndim):
    return tuple(range(ndim))
