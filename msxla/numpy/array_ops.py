"""``mindspore.numpy`` array manipulation: reshape, transpose, concatenate, split, where, ..."""
from __future__ import annotations

import numbers

import numpy as np

from msxla import ops
from msxla.numpy._util import all_axes, operand, to_tensor

__all__ = ["reshape", "ravel", "transpose", "swapaxes", "moveaxis", "rollaxis", "expand_dims",
           "squeeze", "concatenate", "append", "stack", "hstack", "vstack", "dstack",
           "column_stack", "split", "array_split", "hsplit", "vsplit", "dsplit", "tile",
           "repeat", "flip", "fliplr", "flipud", "roll", "rot90", "broadcast_to",
           "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d", "where", "take",
           "size"]


def reshape(x, new_shape):
    """``x`` with shape ``new_shape`` (one entry may be -1)."""
    return ops.reshape(to_tensor(x), new_shape)


def ravel(x):
    """``x`` flattened to 1-D."""
    return ops.ravel(to_tensor(x))


def transpose(a, axes=None):
    """``a`` with its axes reversed, or permuted by ``axes``."""
    a = to_tensor(a)
    return ops.transpose(a, tuple(reversed(all_axes(a.ndim))) if axes is None else axes)


def swapaxes(x, axis1, axis2):
    """``x`` with two axes exchanged."""
    return ops.swapaxes(to_tensor(x), axis1, axis2)


def moveaxis(a, source, destination):
    """``a`` with axes ``source`` moved to ``destination``."""
    return ops.moveaxis(to_tensor(a), source, destination)


def rollaxis(x, axis, start=0):
    """``x`` with ``axis`` moved before position ``start``."""
    x = to_tensor(x)
    n = x.ndim
    axis, start = axis % n, (start + n if start < 0 else start)
    if not 0 <= start <= n:
        raise ValueError(f"For 'rollaxis', 'start' must be in [{-n}, {n}], but got {start}.")
    if axis < start:
        start -= 1
    return ops.moveaxis(x, axis, start) if axis != start else x


def expand_dims(a, axis):
    """``a`` with size-1 axes inserted at ``axis`` (an int or a tuple)."""
    a = to_tensor(a)
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    n = a.ndim + len(axes)
    for ax in sorted(x % n for x in axes):
        a = ops.expand_dims(a, ax)
    return a


def squeeze(a, axis=None):
    """``a`` without its size-1 axes (all, or those in ``axis``)."""
    return ops.squeeze(to_tensor(a), axis)


def concatenate(arrays, axis=0):
    """Join ``arrays`` along ``axis`` (``None``: flatten them first)."""
    ts = [to_tensor(x) for x in arrays]
    if axis is None:
        return ops.concat([ops.ravel(t) for t in ts], 0)
    return ops.concat(ts, axis)


def append(arr, values, axis=None):
    """``values`` appended to ``arr`` along ``axis`` (``None``: both flattened)."""
    return concatenate((arr, values), axis)


def stack(arrays, axis=0):
    """Join ``arrays`` along a new axis."""
    return ops.stack([to_tensor(x) for x in arrays], axis)


def hstack(tup):
    """Join column-wise."""
    return ops.hstack([to_tensor(x) for x in tup])


def vstack(tup):
    """Join row-wise."""
    return ops.vstack([to_tensor(x) for x in tup])


def dstack(tup):
    """Join along the third axis."""
    return ops.dstack([to_tensor(x) for x in tup])


def column_stack(tup):
    """Join 1-D arrays as columns."""
    return ops.column_stack([to_tensor(x) for x in tup])


def _as_split_arg(ios):
    return tuple(ios.asnumpy().tolist()) if hasattr(ios, "asnumpy") else (
        tuple(ios) if isinstance(ios, (list, tuple)) else ios)


def split(x, indices_or_sections, axis=0):
    """Split into equal sections (an int that must divide the axis) or at indices."""
    x = to_tensor(x)
    ios = _as_split_arg(indices_or_sections)
    if isinstance(ios, numbers.Integral) and x.shape[axis] % ios:
        raise ValueError(f"For 'split', array split does not result in an equal division: "
                         f"{x.shape[axis]} into {ios}.")
    return ops.tensor_split(x, ios, axis)


def array_split(x, indices_or_sections, axis=0):
    """Split into near-equal sections or at indices."""
    return ops.tensor_split(to_tensor(x), _as_split_arg(indices_or_sections), axis)


def hsplit(x, indices_or_sections):
    """Split along axis 1 (axis 0 for 1-D)."""
    x = to_tensor(x)
    return split(x, indices_or_sections, 1 if x.ndim > 1 else 0)


def vsplit(x, indices_or_sections):
    """Split along axis 0."""
    return split(x, indices_or_sections, 0)


def dsplit(x, indices_or_sections):
    """Split along axis 2."""
    return split(x, indices_or_sections, 2)


def tile(a, reps):
    """``a`` repeated ``reps`` times per axis."""
    return ops.tile(to_tensor(a), (reps,) if isinstance(reps, numbers.Integral) else reps)


def repeat(a, repeats, axis=None):
    """Each element repeated ``repeats`` times along ``axis`` (``None``: flattened)."""
    return ops.repeat_interleave(to_tensor(a), repeats, axis)


def flip(m, axis=None):
    """``m`` reversed along ``axis`` (``None``: all axes)."""
    m = to_tensor(m)
    return ops.flip(m, all_axes(m.ndim) if axis is None else axis)


def fliplr(m):
    """``m`` reversed along axis 1."""
    return ops.fliplr(to_tensor(m))


def flipud(m):
    """``m`` reversed along axis 0."""
    return ops.flipud(to_tensor(m))


def roll(a, shift, axis=None):
    """``a`` shifted cyclically by ``shift`` along ``axis`` (``None``: flattened)."""
    return ops.roll(to_tensor(a), shift, axis)


def rot90(a, k=1, axes=(0, 1)):
    """``a`` rotated by 90 degrees ``k`` times in the plane ``axes``."""
    return ops.rot90(to_tensor(a), k, tuple(axes))


def broadcast_to(array, shape):
    """``array`` broadcast to ``shape``."""
    return ops.broadcast_to(to_tensor(array), shape)


def broadcast_arrays(*args):
    """The arguments broadcast against each other."""
    ts = [to_tensor(a) for a in args]
    shape = np.broadcast_shapes(*(t.shape for t in ts))
    return [ops.broadcast_to(t, shape) for t in ts]


def _atleast(fn, arys):
    out = [fn(to_tensor(a)) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    """Each input with at least 1 dimension."""
    return _atleast(ops.atleast_1d, arys)


def atleast_2d(*arys):
    """Each input with at least 2 dimensions."""
    return _atleast(ops.atleast_2d, arys)


def atleast_3d(*arys):
    """Each input with at least 3 dimensions."""
    return _atleast(ops.atleast_3d, arys)


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, else of ``y``; with only ``condition``,
    the indices of its non-zero elements (one Tensor per axis)."""
    cond = to_tensor(condition)
    if x is None and y is None:
        idx = ops.nonzero(cond)
        return tuple(ops.unbind(idx, 1))
    if x is None or y is None:
        raise ValueError("For 'where', either both or neither of 'x' and 'y' must be given.")
    return ops.where(cond, operand(x), operand(y))


def take(a, indices, axis=None, mode="clip"):
    """Elements of ``a`` at ``indices`` along ``axis`` (``None``: flattened); out-of-range
    indices are clipped (``mode='clip'``) or wrapped (``'wrap'``)."""
    a = to_tensor(a)
    if axis is None:
        a, axis = ops.ravel(a), 0
    n = a.shape[axis]
    idx = to_tensor(indices)
    if mode == "clip":
        idx = ops.clip(idx, 0, n - 1)
    elif mode == "wrap":
        idx = ops.remainder(idx, n)
    elif mode != "raise":
        raise ValueError(f"For 'take', 'mode' must be 'raise', 'wrap' or 'clip', got {mode!r}.")
    return ops.gather(a, idx, axis)


def size(a, axis=None):
    """The number of elements of ``a`` (along ``axis`` if given)."""
    a = to_tensor(a)
    return a.size if axis is None else a.shape[axis]
