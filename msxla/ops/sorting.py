"""Op rows: ordering and counting — topk, sort, argsort, unique, searchsorted,
bucketize, bincount — with the TopK / Sort / Unique / SearchSorted primitives.

Index outputs are int32 where MindSpore 2.10 gives int32 (topk, sort, argsort,
bucketize). Sorting is stable. ``unique`` and ``bincount`` have value-dependent
output shapes and run eagerly only.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor, wrap
from msxla.ops.indexing import check_index_dtype, eager_value
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.reduction import one_axis
from msxla.ops.surface import exports, set_public


_REAL = tuple(t for t in mstype.all_types if 0 < mstype.category(t) < 3)


def _flip_order(x):
    """A key whose ascending order is ``x``'s descending order (exact for ints, NaN last)."""
    if x.dtype.kind in "iu":
        return ~x
    return -x


@op(static=("k", "dim", "largest", "sorted"), method="topk", prim="TopK", dtypes=_REAL,
    primitive=PrimDef(init=(("sorted", True),),
                      call=lambda prim, x, k: topk(x, k, None, True, prim.sorted)))
def topk(input, k, dim=None, largest=True, sorted=True):  # noqa: A002 - MindSpore's name
    """``(values, indices)`` of the ``k`` largest (or smallest) entries along ``dim``
    (default: the last); indices are int32, ties keep the lower index first."""
    if input.dtype == np.bool_:
        raise TypeError("For 'TopK', the input must be a numeric Tensor, but got Bool.")
    if input.ndim == 0:
        input = input.reshape(1)
    ax = input.ndim - 1 if dim is None else one_axis(dim, input.ndim, "dim")
    n = input.shape[ax]
    if not 0 <= k <= n:
        raise ValueError(f"the k must be in (0,{n}], but got {k}.")
    x = jnp.moveaxis(input, ax, -1)
    key = x if largest else _flip_order(x)
    _, idx = jax.lax.top_k(key, k)
    values = jnp.take_along_axis(x, idx, axis=-1)
    return jnp.moveaxis(values, -1, ax), jnp.moveaxis(idx, -1, ax).astype(jnp.int32)


@op(static=("axis", "descending"), prim="Sort", dtypes=_REAL,
    primitive=PrimDef(init=(("axis", -1), ("descending", False))))
def sort(input_x, axis=-1, descending=False):
    """``(values, indices)`` sorted along ``axis`` (stable; indices are int32)."""
    if input_x.ndim == 0:
        return input_x, jnp.zeros((), jnp.int32)
    ax = one_axis(axis, input_x.ndim)
    idx = jnp.argsort(input_x, axis=ax, descending=descending, stable=True)
    return jnp.take_along_axis(input_x, idx, axis=ax), idx.astype(jnp.int32)


@op(static=("axis", "descending"), prim="Sort", differentiable=False, dtypes=_REAL)
def argsort(input, axis=-1, descending=False):
    """The int32 indices that sort ``input`` along ``axis`` (stable)."""
    if input.ndim == 0:
        return jnp.zeros((), jnp.int32)
    ax = one_axis(axis, input.ndim)
    return jnp.argsort(input, axis=ax, descending=descending, stable=True).astype(jnp.int32)


@op(prim="Unique", differentiable=False, dtypes=_REAL, primitive=True)
def unique(input):
    """``(output, idx)``: the distinct values in order of first appearance, and for each
    input element the position of its value in ``output``."""
    return jnp.unique(input)


_unique_row = unique


def unique(input):  # noqa: F811 - the eager public face of the row above
    """``(output, idx)``: the distinct values in order of first appearance, and for each
    input element the position of its value in ``output``."""
    arr = eager_value(input, "unique", "input")
    values, first, inverse = np.unique(arr.reshape(-1), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")      # distinct values by first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    idx_dtype = np.int64 if arr.dtype == np.int64 else np.int32
    return (wrap(jnp.asarray(values[order])),
            wrap(jnp.asarray(rank[inverse].reshape(arr.shape).astype(idx_dtype))))


set_public(_unique_row, unique)


def _searchsorted(seq, values, side):
    if seq.ndim == 1:
        return jnp.searchsorted(seq, values, side=side)
    return jax.vmap(lambda s, v: _searchsorted(s, v, side))(seq, values)


@op(static=("out_int32", "right", "side"), prim="SearchSorted", differentiable=False,
    dtypes=(mstype.int32, mstype.int64, mstype.float32, mstype.float64),
    primitive=PrimDef(init=(("dtype", mstype.int64), ("right", False)),
                      call=lambda prim, seq, values, sorter=None: searchsorted(
                          seq, values, out_int32=mstype.to_ms(prim.dtype) is mstype.int32,
                          right=prim.right, sorter=sorter)))
def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Insertion points of ``values`` in ``sorted_sequence`` (along its last dimension; the
    leading dimensions are batch dimensions matching ``values``')."""
    if side is not None and side not in ("left", "right"):
        raise ValueError(f"the 'side' must be 'left' or 'right', but got {side!r}.")
    side = side or ("right" if right else "left")
    values = jnp.asarray(values)
    if sorter is not None:
        sorted_sequence = jnp.take_along_axis(sorted_sequence, jnp.asarray(sorter), axis=-1)
    if sorted_sequence.ndim > 1 and sorted_sequence.shape[:-1] != values.shape[:-1]:
        raise ValueError(f"the leading dimensions of 'sorted_sequence' "
                         f"{sorted_sequence.shape} and 'values' {values.shape} must match.")
    dt = jnp.promote_types(sorted_sequence.dtype, values.dtype)
    out = _searchsorted(sorted_sequence.astype(dt), values.astype(dt), side)
    return out.astype(jnp.int32 if out_int32 else jnp.int64)


@op(static=("boundaries", "right"), prim="Bucketize", differentiable=False, dtypes=_REAL,
    primitive=PrimDef(init=(("boundaries", ()),),
                      call=lambda prim, x: bucketize(x, prim.boundaries)))
def bucketize(input, boundaries, *, right=False):
    """The bucket (int32) of each element given the sorted ``boundaries``."""
    b = jnp.asarray(np.asarray(boundaries, dtype=np.float64 if input.dtype.kind == "f"
                               else np.int64))
    out = jnp.searchsorted(b, input.astype(b.dtype), side="right" if right else "left")
    return out.astype(jnp.int32)


@op(static=("minlength",), method="bincount", prim="Bincount", differentiable=False,
    dtypes=(mstype.int32, mstype.int64))
def bincount(input, weights=None, minlength=0):
    """Counts (or summed ``weights``) of each non-negative integer in the 1-D ``input``."""
    return jnp.bincount(input, weights, minlength=minlength)


_bincount_row = bincount


def bincount(input, weights=None, minlength=0):  # noqa: F811 - eager public face
    """Counts (or summed ``weights``) of each non-negative integer in the 1-D ``input``,
    as float32 (the weights' float dtype when given)."""
    arr = eager_value(input, "bincount", "input")
    check_index_dtype(arr, "bincount", "input")
    if arr.ndim != 1:
        raise ValueError(f"For 'bincount', the 'input' must be 1-D, but got shape {arr.shape}.")
    if arr.size and arr.min() < 0:
        raise ValueError("For 'bincount', the 'input' must be non-negative.")
    length = max(int(arr.max()) + 1 if arr.size else 0, int(minlength))
    w = weights._data if isinstance(weights, Tensor) else weights
    out_dtype = w.dtype if w is not None and np.dtype(w.dtype).kind == "f" else jnp.float32
    return wrap(_bincount(jnp.asarray(arr), w, length).astype(out_dtype))


def _bincount(x, w, length):
    out = jnp.zeros(length, jnp.float64 if w is None else jnp.asarray(w).dtype)
    return out.at[x].add(1 if w is None else w)


set_public(_bincount_row, bincount)


# ----------------------------------------------------------------- primitives


__all__ = exports(__name__)
