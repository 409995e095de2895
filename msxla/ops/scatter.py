"""Op rows: scatters — element-wise (scatter, tensor_scatter_elements), by index
tuples (scatter_nd, tensor_scatter_update/add/sub/mul/div/max/min), along an axis
(index_add, index_fill), and MindSpore's in-place ``scatter_*`` ops.

``scatter_add``, ``scatter_update``, ``scatter_nd_add``, ``index_add``, ... update
their first argument in place (a Parameter through its state frame, so they
also work inside ``jit`` and ``grad``) and return the new value, as MindSpore
does. Duplicate indices accumulate for the additive ops.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.indexing import check_index_dtype
from msxla.ops.opdef import op
from msxla.ops.primitive import REQUIRED, PrimDef
from msxla.ops.reduction import one_axis
from msxla.ops.surface import composite, exports, set_public


_ALL = tuple(mstype.all_types)
_NUM = tuple(t for t in mstype.all_types if 0 < mstype.category(t) < 3)


def _apply(x, index, mode, updates):
    """``x`` with ``updates`` applied at ``index`` (a tuple of index arrays) by ``mode``."""
    ref = x.at[index]
    if mode == "update":
        return ref.set(updates)
    if mode == "add":
        return ref.add(updates)
    if mode == "sub":
        return ref.add(-updates)
    if mode == "max":
        return ref.max(updates)
    if mode == "min":
        return ref.min(updates)
    if mode == "div" and x.dtype.kind in "iu":
        return ref.divide(updates)
    if mode == "div":
        return _scatter_mul(x, index, 1 / updates)
    if mode == "mul":
        return _scatter_mul(x, index, updates)
    raise ValueError(f"unknown scatter mode {mode!r}")


@jax.custom_jvp
def _scatter_mul(x, index, updates):
    """``x.at[index].multiply(updates)``, differentiable with repeated indices too."""
    return x.at[index].multiply(updates)


@_scatter_mul.defjvp
def _scatter_mul_jvp(primals, tangents):
    x, index, updates = primals
    tx, _, tu = tangents
    out = _scatter_mul(x, index, updates)
    factor = jnp.ones_like(x).at[index].multiply(updates)
    return out, tx * factor + out * jnp.zeros_like(x).at[index].add(tu / updates)


def _elements_index(index, dim):
    """The full index tuple addressing ``out[..., index[i, j, ...], ...]`` along ``dim``."""
    grids = list(jnp.indices(index.shape, sparse=True))
    grids[dim] = index
    return tuple(grids)


def _scatter_elements(x, dim, index, src, mode):
    index = jnp.asarray(index)
    check_index_dtype(index, "Scatter")
    if index.ndim != x.ndim:
        raise ValueError(f"the rank of 'index' ({index.ndim}) must equal the rank of the "
                         f"input ({x.ndim}).")
    dim = one_axis(dim, x.ndim, "dim")
    src = jnp.asarray(src, x.dtype) if not hasattr(src, "dtype") else src.astype(x.dtype)
    if src.ndim:
        src = src[tuple(np.s_[:s] for s in index.shape)]
    return _apply(x, _elements_index(index, dim), mode, jnp.broadcast_to(src, index.shape))


@op(static=("axis",), prim="Scatter", dtypes=_ALL)
def scatter(input, axis, index, src):
    """``out[..., index[i, j], ...] = src[i, j]`` along ``axis`` (the rest of ``input`` kept)."""
    return _scatter_elements(input, axis, index, src, "update")


@op(static=("axis", "reduction"), prim="TensorScatterElements", dtypes=_ALL,
    primitive=PrimDef(init=(("axis", 0), ("reduction", "none"))))
def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """Like ``scatter``; ``reduction='add'`` accumulates instead of overwriting."""
    if reduction not in ("none", "add"):
        raise ValueError(f"the 'reduction' must be 'none' or 'add', but got {reduction!r}.")
    return _scatter_elements(input_x, axis, indices, updates,
                             "update" if reduction == "none" else "add")


def _nd(x, indices, updates, mode, name):
    indices = jnp.asarray(indices)
    check_index_dtype(indices, name, "indices")
    if indices.ndim < 2:
        raise ValueError(f"the dimension of 'indices' cannot be less than 2, but got "
                         f"{indices.ndim}.")
    depth = indices.shape[-1]
    if depth > x.ndim:
        raise ValueError(f"indices.shape[-1] ({depth}) must not exceed the rank of input_x "
                         f"({x.ndim}).")
    want = indices.shape[:-1] + x.shape[depth:]
    updates = jnp.asarray(updates).astype(x.dtype)
    if updates.shape != want:
        raise ValueError(f"the shape of 'updates' must be {want} (indices.shape[:-1] + "
                         f"input_x.shape[indices.shape[-1]:]), but got {updates.shape}.")
    return _apply(x, tuple(jnp.moveaxis(indices, -1, 0)), mode, updates)


@op(static=("shape",), prim="ScatterNd", dtypes=_ALL, primitive=True)
def scatter_nd(indices, updates, shape):
    """A zero Tensor of ``shape`` with ``updates`` summed in at ``indices``."""
    zeros = jnp.zeros(tuple(int(s) for s in shape), jnp.asarray(updates).dtype)
    return _nd(zeros, indices, updates, "add", "ScatterNd")


def _tensor_scatter(mode, prim, primitive=True):
    def impl(input_x, indices, updates):
        return _nd(input_x, indices, updates, mode, prim)
    impl.__name__ = f"tensor_scatter_{mode}"
    impl.__doc__ = (f"``input_x`` with ``updates`` {'written' if mode == 'update' else mode + '-ed'}"
                    " at the index tuples in the last dimension of ``indices``.")
    return op(name=impl.__name__, prim=prim, dtypes=_NUM, primitive=primitive)(impl)


tensor_scatter_update = _tensor_scatter("update", "TensorScatterUpdate")
tensor_scatter_add = _tensor_scatter("add", "TensorScatterAdd")
tensor_scatter_sub = _tensor_scatter("sub", "TensorScatterSub")
tensor_scatter_mul = _tensor_scatter("mul", "TensorScatterMul")
tensor_scatter_div = _tensor_scatter("div", "TensorScatterDiv")
tensor_scatter_max = _tensor_scatter("max", "TensorScatterMax")
tensor_scatter_min = _tensor_scatter("min", "TensorScatterMin")


def _along(x, axis, index):
    index = jnp.asarray(index)
    check_index_dtype(index, "IndexAdd", "indices")
    if index.ndim > 1:
        raise ValueError(f"the 'index' must be 0-D or 1-D, but got shape {index.shape}.")
    axis = one_axis(axis, x.ndim)
    return axis, (np.s_[:],) * axis + (index,)


def _index_add(x, indices, y, axis):
    axis, where = _along(x, axis, indices)
    return x.at[where].add(jnp.asarray(y).astype(x.dtype))


@op(static=("axis", "use_lock", "check_index_bound"), prim="IndexAdd", dtypes=_NUM,
    primitive=PrimDef(init=(("axis", 0), ("use_lock", True), ("check_index_bound", True)),
                      call=lambda prim, x, indices, y: index_add(x, indices, y, prim.axis)))
def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """``x`` with the slices of ``y`` added at ``indices`` along ``axis`` (in place)."""
    return _index_add(x, indices, y, axis)


@composite(prim="InplaceIndexAdd", public=False, primitive=PrimDef(
    init=(("axis", REQUIRED),),
    call=lambda prim, var, indices, updates: inplace_index_add(var, indices, updates, prim.axis)))
def inplace_index_add(var, indices, updates, axis):
    """``InplaceIndexAdd(axis)(var, indices, updates)``: ``var`` with the slices of
    ``updates`` added at ``indices`` (int32) along ``axis``, written into ``var`` (a
    Parameter or Tensor); returns the result as a new Tensor, as MindSpore does."""
    if isinstance(indices, Tensor) and indices.dtype != mstype.int32:
        raise TypeError("For primitive[InplaceIndexAdd], the input argument[indices] must be "
                        f"a type of {{Tensor[Int32]}}, but got Tensor[{indices.dtype}].")
    out = index_add(var, indices, updates, axis)
    if isinstance(var, Tensor):
        var._data = out._data
    return out


@op(static=("axis",), method="index_fill", prim="IndexFill", dtypes=_ALL, primitive=True)
def index_fill(x, axis, index, value):
    """``x`` with the slices at ``index`` along ``axis`` set to the scalar ``value``."""
    axis, where = _along(x, axis, index)
    return x.at[where].set(jnp.asarray(value).astype(x.dtype))


def _ref(mode, prim, primitive=None):
    def impl(input_x, indices, updates):
        indices = jnp.asarray(indices)
        check_index_dtype(indices, prim, "indices")
        want = indices.shape + input_x.shape[1:]
        updates = jnp.asarray(updates).astype(input_x.dtype)
        if updates.shape != want:
            raise ValueError(f"the shape of 'updates' must be {want} (indices.shape + "
                             f"input_x.shape[1:]), but got {updates.shape}.")
        return _apply(input_x, (indices,), mode, updates)
    impl.__name__ = f"scatter_{mode}"
    impl.__doc__ = (f"``input_x[indices] {'=' if mode == 'update' else mode + '='} updates`` "
                    "on the first dimension, in place.")
    return op(name=impl.__name__, prim=prim, dtypes=_NUM, primitive=primitive)(impl)


def _ref_nd(mode, prim, primitive=None):
    def impl(input_x, indices, updates, use_locking=False):
        return _nd(input_x, indices, updates, mode, prim)
    impl.__name__ = f"scatter_nd_{mode}"
    impl.__doc__ = f"``input_x`` {mode}-ed with ``updates`` at index tuples, in place."
    return op(name=impl.__name__, prim=prim, static=("use_locking",), dtypes=_NUM,
              primitive=primitive)(impl)


def _in_place(row_public):
    """The public face of an in-place op: writes the result back into the first argument."""
    def public(input_x, *args, **kwargs):
        out = row_public(input_x, *args, **kwargs)
        if isinstance(input_x, Tensor):
            input_x._data = out._data
        return out
    public.__name__ = row_public.__name__
    public.__qualname__ = row_public.__name__
    public.__doc__ = row_public.__doc__
    return set_public(row_public, public)


scatter_add = _in_place(_ref("add", "ScatterAdd", PrimDef(
    init=(("use_locking", False),), call=lambda prim, x, i, u: scatter_add(x, i, u))))
scatter_sub = _in_place(_ref("sub", "ScatterSub"))
scatter_mul = _in_place(_ref("mul", "ScatterMul"))
scatter_div = _in_place(_ref("div", "ScatterDiv"))
scatter_max = _in_place(_ref("max", "ScatterMax"))
scatter_min = _in_place(_ref("min", "ScatterMin"))
scatter_update = _in_place(_ref("update", "ScatterUpdate", PrimDef(
    init=(("use_locking", True),), call=lambda prim, x, i, u: scatter_update(x, i, u))))
scatter_nd_add = _in_place(_ref_nd("add", "ScatterNdAdd", PrimDef(init=(("use_locking", False),))))
scatter_nd_sub = _in_place(_ref_nd("sub", "ScatterNdSub"))
scatter_nd_update = _in_place(_ref_nd("update", "ScatterNdUpdate",
                                       PrimDef(init=(("use_locking", True),))))
index_add_pure = index_add  # Tensor.index_add returns a new Tensor
index_add = _in_place(index_add)

__all__ = exports(__name__)
