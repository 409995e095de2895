"""Op rows: writing a Tensor into a view of another (``slice_scatter``,
``select_scatter``, ``diagonal_scatter``, ``inplace_update``).

Each returns a new Tensor equal to ``input`` except on the view, which holds
``src``: the elements ``start:end:step`` along ``axis``, the index ``index`` of
``axis``, the diagonal ``offset`` of the planes (``dim1``, ``dim2``), or the rows
``indices``. Gradients flow to ``input`` outside the view and to ``src`` on it.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.ops._shape_util import norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


@op(static=("axis", "start", "end", "step"), dtype="promote", method="slice_scatter",
    prim="SliceScatter")
def slice_scatter(input, src, axis=0, start=None, end=None, step=1):  # noqa: A002
    """``input`` with ``input[..., start:end:step, ...] = src`` along ``axis``."""
    ax = norm_axis(axis, input.ndim, "axis")
    key = (slice(None),) * ax + (slice(start, end, step),)
    return input.at[key].set(src.astype(input.dtype))


@op(static=("axis", "index"), dtype="promote", method="select_scatter", prim="SelectScatter")
def select_scatter(input, src, axis, index):  # noqa: A002
    """``input`` with the slice at ``index`` along ``axis`` replaced by ``src``."""
    ax = norm_axis(axis, input.ndim, "axis")
    size = input.shape[ax]
    if not -size <= index < size:
        raise ValueError(f"For 'select_scatter', the 'index' must be in range [{-size}, {size}), "
                         f"but got {index}.")
    key = (slice(None),) * ax + (index % size,)
    return input.at[key].set(src.astype(input.dtype))


@op(static=("offset", "dim1", "dim2"), dtype="promote", method="diagonal_scatter",
    prim="DiagonalScatter")
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):  # noqa: A002
    """``input`` with its diagonal ``offset`` of the planes (``dim1``, ``dim2``) set to
    ``src`` (whose last axis runs along the diagonal)."""
    a, b = norm_axis(dim1, input.ndim, "dim1"), norm_axis(dim2, input.ndim, "dim2")
    moved = jnp.moveaxis(input, (a, b), (-2, -1))
    rows, cols = moved.shape[-2:]
    i = jnp.arange(max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols)))
    r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
    out = moved.at[..., r, c].set(src.astype(input.dtype))
    return jnp.moveaxis(out, (-2, -1), (a, b))


@op(static=("indices",), dtype="promote", method="inplace_update", prim="InplaceUpdateV2",
    primitive=PrimDef("InplaceUpdate", init=(("indices", ()),),
                      call=lambda p, x, v: inplace_update(x, v, p.indices)))
def inplace_update(x, v, indices):
    """``x`` with the rows ``indices`` replaced by the rows of ``v``."""
    idx = (indices,) if isinstance(indices, int) else tuple(indices)
    return x.at[jnp.asarray(idx)].set(v.astype(x.dtype).reshape((len(idx),) + x.shape[1:]))


__all__ = exports(__name__)
