"""Op rows: repeating, reversing, rolling and narrowing tensors.

tile, repeat_interleave, repeat_elements, flip/fliplr/flipud/reverse, roll,
rot90 and narrow, with the Tile, ReverseV2 and Roll Primitive classes.
"""
from __future__ import annotations

import numbers

import jax.numpy as jnp

from msxla.errors import user_error
from msxla.ops._shape_util import ArgTypeError, as_shape, norm_axes, norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


@op(static=("dims",), prim="Tile", primitive=True)
def tile(input, dims):
    """Repeat ``input`` ``dims[i]`` times along axis i (shorter ``dims`` gets leading 1s,
    longer ``dims`` adds leading axes)."""
    dims = as_shape(dims, "dims")
    for i, d in enumerate(dims):
        if d < 0:
            raise ValueError(f"'dims' cannot contain negative integer numbers, but got {d} in "
                             f"{i}th.")
    return jnp.tile(input, dims)


def _repeats(repeats):
    if isinstance(repeats, (tuple, list)):
        if not all(isinstance(r, numbers.Integral) and r >= 0 for r in repeats):
            raise ArgTypeError(f"each element of 'repeats' must be a non-negative int, but got "
                            f"{repeats}.")
        return tuple(int(r) for r in repeats)
    if isinstance(repeats, bool) or not isinstance(repeats, numbers.Integral) or repeats < 0:
        raise ArgTypeError(f"'repeats' must be a non-negative int or a sequence of them, but got "
                        f"{repeats!r}.")
    return (int(repeats),)


@op(static=("repeats", "axis"), prim="RepeatInterleave")
def repeat_interleave(input, repeats, axis=None):
    """Repeat each element ``repeats`` times along ``axis`` (``None``: of the flattened input);
    ``repeats`` is an int or one count per element along ``axis``."""
    if axis is None:
        input, axis = jnp.reshape(input, (-1,)), 0
    ax = norm_axis(axis, input.ndim)
    reps = _repeats(repeats)
    if len(reps) == 1:
        return jnp.repeat(input, reps[0], axis=ax)
    if len(reps) != input.shape[ax]:
        raise ValueError(f"the length of 'repeats' ({len(reps)}) must be the size of the input "
                         f"along 'axis' ({input.shape[ax]}).")
    return jnp.repeat(input, jnp.asarray(reps), axis=ax, total_repeat_length=sum(reps))


@op(static=("rep", "axis"), prim="RepeatElements")
def repeat_elements(x, rep, axis=0):
    """Repeat each element ``rep`` times along ``axis``."""
    if isinstance(rep, bool) or not isinstance(rep, numbers.Integral) or rep < 1:
        raise ValueError(f"'rep' must be a positive int, but got {rep!r}.")
    return jnp.repeat(x, rep, axis=norm_axis(axis, x.ndim))


def _flip(x, dims):
    return jnp.flip(x, norm_axes(dims, x.ndim, "dims")) if x.ndim else x


@op(static=("dims",), prim="ReverseV2",
    primitive=PrimDef(init=(("axis", ()),), call=lambda prim, x: flip(x, prim.axis)))
def flip(input, dims):
    """Reverse the order of elements along each axis in ``dims``."""
    return _flip(input, dims)


@op(static=("axis",), method="reverse", prim="ReverseV2")
def reverse(x, axis):
    """Reverse the order of elements along each axis in ``axis`` (``flip``)."""
    return _flip(x, axis)


@op(method="fliplr", prim="ReverseV2")
def fliplr(input):
    """Reverse along axis 1 (needs at least 2 dimensions)."""
    if input.ndim < 2:
        raise ValueError(f"the input must have at least 2 dimensions, but got {input.ndim}.")
    return jnp.flip(input, 1)


@op(method="flipud", prim="ReverseV2")
def flipud(input):
    """Reverse along axis 0 (needs at least 1 dimension)."""
    if input.ndim < 1:
        raise ValueError("the input must have at least 1 dimension, but got 0.")
    return jnp.flip(input, 0)


@op(static=("shifts", "dims"), prim="Roll",
    primitive=PrimDef(init=(("shifts", 0), ("dims", None)),
                      call=lambda prim, x: roll(x, prim.shifts, prim.dims)))
def roll(input, shifts, dims=None):
    """Shift elements by ``shifts`` along ``dims`` cyclically (``None``: the flattened input)."""
    if dims is None:
        if not isinstance(shifts, numbers.Integral):
            shifts = as_shape(shifts, "shifts")
            if len(shifts) != 1:
                raise ValueError(f"'shifts' must be one int when 'dims' is None, got {shifts}.")
            shifts = shifts[0]
        return jnp.roll(input, int(shifts))
    dims = norm_axes(dims, input.ndim, "dims")
    shifts = as_shape(shifts, "shifts")
    if len(shifts) != len(dims):
        raise ValueError(f"'shifts' and 'dims' must have the same length, but got {shifts} and "
                         f"{dims}.")
    return jnp.roll(input, shifts, dims)


@op(static=("k", "dims"), method="rot90", prim="ReverseV2")
def rot90(input, k, dims):
    """Rotate by 90 degrees ``k`` times in the plane ``dims``, from ``dims[0]`` to ``dims[1]``."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ArgTypeError(f"the 'k' must be an int, but got {type(k).__name__}.")
    if not isinstance(dims, (tuple, list)) or len(dims) != 2:
        raise ValueError(f"the rotation 'dims' must be 2 ints, but got {dims}.")
    n = input.ndim
    for i, d in enumerate(dims):
        if not -n <= d < n:
            raise ValueError(f"rotation dim{i} is out of range, dim{i}={d}.")
    if dims[0] % n == dims[1] % n:
        raise user_error(RuntimeError, f"For 'rot90', rotation dims must be different, but got "
                                       f"dim0={dims[0]}, dim1={dims[1]}.")
    return jnp.rot90(input, k, (dims[0] % n, dims[1] % n))


@op(static=("axis", "start", "length"), prim="Slice")
def narrow(input, axis, start, length):
    """``length`` elements from ``start`` along ``axis``."""
    ax = norm_axis(axis, input.ndim)
    size = input.shape[ax]
    if not 0 <= start < size:
        raise ValueError(f"the 'start' must be in range [0, {size}), but got {start}.")
    if not 1 <= length <= size - start:
        raise ValueError(f"the 'length' must be in range [1, {size - start}], but got {length}.")
    idx = [slice(None)] * input.ndim
    idx[ax] = slice(start, start + length)
    return input[tuple(idx)]


__all__ = exports(__name__)
