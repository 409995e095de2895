"""The sparse functions of ``mindspore.ops`` (MindSpore 2.10's ``sparse_func``) that
have a CPU meaning: conversions between dense, COO and CSR forms, products and
reductions of CSRTensors with dense Tensors, sums of sparse tensors, ``coalesce``.

They are composites over ``CSRTensor``/``COOTensor`` (``msxla/common``): the ones
that keep a sparsity pattern run eagerly and inside captured graphs; the ones
whose result size depends on the values (``dense_to_sparse_*``, ``coo_add``,
``csr_add``, ``csr_mm``, ``coalesce``) run eagerly and raise a
ConcretizationError at the user's line inside a graph.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from msxla.common import _csr_tensor as csr
from msxla.common import _sparse_eager as eager
from msxla.common import _sparse_kernels as K
from msxla.common._coo_tensor import coo_add as _coo_add
from msxla.common.sparse_tensor import COOTensor, CSRTensor, SparseTensor
from msxla.common.tensor import Tensor, wrap
from msxla.errors import user_error
from msxla.ops.surface import composite, exports


def _need(x, cls, opname):
    if not isinstance(x, cls):
        raise user_error(TypeError, f"For functional operator {opname}, input argument must be "
                                    f"a {cls.__name__}, but got {type(x).__name__}.")


def _need_tensor(x, opname):
    if not isinstance(x, Tensor):
        raise user_error(TypeError, f"For functional operator {opname}, input argument must be "
                                    f"a Tensor, but got {type(x).__name__}.")


# ------------------------------------------------------------- conversions
@composite()
def csr_to_coo(tensor):
    """A 2-D CSRTensor as a COOTensor."""
    return csr.csr_to_coo(tensor)


@composite()
def csr_to_dense(csr_tensor):
    """A 2-D CSRTensor as a dense Tensor."""
    _need(csr_tensor, CSRTensor, "csr_to_dense")
    return csr_tensor.to_dense()


@composite(prim="CSR2COO")
def csr2coo(indptr, nnz):
    """The row index of each of the ``nnz`` stored values, from CSR row pointers."""
    return wrap(K.csr_rows(indptr._data, int(nnz)))


@composite(prim="COO2CSR")
def coo2csr(row_indices, height):
    """CSR row pointers (``height + 1``) from the sorted row indices of COO positions."""
    return wrap(K.coo_rows_to_indptr(row_indices._data, int(height)))


@composite()
def dense_to_sparse_coo(tensor):
    """The non-zeros of a 2-D Tensor as a COOTensor (int32 indices; eager)."""
    _need_tensor(tensor, "dense_to_sparse_coo")
    arr = eager.concrete(tensor, "dense_to_sparse_coo", "tensor")
    idx, vals = eager.nonzero_2d(arr, "COOTensor")
    return COOTensor._from_parts(arr.shape, jnp.asarray(idx, jnp.int32), jnp.asarray(vals))


@composite()
def dense_to_sparse_csr(tensor):
    """The non-zeros of a 2-D Tensor as a CSRTensor (int32 indices; eager)."""
    _need_tensor(tensor, "dense_to_sparse_csr")
    arr = eager.concrete(tensor, "dense_to_sparse_csr", "tensor")
    return csr.dense_to_csr_np(arr, np.int32)


@composite(prim="MakeCOOTensor")
def make_coo_tensor(indices, values, dense_shape):
    return COOTensor(indices, values, tuple(dense_shape))


@composite(prim="MakeCSRTensor")
def make_csr_tensor(indptr, indices, values, dense_shape):
    return CSRTensor(indptr, indices, values, tuple(dense_shape))


@composite(prim="MakeCOOTensor")
def make_sparse_tensor(indices, values, dense_shape):
    return SparseTensor(indices, values, tuple(dense_shape))


def _getter(name, cls, attr):
    def fn(x):
        _need(x, cls, name)
        return getattr(x, attr)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The ``{attr}`` of a {cls.__name__}."
    return composite(name, prim=name)(fn)


coo_tensor_get_dense_shape = _getter("coo_tensor_get_dense_shape", COOTensor, "shape")
coo_tensor_get_indices = _getter("coo_tensor_get_indices", COOTensor, "indices")
coo_tensor_get_values = _getter("coo_tensor_get_values", COOTensor, "values")
csr_tensor_get_dense_shape = _getter("csr_tensor_get_dense_shape", CSRTensor, "shape")
csr_tensor_get_indices = _getter("csr_tensor_get_indices", CSRTensor, "indices")
csr_tensor_get_indptr = _getter("csr_tensor_get_indptr", CSRTensor, "indptr")
csr_tensor_get_values = _getter("csr_tensor_get_values", CSRTensor, "values")


# ------------------------------------------------------------------ CSR algebra
@composite()
def csr_mul(x, y):
    """``x * y`` at the stored positions of CSRTensor ``x`` (``y`` dense, broadcast); a
    scalar ``y`` gives the values as a dense Tensor, as in MindSpore."""
    return csr.csr_mul(x, y)


@composite()
def csr_div(x, y):
    """``x / y`` at the stored positions of CSRTensor ``x`` (``y`` dense, broadcast)."""
    return csr.csr_div(x, y)


@composite()
def csr_mv(csr_tensor, dense):
    """The product of a 2-D CSRTensor with a dense ``(N, 1)`` Tensor."""
    return csr.csr_mv(csr_tensor, dense)


@composite()
def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """The product of two 2-D CSRTensors, a CSRTensor (eager)."""
    return csr.csr_mm(a, b, trans_a, trans_b, adjoint_a, adjoint_b)


@composite()
def csr_reduce_sum(csr_tensor, axis):
    """The sum of a 2-D CSRTensor over ``axis``, the axis kept (dense)."""
    return csr.csr_reduce_sum(csr_tensor, axis)


@composite()
def csr_add(a, b, alpha, beta):
    """``alpha * a + beta * b`` of two CSRTensors (eager: the index sets merge)."""
    return csr.csr_add(a, b, alpha, beta)


@composite(prim="CSRGather")
def csr_gather(indptr, indices, dense, sparse_shape):
    """The elements of ``dense`` (broadcast to ``sparse_shape``) at the CSR positions."""
    shape = tuple(int(s) for s in sparse_shape)
    return wrap(K.dense_at_csr(indptr._data, indices._data, indices.shape[0], shape,
                               dense._data))


@composite()
def csr_softmax(logits, dtype):
    """The softmax of the stored values of each row of a 2-D CSRTensor, as ``dtype``."""
    _need(logits, CSRTensor, "csr_softmax")
    values = logits.values.astype(dtype)
    out = K.csr_softmax(logits.indptr._data, values._data, logits.shape[0])
    return logits._with_values(wrap(out))


# ------------------------------------------------------------------ COO algebra
@composite()
def coo_add(x1, x2, thresh):
    """The sum of two COOTensors; sums of magnitude below ``thresh`` are dropped (eager)."""
    return _coo_add(x1, x2, thresh)


@composite()
def coo_concat(sp_input, concat_dim=0):
    """COOTensors (or ``(indices, values, shape)`` tuples) joined along ``concat_dim``,
    the positions in row-major order."""
    if not isinstance(sp_input, (tuple, list)) or len(sp_input) < 2:
        raise user_error(ValueError, "For coo_concat, not support COOTensor input number < 2.")
    parts = [x.to_tuple() if isinstance(x, COOTensor) else tuple(x) for x in sp_input]
    rank = len(parts[0][2])
    if not -rank <= concat_dim < rank:
        raise user_error(ValueError, f"For coo_concat, 'concat_dim' must be in [{-rank}, "
                                     f"{rank}), but got {concat_dim}.")
    dim = concat_dim % rank
    out_shape, offset, idx_all, val_all = list(parts[0][2]), 0, [], []
    for k, (indices, values, shape) in enumerate(parts):
        idx = indices._data.astype(jnp.int64)
        idx_all.append(idx.at[:, dim].add(offset))
        val_all.append(values._data)
        offset += shape[dim]
        if k:
            out_shape[dim] += shape[dim]
    idx, vals = K.lexsort_coo(jnp.concatenate(idx_all), jnp.concatenate(val_all))
    return COOTensor._from_parts(tuple(out_shape), idx.astype(parts[0][0]._data.dtype), vals)


@composite(prim="Coalesce")
def coalesce(x_indices, x_values, x_shape):
    """``(indices, values, shape)`` with duplicate positions merged and sorted; the
    indices are ``(ndim, N)`` (eager)."""
    idx = eager.concrete(x_indices, "coalesce", "x_indices")
    vals = eager.concrete(x_values, "coalesce", "x_values")
    shape = eager.concrete(x_shape, "coalesce", "x_shape")
    if idx.ndim != 2 or vals.ndim != 1 or idx.shape[1] != vals.shape[0]:
        raise user_error(ValueError, "For 'Coalesce', 'x_indices' must be 2-D (ndim, N) and "
                                     "'x_values' 1-D (N,), but got shapes "
                                     f"{idx.shape} and {vals.shape}.")
    out_idx, out_vals = eager.coalesce_nd(idx, vals, shape)
    return (wrap(jnp.asarray(out_idx)), wrap(jnp.asarray(out_vals)),
            wrap(jnp.asarray(shape)))


__all__ = exports(__name__)
