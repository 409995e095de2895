"""Sparse computations whose output size depends on the values: merging two index
sets (``coo_add``, ``csr_add``), removing duplicates (``coalesce``), finding the
non-zeros of a dense Tensor, the product of two CSR matrices.

MindSpore computes these with kernels whose outputs are sized at run time; XLA
graphs have static shapes, so msxla computes them eagerly (numpy on the
concrete values). Inside a captured graph they raise a ConcretizationError
naming the user's line and the op.
"""
from __future__ import annotations

import numpy as np

from jax.core import Tracer
from msxla.common.tensor import Tensor
from msxla.errors import ConcretizationError, user_error


def concrete(value, opname, argname):
    """The numpy value of a Tensor whose values decide an output's size."""
    data = value._data if isinstance(value, Tensor) else value
    if isinstance(data, Tracer):
        raise user_error(
            ConcretizationError,
            f"For '{opname}', the number of stored values of the result depends on the values "
            f"of '{argname}', so it can only run eagerly (PyNative), not inside a captured "
            "graph.",
            hint="call it outside the jitted function, or keep the sparsity pattern fixed "
                 "(CSRTensor * Tensor, to_dense(), mv/mm with a dense Tensor are graph ops).")
    return np.asarray(data)


def merge_coo(idx_a, val_a, idx_b, val_b, ncols):
    """The union of two COO index sets ``(N, 2)``, row-major, with summed values."""
    idx = np.concatenate([idx_a, idx_b]).astype(np.int64)
    vals = np.concatenate([val_a, val_b])
    return coalesce_2d(idx, vals, ncols)


def coalesce_2d(idx, vals, ncols):
    if idx.shape[0] == 0:
        return idx.reshape(0, 2), vals
    flat = idx[:, 0] * ncols + idx[:, 1]
    uniq, inverse = np.unique(flat, return_inverse=True)
    out = np.zeros(uniq.shape, vals.dtype)
    np.add.at(out, inverse.reshape(-1), vals)
    return np.stack([uniq // ncols, uniq % ncols], axis=1), out


def coalesce_nd(indices, values, shape):
    """``ops.coalesce``: ``indices`` ``(ndim, N)``; sorted unique positions, summed values."""
    if indices.shape[1] == 0:
        return indices, values
    flat = np.ravel_multi_index(tuple(indices.astype(np.int64)), tuple(int(s) for s in shape))
    uniq, inverse = np.unique(flat, return_inverse=True)
    out = np.zeros(uniq.shape, values.dtype)
    np.add.at(out, inverse.reshape(-1), values)
    pos = np.stack(np.unravel_index(uniq, tuple(int(s) for s in shape)))
    return pos.astype(indices.dtype), out


def csr_to_coo_np(indptr, indices):
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    return np.stack([rows, indices], axis=1)


def coo_to_csr_np(idx, nrows, dtype):
    """Row pointers and column indices of row-major COO positions."""
    counts = np.bincount(idx[:, 0].astype(np.int64), minlength=nrows)[:nrows]
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(dtype)
    return indptr, idx[:, 1].astype(dtype)


def nonzero_2d(arr, opname):
    if arr.ndim != 2:
        raise user_error(ValueError, f"Currently only support 2-D Tensor when converting to "
                                     f"{opname}.")
    idx = np.argwhere(arr != 0)
    return idx, arr[idx[:, 0], idx[:, 1]] if idx.size else arr.reshape(-1)[:0]
