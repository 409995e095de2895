"""``COOTensor`` (``mindspore.COOTensor``): a 2-D sparse Tensor as the positions
``indices`` ``(N, 2)`` of its ``N`` stored ``values`` and its dense ``shape``, as
MindSpore 2.10 has it on CPU; and the deprecated ``SparseTensor``.

Duplicate positions are kept (``to_dense`` adds them; ``coalesce`` merges
them). Arithmetic with a dense Tensor, ``to_dense``, ``to_csr``, ``astype`` and
``abs`` run inside captured graphs; adding two COOTensors merges their index
sets and runs eagerly (``_sparse_eager.py``).
"""
from __future__ import annotations

import logging

import jax
import jax.numpy as jnp

from msxla.common import _sparse_checks as checks
from msxla.common import _sparse_eager as eager
from msxla.common import _sparse_kernels as K
from msxla.common.tensor import Tensor, wrap
from msxla.common._sparse_base import SparseBase, as_tensor
from msxla.errors import user_error

LOG = logging.getLogger("msxla")


class COOTensor(SparseBase):
    """``COOTensor(indices, values, shape)`` or ``COOTensor(coo_tensor=other)``."""

    __slots__ = ("_indices", "_values")
    _PARTS = ("_indices", "_values")

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise user_error(TypeError, "Expect input `coo_tensor` to be a COOTensor, but "
                                            f"got {type(coo_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise user_error(TypeError, "If input `coo_tensor` is provided, `indices`, "
                                            "`values`, `shapes` should all be `None`")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        else:
            checks.check_coo(indices, values, shape)
        self._shape = tuple(shape)
        self._indices = wrap(_stop(indices))
        self._values = as_tensor(values)

    # ----------------------------------------------------------- conversions
    def to_dense(self) -> Tensor:
        """The dense Tensor (values at duplicate positions add up)."""
        idx = self._indices._data
        return wrap(K.scatter_dense(self._shape, idx[:, 0], idx[:, 1], self._values._data))

    def to_csr(self):
        """The same matrix as a CSRTensor (stored values ordered by row)."""
        from msxla.common._csr_tensor import CSRTensor
        idx = self._indices._data
        rows, cols, vals = K.sort_by_row(idx[:, 0], idx[:, 1], self._values._data)
        indptr = K.coo_rows_to_indptr(rows, self._shape[0], idx.dtype)
        return CSRTensor._from_parts(self._shape, indptr, cols, vals)

    def to_tuple(self):
        """``(indices, values, shape)``."""
        return self._indices, self._values, self._shape

    def astype(self, dtype) -> COOTensor:
        """A copy with the values cast to ``dtype``."""
        return COOTensor._from_parts(self._shape, self._indices, self._values.astype(dtype))

    def abs(self) -> COOTensor:
        return COOTensor._from_parts(self._shape, self._indices, self._values.abs())

    def coalesce(self) -> COOTensor:
        """A copy with duplicate positions merged (their values summed), row-major
        (computed eagerly: the number of positions depends on the indices)."""
        idx = eager.concrete(self._indices, "COOTensor.coalesce", "indices")
        vals = eager.concrete(self._values, "COOTensor.coalesce", "values")
        out_idx, out_vals = eager.coalesce_nd(idx.T, vals, self._shape)
        return COOTensor._from_parts(self._shape, jnp.asarray(out_idx.T),
                                     jnp.asarray(out_vals))

    def add(self, other, thresh) -> COOTensor:
        """The sum with another COOTensor; sums whose magnitude is below ``thresh`` are
        dropped (computed eagerly)."""
        return coo_add(self, other, thresh)

    # ------------------------------------------------------------- operators
    def __neg__(self):
        return COOTensor._from_parts(self._shape, self._indices, -self._values)

    def __add__(self, other):
        checks.check_same_shape(self, other)
        if isinstance(other, Tensor):
            return _scatter_onto(other, self)
        if isinstance(other, COOTensor):
            return coo_add(self, other, Tensor(0, self._values.dtype))
        raise user_error(TypeError, f"COOTensor add with {type(other)} is not supported.")

    def __sub__(self, other):
        checks.check_same_shape(self, other)
        if isinstance(other, Tensor):
            return _scatter_onto(-other, self)
        if isinstance(other, COOTensor):
            return coo_add(self, -other, Tensor(0, self._values.dtype))
        raise user_error(TypeError, f"COOTensor subtract with {type(other)} is not supported.")

    def __mul__(self, other):
        checks.check_same_shape(self, other)
        if isinstance(other, Tensor):
            return COOTensor._from_parts(self._shape, self._indices,
                                         self._values * self._gather(other))
        raise user_error(TypeError, f"COOTensor multiply with {type(other)} is not supported.")

    def __div__(self, other):
        checks.check_same_shape(self, other)
        if isinstance(other, Tensor):
            LOG.warning("For sparse divide, zero values in the dense tensor are ignored.")
            return COOTensor._from_parts(self._shape, self._indices,
                                         self._values / self._gather(other))
        raise user_error(TypeError, f"COOTensor divide with {type(other)} is not supported.")

    def __truediv__(self, other):
        return self.__div__(other)

    def _gather(self, dense):
        idx = self._indices._data
        return wrap(dense._data[idx[:, 0], idx[:, 1]])


def _stop(t):
    """The indices carry no gradient (MindSpore stops it)."""
    return jax.lax.stop_gradient(t._data)


def _scatter_onto(dense, coo):
    idx = coo.indices._data
    values = coo.values.astype(dense.dtype)._data
    return wrap(dense._data.at[idx[:, 0], idx[:, 1]].add(values))


def coo_add(x1, x2, thresh):
    """``ops.coo_add``: the union of the two index sets, the values summed; sums with
    magnitude below ``thresh`` are dropped. Eager (the result's size is data)."""
    for name, v in (("x1", x1), ("x2", x2)):
        if not isinstance(v, COOTensor):
            raise user_error(TypeError, f"For 'coo_add', '{name}' must be a COOTensor, but "
                                        f"got {type(v).__name__}.")
    if x1.shape != x2.shape:
        raise user_error(ValueError, "For 'coo_add', the shapes of 'x1' and 'x2' must be equal, "
                                     f"but got {x1.shape} and {x2.shape}.")
    dtype = jnp.promote_types(x1.values._data.dtype, x2.values._data.dtype)
    idx, vals = eager.merge_coo(
        eager.concrete(x1.indices, "coo_add", "x1.indices"),
        eager.concrete(x1.values, "coo_add", "x1.values").astype(dtype),
        eager.concrete(x2.indices, "coo_add", "x2.indices"),
        eager.concrete(x2.values, "coo_add", "x2.values").astype(dtype), x1.shape[1])
    limit = eager.concrete(thresh, "coo_add", "thresh")
    keep = abs(vals) >= limit
    idx_dtype = jnp.promote_types(x1.indices._data.dtype, x2.indices._data.dtype)
    return COOTensor._from_parts(x1.shape, jnp.asarray(idx[keep], idx_dtype),
                                 jnp.asarray(vals[keep]))


class SparseTensor(COOTensor):
    """``SparseTensor(indices, values, shape)``: the COOTensor of MindSpore < 1.7
    (deprecated; any number of dimensions, no shape checks)."""

    __slots__ = ()

    def __init__(self, indices, values, shape):
        LOG.warning("'SparseTensor' is deprecated from version 1.7 and will be removed in a "
                    "future version. Please use 'COOTensor' instead.")
        if not (isinstance(indices, Tensor) and isinstance(values, Tensor)
                and isinstance(shape, tuple)):
            raise user_error(TypeError, "Inputs must follow: COOTensor(indices, values, shape).")
        self._shape = tuple(shape)
        self._indices = wrap(_stop(indices))
        self._values = as_tensor(values)
