"""Casting an array to a MindSpore dtype, with MindSpore's float -> integer results.

``cast_array`` is what ``Tensor.astype``, Parameter writes, in-place ops and
indexed assignment use; it lives here (below the op table) so that Tensor and
Parameter do not import ``ops``. Traceable: it runs eagerly and in graphs.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype


def cast_array(arr, dtype: mstype.Type):
    """``arr`` as ``dtype`` (a no-op when it already is)."""
    target = dtype.np_dtype
    if arr.dtype == target:
        return arr
    return _convert(arr, target)


def _convert(arr, target):
    if arr.dtype in _FLOATS and target in _INTS:
        return float_to_int(arr, target)
    return jax.lax.convert_element_type(arr, target)


_FLOATS = frozenset(t.np_dtype for t in mstype.float_type)
_INTS = frozenset(t.np_dtype for t in mstype.int_type + mstype.uint_type)
_WIDE = {np.dtype(np.int64), np.dtype(np.uint32), np.dtype(np.uint64)}


def float_to_int(arr, target):
    """Float -> integer cast with MindSpore's (C's, on x86) results, traceable.

    Truncate toward zero into int32 (int64 for 64-bit and uint32 targets); a NaN
    or a value outside that range becomes its minimum; then wrap into ``target``
    (so -1.0 -> uint8 is 255). uint64 handles values from 2**63 up separately."""
    target = np.dtype(target)
    x = arr if arr.dtype.itemsize >= 4 and arr.dtype != mstype.bfloat16.np_dtype \
        else jax.lax.convert_element_type(arr, np.float32)
    y = jnp.trunc(x)
    wide = np.int64 if target in _WIDE else np.int32
    out = _saturate(y, wide)
    if target == np.uint64:
        big = y >= 2.0 ** 63
        high = jax.lax.bitwise_xor(_saturate(y - 2.0 ** 63, wide), np.int64(-2 ** 63))
        out = jnp.where(big, high, out)
    return jax.lax.convert_element_type(out, target)


def _saturate(y, wide):
    lo = float(np.iinfo(wide).min)
    ok = (y >= lo) & (y < -lo)  # False for NaN
    return jax.lax.convert_element_type(jnp.where(ok, y, lo), wide)
