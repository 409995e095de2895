"""Op rows: gathers (gather, gather_d/gather_elements, gather_nd, index_select, take),
selection (where, select, masked_fill, masked_select, nonzero, argwhere), one_hot,
and static slicing (slice, strided_slice), with their Primitive classes.

``masked_select``, ``nonzero`` and ``argwhere`` return a shape that depends on
values, so they run eagerly only; inside a captured graph they raise a
``ConcretizationError`` naming the op. Their gradient still flows through the
selected input when only the mask is concrete (e.g. under ``grad``).
"""
from __future__ import annotations

import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor, wrap
from msxla.errors import ConcretizationError, ShapeError, user_error
from msxla.ops import _arg_errors
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.reduction import one_axis
from msxla.ops.surface import exports, set_public


_ALL = tuple(mstype.all_types)
_INT = (mstype.int32, mstype.int64)


def eager_value(value, opname, argname):
    """The concrete numpy value of a Tensor argument that decides an output shape.

    Raises a ConcretizationError naming the op while a graph is being captured."""
    data = value._data if isinstance(value, Tensor) else value
    if isinstance(data, Tracer):
        raise user_error(
            ConcretizationError,
            f"For '{opname}', the output shape depends on the values of '{argname}', so it "
            "can only run eagerly (PyNative), not inside a captured graph.",
            hint="keep shapes static: use ops.masked_fill, ops.where or ops.select with a "
                 "mask instead of selecting the elements.")
    arr = np.asarray(data)
    if arr.dtype.kind not in "biufc":  # strings, None, dicts: not a Tensor's values
        raise TypeError(f"For '{opname}', '{argname}' must be a Tensor, but got "
                        f"{_arg_errors.describe(value)}.")
    return arr


def check_index_dtype(index, opname, argname="index"):
    if index.dtype.kind not in "iu":
        raise TypeError(f"For '{opname}', the '{argname}' must be an int32 or int64 Tensor, "
                        f"but got {mstype.from_np(index.dtype)}.")


def _index_array(index, opname, argname="indices"):
    index = jnp.asarray(index)
    check_index_dtype(index, opname, argname)
    return index


# ------------------------------------------------------------------- gathers
def _gather(params, indices, axis, batch_dims):
    if batch_dims:
        return jax.vmap(functools.partial(_gather, axis=axis - 1, batch_dims=batch_dims - 1))(
            params, indices)
    return jnp.take(params, indices, axis=axis, mode="fill", fill_value=0)


@op(static=("axis", "batch_dims"), method="gather", prim="Gather", dtypes=_ALL,
    primitive=(PrimDef(init=(("batch_dims", 0),)), "GatherV2"))
def gather(input_params, input_indices, axis, batch_dims=0):
    """Slices of ``input_params`` along ``axis`` at ``input_indices`` (the first
    ``batch_dims`` dimensions of both are batch dimensions)."""
    indices = _index_array(input_indices, "Gather", "input_indices")
    axis = one_axis(axis, input_params.ndim)
    if batch_dims < 0:
        batch_dims += indices.ndim
    if not 0 <= batch_dims <= min(indices.ndim, axis):
        raise ValueError(f"the 'batch_dims' must be in [0, {min(indices.ndim, axis)}], "
                         f"but got {batch_dims}.")
    return _gather(input_params, indices, axis, batch_dims)


def _gather_elements(x, dim, index, name):
    index = _index_array(index, name, "index")
    if index.ndim != x.ndim:
        raise ValueError(f"the rank of 'index' ({index.ndim}) must equal the rank of the "
                         f"input ({x.ndim}).")
    dim = one_axis(dim, x.ndim, "dim")
    for d, (a, b) in enumerate(zip(index.shape, x.shape)):
        if d != dim and a > b:
            raise ValueError(f"index.shape[{d}] = {a} must not exceed input.shape[{d}] = {b}.")
    x = x[tuple(np.s_[:s] if d != dim else np.s_[:] for d, s in enumerate(index.shape))]
    return jnp.take_along_axis(x, index, axis=dim, mode="fill", fill_value=0)


@op(static=("dim",), prim="GatherD", dtypes=_ALL, primitive=True)
def gather_d(x, dim, index):
    """``out[i][j] = x[index[i][j]][j]`` (for ``dim == 0``): elements picked along ``dim``."""
    return _gather_elements(x, dim, index, "GatherD")


@op(static=("dim",), method="gather_elements", prim="GatherD", dtypes=_ALL)
def gather_elements(input, dim, index):
    """Elements of ``input`` picked along ``dim`` by ``index`` (same rank as ``input``)."""
    return _gather_elements(input, dim, index, "GatherD")


@op(prim="GatherNd", dtypes=_ALL, primitive=True)
def gather_nd(input_x, indices):
    """Slices of ``input_x`` addressed by the last dimension of ``indices``."""
    indices = _index_array(indices, "GatherNd")
    if indices.ndim == 0 or indices.shape[-1] > input_x.ndim:
        raise ValueError(f"the last dimension of 'indices' ({indices.shape}) must not exceed "
                         f"the rank of the input ({input_x.ndim}).")
    return input_x[tuple(jnp.moveaxis(indices, -1, 0))]


@op(static=("axis",), prim="Gather", dtypes=_ALL)
def index_select(input, axis, index):
    """Slices of ``input`` along ``axis`` at the 1-D ``index``."""
    index = _index_array(index, "index_select", "index")
    if index.ndim > 1:
        raise ValueError(f"the 'index' must be 0-D or 1-D, but got shape {index.shape}.")
    return jnp.take(input, index, axis=one_axis(axis, input.ndim), mode="fill", fill_value=0)


@op(method="take", prim="Take", dtypes=_ALL)
def take(input, index):
    """Elements of the flattened ``input`` at ``index`` (output has ``index``'s shape)."""
    index = _index_array(index, "take", "index")
    return jnp.take(input.reshape(-1), index, mode="fill", fill_value=0)


# ----------------------------------------------------------------- selection
def _cond(condition):
    condition = jnp.asarray(condition)
    return condition if condition.dtype == np.bool_ else condition != 0


@op(dtype="promote", dtype_args=("input", "other"), prim="Select", dtypes=_ALL)
def where(condition, input, other):
    """``input`` where ``condition`` holds, else ``other`` (broadcast, promoted)."""
    return jnp.where(_cond(condition), input, other)


@op(dtype="promote", dtype_args=("input", "other"), prim="Select", dtypes=_ALL, primitive=True)
def select(condition, input, other):
    """``input`` where ``condition`` holds, else ``other`` (MindSpore's ``ops.select``)."""
    return jnp.where(_cond(condition), input, other)


@op(method="masked_fill", prim="MaskedFill", dtypes=_ALL, primitive=True)
def masked_fill(input_x, mask, value):
    """``input_x`` with ``value`` (cast to its dtype) where ``mask`` is True."""
    value = jnp.asarray(value)
    if value.ndim != 0:
        raise ValueError(f"the 'value' must be a scalar or 0-D Tensor, but got shape "
                         f"{value.shape}.")
    return jnp.where(_cond(mask), value.astype(input_x.dtype), input_x)


@op(method="masked_select", prim="MaskedSelect", differentiable=True, dtypes=_ALL, primitive=True)
def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` (broadcast) is True, as a 1-D Tensor."""
    return input[mask]


@functools.partial(jax.jit, static_argnums=(1,), inline=True)
def _take_flat(x, shape, flat):
    return jnp.broadcast_to(x, shape).reshape(-1)[flat]


_masked_select_row = masked_select


def masked_select(input, mask):  # noqa: F811 - the eager public face of the row above
    """The elements of ``input`` where ``mask`` (broadcast) is True, as a 1-D Tensor."""
    m = eager_value(mask, "masked_select", "mask")
    if m.dtype != np.bool_:
        raise TypeError(f"For 'masked_select', the 'mask' must be a bool Tensor, but got "
                        f"{mstype.to_ms(m.dtype)}.")
    x = input._data if isinstance(input, Tensor) else jnp.asarray(input)
    try:
        shape = np.broadcast_shapes(x.shape, m.shape)
    except ValueError:
        raise user_error(ShapeError, f"For 'masked_select', the shapes of input {x.shape} and "
                                     f"mask {m.shape} cannot broadcast.") from None
    flat = np.flatnonzero(np.broadcast_to(m, shape))
    return wrap(_take_flat(x, shape, jnp.asarray(flat)))


set_public(_masked_select_row, masked_select)


@op(static=("as_tuple",), method="nonzero", prim="NonZero", differentiable=False, dtypes=_ALL)
def nonzero(input, *, as_tuple=False):
    """Indices (int64) of the non-zero elements: ``(n, ndim)``, or a tuple of ``ndim`` 1-D
    Tensors when ``as_tuple``."""
    return jnp.argwhere(input)


_nonzero_row = nonzero


def nonzero(input, *, as_tuple=False):  # noqa: F811 - the eager public face of the row above
    """Indices (int64) of the non-zero elements: ``(n, ndim)``, or a tuple of ``ndim`` 1-D
    Tensors when ``as_tuple``."""
    arr = eager_value(input, "nonzero", "input")
    if arr.ndim == 0:
        raise ValueError("For 'NonZero', the dimension of 'x' must be greater than or equal "
                         "to 1, but got 0.")
    idx = np.nonzero(arr)
    if as_tuple:
        return tuple(wrap(jnp.asarray(i, jnp.int64)) for i in idx)
    return wrap(jnp.asarray(np.stack(idx, axis=1).astype(np.int64)))


set_public(_nonzero_row, nonzero)


@op(prim="NonZero", differentiable=False, dtypes=_ALL, primitive=True)
def argwhere(input):
    """Indices (int64, shape ``(n, ndim)``) of the non-zero elements."""
    return jnp.argwhere(input)


_argwhere_row = argwhere


def argwhere(input):  # noqa: F811 - the eager public face of the row above
    """Indices (int64, shape ``(n, ndim)``) of the non-zero elements."""
    return nonzero(input)


set_public(_argwhere_row, argwhere)


# -------------------------------------------------------------------- one_hot
@op(static=("depth", "axis"), dtype="promote", dtype_args=("on_value", "off_value"),
    prim="OneHot", differentiable=False, dtypes=_INT, primitive=PrimDef(init=(("axis", -1),)))
def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """A one-hot encoding of ``indices`` with ``depth`` classes on a new ``axis``;
    indices outside ``[0, depth)`` give all ``off_value``."""
    indices = _index_array(indices, "OneHot", "indices")
    if depth < 0:
        raise ValueError(f"the 'depth' must be non-negative, but got {depth}.")
    if not -1 <= axis <= indices.ndim:
        raise ValueError(f"the 'axis' must be in [-1, {indices.ndim}], but got {axis}.")
    hot = indices[..., None] == jnp.arange(depth, dtype=indices.dtype)
    if axis != -1:
        hot = jnp.moveaxis(hot, -1, axis)
    on, off = jnp.asarray(on_value), jnp.asarray(off_value)
    return jnp.where(hot, on, off.astype(on.dtype))


# ------------------------------------------------------------------- slicing
def _ints(values, what):
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"each element of '{what}' must be an int, but got "
                            f"{type(v).__name__}.")
        out.append(int(v))
    return tuple(out)


@op(static=("begin", "size"), prim="Slice", dtypes=_ALL, primitive=True)
def slice(input_x, begin, size):  # noqa: A001 - MindSpore's name
    """The block of ``input_x`` starting at ``begin`` with extent ``size`` (-1: to the end)."""
    begin, size = _ints(begin, "begin"), _ints(size, "size")
    if len(begin) != input_x.ndim or len(size) != input_x.ndim:
        raise ValueError(f"the length of 'begin' {begin} and 'size' {size} must equal the "
                         f"rank of the input ({input_x.ndim}).")
    start, stop = [], []
    for i, (b, s, d) in enumerate(zip(begin, size, input_x.shape)):
        s = d - b if s == -1 else s
        if b < 0 or s < 0 or b + s > d:
            raise ValueError(f"the sum of begin[{i}] ({b}) and size[{i}] ({s}) must be no "
                             f"greater than input_x.shape[{i}] ({d}).")
        start.append(b)
        stop.append(b + s)
    return jax.lax.slice(input_x, start, stop)


@op(static=("begin", "end", "strides", "begin_mask", "end_mask", "ellipsis_mask",
            "new_axis_mask", "shrink_axis_mask"), prim="StridedSlice", dtypes=_ALL,
    primitive=PrimDef(init=(("begin_mask", 0), ("end_mask", 0), ("ellipsis_mask", 0),
                            ("new_axis_mask", 0), ("shrink_axis_mask", 0))))
def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """``input_x[begin:end:strides]`` per dimension, with TensorFlow-style bit masks."""
    begin, end, strides = (_ints(begin, "begin"), _ints(end, "end"),
                           _ints(strides, "strides"))
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"'begin' {begin}, 'end' {end} and 'strides' {strides} must have "
                         "the same length.")
    if 0 in strides:
        raise ValueError("'strides' cannot contain 0.")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            d = input_x.shape[len([x for x in index if x is not None])]
            if not -d <= b < d:
                raise ValueError(f"the shrunk index {b} is out of range for dimension of "
                                 f"size {d}.")
            index.append(b)
        else:
            index.append(np.s_[None if begin_mask & bit else b:None if end_mask & bit else e:s])
    return input_x[tuple(index)]


# ----------------------------------------------------------------- primitives


__all__ = exports(__name__)
