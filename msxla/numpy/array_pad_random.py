"""``mindspore.numpy``'s ``pad`` (numpy's modes) and its random creators
``rand``, ``randn`` and ``randint`` (MindSpore keeps them in
``mindspore.numpy.array_creations``; they are here to keep that file short).

``pad`` works one axis after another, as numpy does (a later axis's
statistics see the earlier axes' padding). The index modes (``edge``,
``reflect``, ``symmetric``, ``wrap``) gather from indices computed from the
static shape, so they compile inside a graph; the statistic modes reduce the
axis (``stat_length`` elements of it) and broadcast; ``linear_ramp`` blends
from ``end_values`` to the edge.
"""
from __future__ import annotations

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.numpy._util import to_tensor

_INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")
_STATS = {"maximum": ops.amax, "minimum": ops.amin, "mean": ops.mean, "median": None}


def _pairs(value, ndim, name):
    arr = np.broadcast_to(np.asarray(value), (ndim, 2))
    if name == "pad_width" and (arr < 0).any():
        raise ValueError(f"For 'pad', 'pad_width' must be non-negative, but got {value}.")
    return arr


def _block(x, axis, width, fill):
    shape = list(x.shape)
    shape[axis] = width
    return ops.full(tuple(shape), fill, dtype=x.dtype)


def _stat(x, axis, count, mode, from_end):
    if mode in ("mean", "median") and not mstype.is_float(x.dtype):
        x = ops.cast(x, mstype.float32)  # then rounded to the integer dtype, as numpy
    n = x.shape[axis]
    count = n if count is None else min(int(count), n)
    part = ops.narrow(x, axis, n - count if from_end else 0, count)
    if mode == "median":
        part = ops.sort(part, axis)[0]
        lo = ops.narrow(part, axis, (count - 1) // 2, 1)
        hi = ops.narrow(part, axis, count // 2, 1)
        return (lo + hi) / 2
    return _STATS[mode](part, axis, True)


def _cast_like(value, x):
    if mstype.is_int(x.dtype) and mstype.is_float(value.dtype):
        value = ops.round(value)
    return ops.cast(value, x.dtype)


def _pad_axis(x, axis, left, right, mode, kw, k):
    n = x.shape[axis]
    if mode in _INDEX_MODES:
        index = np.pad(np.arange(n), (left, right), mode=mode)
        out = ops.gather(x, Tensor(index.astype(np.int32)), axis)
        if kw["reflect_type"] == "odd" and mode in ("reflect", "symmetric"):
            if max(left, right) >= n:
                raise NotImplementedError("For 'pad', reflect_type='odd' needs pads shorter "
                                          "than the axis.")
            shape = [1] * x.ndim
            shape[axis] = n + left + right
            side = np.r_[np.full(left, 1), np.zeros(n), np.full(right, 2)].reshape(shape)
            first, last = ops.narrow(x, axis, 0, 1), ops.narrow(x, axis, n - 1, 1)
            out = ops.where(Tensor(side == 1), 2 * first - out,
                            ops.where(Tensor(side == 2), 2 * last - out, out))
        return out
    parts = []
    for side, width in ((0, left), (1, right)):
        if not width:
            parts.append(None)
            continue
        if mode in ("constant", "empty"):
            fill = 0 if mode == "empty" else kw["constant_values"][k][side]
            parts.append(_block(x, axis, width, fill))
        elif mode in _STATS:
            count = kw["stat_length"][k][side] if kw["stat_length"] is not None else None
            value = _cast_like(_stat(x, axis, count, mode, side == 1), x)
            parts.append(ops.repeat_interleave(value, width, axis))
        else:  # linear_ramp
            edge = ops.narrow(x, axis, 0 if side == 0 else n - 1, 1)
            end = float(kw["end_values"][k][side])
            w = np.linspace(0.0, 1.0, width, endpoint=False)
            w = w if side == 0 else w[::-1]
            shape = [1] * x.ndim
            shape[axis] = width
            w = Tensor(w.reshape(shape).astype(np.float32))
            ramp = end * (1 - w) + ops.cast(edge, mstype.float32) * w
            if not mstype.is_float(x.dtype):
                ramp = ops.floor(ramp)  # numpy floors an integer ramp
            parts.append(ops.cast(ramp, x.dtype))
    pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
    return ops.cat(pieces, axis) if len(pieces) > 1 else x


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0,
        reflect_type="even", **kwargs):
    """``arr`` padded by ``pad_width`` (per axis ``(before, after)``) as numpy's ``pad``."""
    x = to_tensor(arr)
    modes = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum",
             "reflect", "symmetric", "wrap", "empty")
    if callable(mode) or mode not in modes:
        raise NotImplementedError(f"For 'pad', 'mode' must be one of {modes}, but got {mode!r}.")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"For 'pad', 'reflect_type' must be 'even' or 'odd', but got "
                         f"{reflect_type!r}.")
    widths = _pairs(pad_width, x.ndim, "pad_width")
    kw = {"constant_values": _pairs(constant_values, x.ndim, "constant_values"),
          "end_values": _pairs(end_values, x.ndim, "end_values"),
          "stat_length": None if stat_length is None else _pairs(stat_length, x.ndim,
                                                                  "stat_length"),
          "reflect_type": reflect_type}
    for axis in range(x.ndim):
        left, right = int(widths[axis][0]), int(widths[axis][1])
        if left or right:
            x = _pad_axis(x, axis, left, right, mode, kw, axis)
    return x


def _shape(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def rand(*shape, dtype=mstype.float32):
    """Uniform numbers in [0, 1) of ``shape``."""
    return ops.rand(*_shape(shape), dtype=dtype)


def randn(*shape, dtype=mstype.float32):
    """Standard normal numbers of ``shape``."""
    return ops.randn(*_shape(shape), dtype=dtype)


def randint(minval, maxval=None, shape=None, dtype=mstype.int32):
    """Integers in ``[minval, maxval)`` (``[0, minval)`` without ``maxval``)."""
    low, high = (0, minval) if maxval is None else (minval, maxval)
    if low >= high:
        raise ValueError(f"For 'randint', 'minval' must be less than 'maxval', but got {low} "
                         f"and {high}.")
    size = (1,) if shape is None else ((shape,) if isinstance(shape, int) else tuple(shape))
    return ops.randint(int(low), int(high), size, dtype=dtype)


__all__ = ["pad", "rand", "randn", "randint"]
