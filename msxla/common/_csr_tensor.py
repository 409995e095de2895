"""``CSRTensor`` (``mindspore.CSRTensor``): a sparse Tensor in compressed sparse row
form, as MindSpore 2.10 has it on CPU: row pointers ``indptr`` (``shape[0] + 1``),
the column of each stored value ``indices``, the stored ``values`` (their
trailing dimensions are the dense shape's ``shape[2:]``) and the dense ``shape``.

Products and quotients with dense Tensors (``*``, ``/``, ``mv``, ``mm``),
``sum``, ``to_dense``, ``to_coo``, ``astype`` and ``abs`` keep the sparsity
pattern and run inside captured graphs. ``+``/``-`` of two CSRTensors and ``mm``
of two CSRTensors merge index sets and run eagerly (``_sparse_eager.py``).
"""
from __future__ import annotations

import logging

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import _sparse_checks as checks
from msxla.common import _sparse_eager as eager
from msxla.common import _sparse_kernels as K
from msxla.common import dtype as mstype
from msxla.common._sparse_base import SparseBase, as_tensor, check_value_type
from msxla.common.tensor import Tensor, wrap
from msxla.errors import user_error

LOG = logging.getLogger("msxla")


class CSRTensor(SparseBase):
    """``CSRTensor(indptr, indices, values, shape)`` or ``CSRTensor(csr_tensor=other)``."""

    __slots__ = ("_indptr", "_indices", "_values")
    _PARTS = ("_indptr", "_indices", "_values")

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise user_error(TypeError, "Expect input `csr_tensor` to be a CSRTensor, but "
                                            f"got {type(csr_tensor)}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise user_error(TypeError, "If input `csr_tensor` is provided, `indptr`, "
                                            "`indices`, `values`, `shapes` should all be `None`")
            indptr, indices, values = csr_tensor.indptr, csr_tensor.indices, csr_tensor.values
            shape = csr_tensor.shape
        else:
            checks.check_csr(indptr, indices, values, shape)
        self._shape = tuple(shape)
        self._indptr = wrap(jax.lax.stop_gradient(indptr._data))
        self._indices = wrap(jax.lax.stop_gradient(indices._data))
        self._values = as_tensor(values)

    @property
    def indptr(self) -> Tensor:
        """The row pointers: row ``i`` holds values ``indptr[i]:indptr[i + 1]``."""
        return self._indptr

    # ----------------------------------------------------------- conversions
    def to_tuple(self):
        """``(indptr, indices, values, shape)``."""
        return self._indptr, self._indices, self._values, self._shape

    def to_coo(self):
        """The same matrix as a COOTensor (2-D only)."""
        if self.ndim != 2:
            raise user_error(ValueError, "Currently only support 2-D CSRTensor when converting "
                                         "to COOTensor.")
        return csr_to_coo(self)

    def to_dense(self) -> Tensor:
        """The dense Tensor (2-D only, as MindSpore's ``csr_to_dense``)."""
        if self.ndim != 2:
            raise user_error(ValueError, "Currently only support 2-D CSRTensor when converting "
                                         "to COOTensor.")
        return wrap(K.csr_to_dense(self._indptr._data, self._indices._data, self._values._data,
                                   self._shape))

    def astype(self, dtype) -> CSRTensor:
        """A copy with the values cast to ``dtype``."""
        return self._with_values(self._values.astype(dtype))

    def abs(self) -> CSRTensor:
        return self._with_values(self._values.abs())

    def _with_values(self, values):
        return CSRTensor._from_parts(self._shape, self._indptr, self._indices, values)

    # ---------------------------------------------------------------- algebra
    def mv(self, dense_vector) -> Tensor:
        """``self @ dense_vector`` for a dense ``(shape[1], 1)`` Tensor: ``(shape[0], 1)``."""
        check_value_type("dense_vector", dense_vector, "CSRTensor.mv")
        return csr_mv(self, dense_vector)

    def mm(self, matrix):
        """``self @ matrix`` for a dense ``(shape[1], K)`` Tensor (a dense result) or a
        CSRTensor (a CSRTensor, computed eagerly)."""
        if isinstance(matrix, CSRTensor):
            return csr_mm(self, matrix)
        check_value_type("matrix", matrix, "CSRTensor.mm")
        return _dense_product(self, matrix, "CSRTensor.mm")

    def sum(self, axis) -> Tensor:
        """The sum over ``axis``, the reduced axis kept (a dense Tensor)."""
        return csr_reduce_sum(self, axis)

    def add(self, b, alpha, beta) -> CSRTensor:
        """``alpha * self + beta * b`` (computed eagerly: the index sets merge)."""
        return csr_add(self, b, alpha, beta)

    def __neg__(self):
        return self._with_values(-self._values)

    def __mul__(self, other):
        return csr_mul(self, other)

    def __div__(self, other):
        LOG.warning("For CSR divide, zero values in the dense tensor are ignored.")
        return csr_div(self, other)

    def __truediv__(self, other):
        return self.__div__(other)

    def __add__(self, other):
        checks.check_same_shape(self, other)
        if isinstance(other, CSRTensor):
            one = Tensor(1, self._values.dtype)
            return csr_add(self, other, one, one)
        raise user_error(TypeError, f"CSRTensor add with {type(other)} is not supported.")

    def __sub__(self, other):
        checks.check_same_shape(self, other)
        if isinstance(other, CSRTensor):
            return csr_add(self, other, Tensor(1, self._values.dtype),
                           Tensor(-1, self._values.dtype))
        raise user_error(TypeError, f"CSRTensor subtract with {type(other)} is not supported.")


# ------------------------------------------------ the functions behind the methods
def _promoted(a, b):
    dtype = mstype.promote_types(a.dtype, b.dtype)
    return a.astype(dtype), b.astype(dtype)


def _dense_product(csr, dense, opname):
    if csr.ndim != 2 or dense.ndim not in (1, 2) or dense.shape[0] != csr.shape[1]:
        raise user_error(ValueError, f"For '{opname}', the dense Tensor must have shape "
                                     f"({csr.shape[1]}, K) to multiply the CSRTensor of shape "
                                     f"{csr.shape}, but got {dense.shape}.")
    values, dense = _promoted(csr.values, dense)
    d = dense._data if dense.ndim == 2 else dense._data[:, None]
    out = K.csr_matmul(csr.indptr._data, csr.indices._data, values._data, csr.shape, d)
    return wrap(out if dense.ndim == 2 else out[:, 0])


def csr_mv(csr_tensor, dense):
    """``ops.csr_mv``: the product with a dense ``(N, 1)`` Tensor."""
    _need_csr(csr_tensor, "csr_mv")
    return _dense_product(csr_tensor, dense, "csr_mv")


def _is_scalar(t):
    return t.size == 1 and t.ndim <= 2


def _elementwise(x, y, opname, fn):
    _need_csr(x, opname)
    if isinstance(y, (int, float, bool)):
        y = Tensor(y)
    check_value_type("y", y, opname)
    if _is_scalar(y):  # as MindSpore: a scalar gives the values (a dense Tensor)
        if y.ndim > x.ndim:
            raise user_error(ValueError, "dense tensor cannot broadcast to the sparse tensor.")
        return fn(x.values, y).reshape(x.values.shape)
    values, y = _promoted(x.values, y)
    try:
        np.broadcast_shapes(tuple(y.shape), x.shape)
    except ValueError:
        raise user_error(ValueError, f"For '{opname}', the dense Tensor of shape {y.shape} "
                                     f"cannot broadcast to the CSRTensor of shape "
                                     f"{x.shape}.") from None
    picked = K.dense_at_csr(x.indptr._data, x.indices._data, values.shape[0], x.shape, y._data)
    return x._with_values(fn(values, wrap(picked)))


def csr_mul(x, y):
    """``ops.csr_mul``: ``x * y`` at the stored positions (``y`` dense, broadcast)."""
    return _elementwise(x, y, "csr_mul", lambda a, b: a * b)


def csr_div(x, y):
    """``ops.csr_div``: ``x / y`` at the stored positions (``y`` dense, broadcast)."""
    return _elementwise(x, y, "csr_div", lambda a, b: a / b)


def csr_reduce_sum(csr_tensor, axis):
    """``ops.csr_reduce_sum``: the sum over ``axis`` (0 or 1), the axis kept."""
    _need_csr(csr_tensor, "csr_reduce_sum")
    if csr_tensor.ndim != 2:
        raise user_error(ValueError, "For 'csr_reduce_sum', only 2-D CSRTensors are supported, "
                                     f"but got shape {csr_tensor.shape}.")
    if not isinstance(axis, int) or isinstance(axis, bool) or not -2 <= axis < 2:
        raise user_error(ValueError, "For 'csr_reduce_sum', 'axis' must be an int in [-2, 2), "
                                     f"but got {axis!r}.")
    c = csr_tensor
    return wrap(K.csr_reduce_sum(c.indptr._data, c.indices._data, c.values._data, c.shape,
                                 axis % 2))


def csr_to_coo(tensor):
    """``ops.csr_to_coo``: the same 2-D matrix as a COOTensor."""
    from msxla.common._coo_tensor import COOTensor
    _need_csr(tensor, "csr_to_coo")
    if tensor.ndim > 2:
        raise user_error(ValueError, "Currently only support 2-D CSRTensor when converting to "
                                     "COOTensor.")
    rows = K.csr_rows(tensor.indptr._data, tensor.values.shape[0])
    idx = jnp.stack([rows.astype(tensor.indices._data.dtype), tensor.indices._data], axis=1)
    return COOTensor._from_parts(tensor.shape, idx, tensor.values)


def csr_add(a, b, alpha, beta):
    """``ops.csr_add``: ``alpha * a + beta * b`` (eager: the index sets merge)."""
    _need_csr(a, "csr_add")
    _need_csr(b, "csr_add")
    if a.shape != b.shape or a.ndim != 2:
        raise user_error(ValueError, "For 'csr_add', 'a' and 'b' must be 2-D CSRTensors of the "
                                     f"same shape, but got {a.shape} and {b.shape}.")
    va, vb = _promoted(a.values, b.values)
    va = va * alpha
    vb = vb * beta
    idx, vals = eager.merge_coo(
        eager.csr_to_coo_np(eager.concrete(a.indptr, "csr_add", "a.indptr"),
                            eager.concrete(a.indices, "csr_add", "a.indices")),
        eager.concrete(va, "csr_add", "a.values"),
        eager.csr_to_coo_np(eager.concrete(b.indptr, "csr_add", "b.indptr"),
                            eager.concrete(b.indices, "csr_add", "b.indices")),
        eager.concrete(vb, "csr_add", "b.values"), a.shape[1])
    indptr, cols = eager.coo_to_csr_np(idx, a.shape[0], np.asarray(a.indptr._data).dtype)
    return CSRTensor._from_parts(a.shape, jnp.asarray(indptr), jnp.asarray(cols),
                                 jnp.asarray(vals))


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """``ops.csr_mm``: the product of two 2-D CSRTensors, a CSRTensor of its non-zeros
    (eager)."""
    if not (isinstance(a, CSRTensor) and isinstance(b, CSRTensor)):
        raise user_error(TypeError, "For functional operator csr_mm, inputs a and b must be "
                                    "type of CSRTensor currently.")
    da = eager.concrete(a.to_dense(), "csr_mm", "a")
    db = eager.concrete(b.to_dense(), "csr_mm", "b")
    da = da.conj().T if adjoint_a else (da.T if trans_a else da)
    db = db.conj().T if adjoint_b else (db.T if trans_b else db)
    if da.shape[1] != db.shape[0]:
        raise user_error(ValueError, f"For 'csr_mm', the shapes {da.shape} and {db.shape} "
                                     "cannot be multiplied.")
    return dense_to_csr_np(da @ db, np.asarray(a.indices._data).dtype)


def dense_to_csr_np(arr, index_dtype=np.int32):
    idx, vals = eager.nonzero_2d(arr, "CSRTensor")
    indptr, cols = eager.coo_to_csr_np(idx, arr.shape[0], index_dtype)
    return CSRTensor._from_parts(arr.shape, jnp.asarray(indptr), jnp.asarray(cols),
                                 jnp.asarray(vals))


def _need_csr(x, opname):
    if not isinstance(x, CSRTensor):
        raise user_error(TypeError, f"For functional operator {opname}, input argument must be "
                                    f"a CSRTensor, but got {type(x).__name__}.")
