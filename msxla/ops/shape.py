"""Op rows: shape changes that keep every element in order or permute axes.

reshape, transpose/permute, swapaxes, moveaxis, squeeze, expand_dims,
flatten, ravel, broadcast_to, atleast_nd and cast, plus the shape queries
MindSpore exposes as ops (``ops.shape``, ``ops.rank``, ``ops.size``,
``ops.dtype``), which read static metadata and so are plain functions.
Tensor methods with overloaded forms (``x.reshape(2, 3)``) live in
``shape_methods.py``.
"""
from __future__ import annotations

import math

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops._shape_util import ArgTypeError, as_dtype, as_shape, norm_axes, norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports


def reshape_target(shape, size):
    """``shape`` with its -1 resolved for ``size`` elements; ValueError if it cannot hold them."""
    shape = as_shape(shape)
    free = [i for i, s in enumerate(shape) if s == -1]
    if len(free) > 1 or any(s < -1 for s in shape):
        raise ValueError(f"the shape {shape} is invalid: only one dimension may be -1 and the "
                         "others must be non-negative.")
    known = math.prod(s for s in shape if s != -1)
    if free:
        if known == 0 or size % known:
            raise ValueError(f"the shape {shape} is invalid for input of size {size}.")
        shape = shape[:free[0]] + (size // known,) + shape[free[0] + 1:]
    elif known != size:
        raise ValueError(f"the shape {shape} is invalid for input of size {size}.")
    return shape


@op(static=("shape",), prim="Reshape", primitive=True)
def reshape(input, shape):
    """``input`` with the same elements in row-major order and shape ``shape`` (one -1 allowed)."""
    return jnp.reshape(input, reshape_target(shape, input.size))


def check_perm(dims, ndim):
    dims = as_shape(dims, "dims")
    if len(dims) != ndim:
        raise ValueError(f"size of perm should equal to rank of x, but got {len(dims)} and {ndim}.")
    perm = tuple(norm_axis(d, ndim, "dims") for d in dims) if ndim else ()
    if len(set(perm)) != len(perm):
        raise ValueError(f"perm should all be unique dims, but got {dims}.")
    return perm


@op(static=("dims",), prim="Transpose", primitive=True)
def transpose(input, dims):
    """Permute the axes of ``input``: output axis i is input axis ``dims[i]``."""
    return jnp.transpose(input, check_perm(dims, input.ndim))


@op(static=("axis",), prim="Transpose")
def permute(input, axis):
    """Permute the axes of ``input`` (``ops.transpose`` by another name)."""
    return jnp.transpose(input, check_perm(axis, input.ndim))


@op(static=("axis0", "axis1"), method="swapaxes", prim="Transpose")
def swapaxes(input, axis0, axis1):
    """Exchange two axes."""
    a, b = norm_axis(axis0, input.ndim, "axis"), norm_axis(axis1, input.ndim, "axis")
    return jnp.swapaxes(input, a, b) if input.ndim else input


@op(static=("dim0", "dim1"), method="swapdims", prim="Transpose")
def swapdims(input, dim0, dim1):
    """Exchange two dimensions (``swapaxes``)."""
    a, b = norm_axis(dim0, input.ndim, "dim"), norm_axis(dim1, input.ndim, "dim")
    return jnp.swapaxes(input, a, b) if input.ndim else input


def _moveaxis(x, source, destination):
    src, dst = norm_axes(source, x.ndim), norm_axes(destination, x.ndim)
    if len(src) != len(dst):
        raise ValueError(f"'source' and 'destination' must have the same number of axes, but "
                         f"got {source} and {destination}.")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"repeated axis in 'source' {source} or 'destination' {destination}.")
    return jnp.moveaxis(x, src, dst)


@op(static=("source", "destination"), method="moveaxis", prim="Transpose")
def moveaxis(x, source, destination):
    """Move axes ``source`` to positions ``destination``; the others keep their order."""
    return _moveaxis(x, source, destination)


@op(static=("source", "destination"), method="movedim", prim="Transpose")
def movedim(x, source, destination):
    """Move dims ``source`` to positions ``destination`` (``moveaxis``)."""
    return _moveaxis(x, source, destination)


def squeeze_axes(x, axis):
    if axis is None or axis == ():
        return tuple(i for i, s in enumerate(x.shape) if s == 1)
    # MindSpore leaves a named axis whose size is not 1 in place.
    return tuple(a for a in norm_axes(axis, x.ndim) if x.shape[a] == 1)


@op(static=("axis",), prim="Squeeze",
    primitive=PrimDef(init=(("axis", ()),), call=lambda prim, x: squeeze(x, prim.axis)))
def squeeze(input, axis=None):
    """Drop size-1 axes: all of them (``axis=None``) or those named in ``axis``."""
    if input.ndim == 0:
        if axis is not None:
            norm_axes(axis, 0)
        return input
    return jnp.squeeze(input, squeeze_axes(input, axis))


def _expand(x, axis):
    n = x.ndim + 1
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise ArgTypeError(f"the 'axis' must be an int, but got {type(axis).__name__}.")
    if not -n <= axis < n:
        raise ValueError(f"the 'axis' must be in range [{-n}, {n}), but got {axis}.")
    return jnp.expand_dims(x, axis % n)


@op(static=("axis",), method="expand_dims", prim="ExpandDims", primitive=True)
def expand_dims(input_x, axis):
    """Insert a size-1 axis at ``axis`` (in ``[-ndim-1, ndim]``)."""
    return _expand(input_x, axis)


@op(static=("dim",), method="unsqueeze", prim="ExpandDims")
def unsqueeze(input, dim):
    """Insert a size-1 dimension at ``dim`` (``expand_dims``)."""
    return _expand(input, dim)


def flatten_shape(shape, order, start_dim, end_dim):
    """(permutation or None, new shape) of MindSpore's ``flatten``."""
    if order not in ("C", "F"):
        raise ValueError(f"the parameter 'order' must be 'C' or 'F', but got {order!r}.")
    for d in (start_dim, end_dim):
        if isinstance(d, bool) or not isinstance(d, int):
            raise ArgTypeError("both 'start_dim' and 'end_dim' must be int.")
    rank = len(shape)
    perm = None
    if order == "F" and rank > 1:
        perm = tuple(reversed(range(rank)))
        shape = tuple(reversed(shape))
    if start_dim == 1 and end_dim == -1:
        if rank <= 1:
            return perm, (math.prod(shape),)
        return perm, (shape[0], math.prod(shape[1:]))
    n = max(rank, 1)
    if not (-n <= start_dim < n and -n <= end_dim < n):
        raise ValueError(f"'start_dim' ({start_dim}) or 'end_dim' ({end_dim}) out of range "
                         f"[{-n}, {n}).")
    start, end = start_dim % n, end_dim % n
    if start > end:
        raise ValueError(f"'start_dim' ({start_dim}) cannot come after 'end_dim' ({end_dim}).")
    if rank <= 1:
        return perm, (math.prod(shape),)
    return perm, shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:]


@op(static=("order", "start_dim", "end_dim"), prim="Flatten",
    primitive=PrimDef(call=lambda prim, x: flatten(x)))
def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Merge axes ``start_dim..end_dim`` into one; ``order='F'`` first reverses the axes.

    MindSpore's default ``start_dim=1`` keeps the batch axis: (N, ...) -> (N, -1)."""
    perm, new_shape = flatten_shape(input.shape, order, start_dim, end_dim)
    if perm is not None:
        input = jnp.transpose(input, perm)
    return jnp.reshape(input, new_shape)


@op(method="ravel", prim="Reshape")
def ravel(input):
    """``input`` as a 1-D tensor in row-major order."""
    return jnp.reshape(input, (-1,))


def broadcast_target(in_shape, shape):
    shape = as_shape(shape)
    lead = len(shape) - len(in_shape)
    if lead < 0:
        raise ValueError(f"the target shape {shape} has fewer dimensions than the input "
                         f"shape {tuple(in_shape)}.")
    out = []
    for i, s in enumerate(shape):
        if i < lead:
            if s == -1:
                raise ValueError(f"-1 in the target shape {shape} is at index {i}, but -1 can "
                                 f"only be in index {lead} onwards for input shape "
                                 f"{tuple(in_shape)}.")
            out.append(s)
            continue
        d = in_shape[i - lead]
        if s == -1:
            out.append(d)
        elif d == s or d == 1:
            out.append(s)
        else:
            raise ValueError(f"in order to broadcast, each dimension pair must be equal or the "
                             f"input dimension must be 1 or the target dimension -1, but got "
                             f"x_shape: {tuple(in_shape)}, target shape: {shape}.")
    return tuple(out)


@op(static=("shape",), prim="BroadcastTo",
    primitive=PrimDef(init=(("shape", None),), call=lambda prim, x: broadcast_to(x, prim.shape)))
def broadcast_to(input, shape):
    """``input`` broadcast to ``shape``; -1 keeps the input's size of that dimension."""
    return jnp.broadcast_to(input, broadcast_target(input.shape, shape))


def _atleast(inputs, n):
    def one(x):
        if x.ndim >= n:
            return x
        if n == 3 and x.ndim == 2:
            return x[:, :, None]
        if n == 3 and x.ndim == 1:
            return x[None, :, None]
        return jnp.reshape(x, (1,) * (n - x.ndim) + x.shape)
    if isinstance(inputs, (tuple, list)):
        return tuple(one(x) for x in inputs)
    return one(inputs)


@op(prim="AtLeast1D")
def atleast_1d(inputs):
    """Each input with at least 1 dimension (a Tensor, or a tuple for a sequence)."""
    return _atleast(inputs, 1)


@op(prim="AtLeast2D")
def atleast_2d(inputs):
    """Each input with at least 2 dimensions (new axes in front)."""
    return _atleast(inputs, 2)


@op(prim="AtLeast3D")
def atleast_3d(inputs):
    """Each input with at least 3 dimensions: (N,) -> (1, N, 1), (M, N) -> (M, N, 1)."""
    return _atleast(inputs, 3)


@op(static=("dtype",), prim="Cast", primitive=True)
def cast(input, dtype):
    """``input`` converted to ``dtype``: floats to ints truncate toward zero and,
    out of range, give what MindSpore's CPU kernels give (``common.cast.float_to_int``)."""
    from msxla.ops._dispatch import cast_array
    return cast_array(jnp.asarray(input), as_dtype(dtype))


# ------------------------------------------------- static metadata queries
def _tensor(x, opname):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{opname}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


@composite(prim="Shape", primitive=True)
def shape(input_x):
    """The shape of ``input_x`` as a tuple of ints."""
    return _tensor(input_x, "Shape").shape


@composite(prim="TensorShape", primitive=True)
def tensor_shape(input_x):
    """The shape of ``input_x`` as a 1-D int64 Tensor."""
    return Tensor(list(_tensor(input_x, "TensorShape").shape), mstype.int64)


@composite(prim="Rank", primitive=True)
def rank(input_x):
    """The number of dimensions of ``input_x``."""
    return len(_tensor(input_x, "Rank").shape)


@composite(prim="Size", primitive=True)
def size(input_x):
    """The number of elements of ``input_x``."""
    return math.prod(_tensor(input_x, "Size").shape)


@composite()
def numel(input):
    """The number of elements of ``input``."""
    return math.prod(_tensor(input, "numel").shape)


@composite(prim="DType", primitive=True)
def dtype(x):
    """The dtype of ``x``."""
    return _tensor(x, "DType").dtype


__all__ = exports(__name__)
