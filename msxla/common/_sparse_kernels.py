"""The array computations behind ``CSRTensor`` and ``COOTensor`` (``sparse_tensor.py``).

Every function takes and returns jax arrays (never Tensors) and is traceable
with static shapes: the number of stored values (``nnz``) is the length of
``values``, so conversions, products and reductions become gathers, scatters
and segment sums that run the same eagerly and inside captured graphs. What
would make an output size depend on the data (finding non-zeros, merging two
index sets) is not here; ``msxla/ops/sparse.py`` computes it eagerly.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


def csr_rows(indptr, nnz):
    """The row of each stored value of a CSR matrix (``csr2coo``)."""
    if nnz == 0:
        return jnp.zeros((0,), indptr.dtype)
    pos = jnp.arange(nnz, dtype=indptr.dtype)
    return (jnp.searchsorted(indptr, pos, side="right") - 1).astype(indptr.dtype)


def coo_rows_to_indptr(rows, height, dtype=None):
    """``coo2csr``: the row pointers (length ``height + 1``) of sorted row indices."""
    dtype = dtype or rows.dtype
    counts = jax.ops.segment_sum(jnp.ones(rows.shape, dtype), rows.astype(jnp.int32),
                                 num_segments=height)
    return jnp.concatenate([jnp.zeros((1,), dtype), jnp.cumsum(counts).astype(dtype)])


def scatter_dense(shape, rows, cols, values):
    """A dense array of ``shape`` holding ``values`` at ``(rows, cols)`` (duplicates add)."""
    zeros = jnp.zeros(shape, values.dtype)
    return zeros.at[rows, cols].add(values, mode="drop")


def csr_to_dense(indptr, indices, values, shape):
    rows = csr_rows(indptr, values.shape[0])
    return scatter_dense(shape, rows, indices, values)


def csr_matmul(indptr, indices, values, shape, dense):
    """``csr @ dense`` for a 2-D CSR matrix and a dense ``(shape[1], K)`` matrix."""
    rows = csr_rows(indptr, values.shape[0])
    dtype = jnp.promote_types(values.dtype, dense.dtype)
    contrib = values.astype(dtype)[:, None] * dense.astype(dtype)[indices]
    return jax.ops.segment_sum(contrib, rows.astype(jnp.int32), num_segments=shape[0])


def csr_reduce_sum(indptr, indices, values, shape, axis):
    """The sum over ``axis`` (0 or 1) of a 2-D CSR matrix, keeping the reduced axis."""
    if axis == 1:
        rows = csr_rows(indptr, values.shape[0])
        out = jax.ops.segment_sum(values, rows.astype(jnp.int32), num_segments=shape[0])
        return out.reshape((shape[0], 1) + tuple(values.shape[1:]))
    out = jax.ops.segment_sum(values, indices.astype(jnp.int32), num_segments=shape[1])
    return out.reshape((1, shape[1]) + tuple(values.shape[1:]))


def dense_at_csr(indptr, indices, nnz, shape, dense):
    """The elements of ``dense`` (broadcast to ``shape``) at the CSR positions."""
    rows = csr_rows(indptr, nnz)
    full = jnp.broadcast_to(dense, tuple(shape))
    return full[rows, indices]


def csr_softmax(indptr, values, nrows):
    """Softmax of the stored values of each row (the empty positions take no part)."""
    rows = csr_rows(indptr, values.shape[0]).astype(jnp.int32)
    peak = jax.ops.segment_max(values, rows, num_segments=nrows)
    e = jnp.exp(values - peak[rows])
    total = jax.ops.segment_sum(e, rows, num_segments=nrows)
    return e / total[rows]


def sort_by_row(rows, cols, values):
    """The COO triplet ordered by row (stable: the order within a row is kept)."""
    order = jnp.argsort(rows, stable=True)
    return rows[order], cols[order], values[order]


def lexsort_coo(indices, values):
    """COO ``indices`` ``(N, 2)`` and ``values`` in row-major order of the positions."""
    order = jnp.lexsort((indices[:, 1], indices[:, 0]))
    return indices[order], values[order]
