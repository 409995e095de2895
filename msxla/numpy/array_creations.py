"""``mindspore.numpy`` array creation: array, zeros, full, arange, linspace, eye, tri, ..."""
from __future__ import annotations

import math
import numbers

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.numpy._util import to_tensor, with_dtype

__all__ = ["array", "asarray", "asfarray", "copy", "zeros", "ones", "full", "empty",
           "zeros_like", "ones_like", "full_like", "empty_like", "arange", "linspace",
           "logspace", "geomspace", "eye", "identity", "tri", "tril", "triu", "diag", "diagflat",
           "diagonal", "trace", "meshgrid", "tril_indices", "triu_indices", "tril_indices_from",
           "triu_indices_from", "diag_indices", "indices", "vander"]


def array(obj, dtype=None, copy=True, ndmin=0):
    """A Tensor from ``obj`` with at least ``ndmin`` dimensions."""
    t = to_tensor(obj, dtype)
    if t.ndim < ndmin:
        t = ops.reshape(t, (1,) * (ndmin - t.ndim) + t.shape)
    return t


def asarray(a, dtype=None):
    """``a`` as a Tensor (no copy when it already is one of ``dtype``)."""
    return to_tensor(a, dtype)


def asfarray(a, dtype=mstype.float32):
    """``a`` as a float Tensor (``dtype`` if it is a float type, else float32)."""
    dtype = mstype.to_ms(dtype)
    return to_tensor(a, dtype if mstype.is_float(dtype) else mstype.float32)


def copy(a):
    """A copy of ``a``."""
    return to_tensor(a).copy()


def _shape(shape):
    if isinstance(shape, Tensor):
        return tuple(shape.asnumpy().reshape(-1).tolist())
    return (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)


def zeros(shape, dtype=mstype.float32):
    """A Tensor of ``shape`` filled with 0."""
    return ops.zeros(_shape(shape), dtype)


def ones(shape, dtype=mstype.float32):
    """A Tensor of ``shape`` filled with 1."""
    return ops.ones(_shape(shape), dtype)


def full(shape, fill_value, dtype=None):
    """A Tensor of ``shape`` filled with ``fill_value`` (a scalar or a broadcastable array)."""
    return ops.broadcast_to(to_tensor(fill_value, dtype), _shape(shape))


def empty(shape, dtype=mstype.float32):
    """A Tensor of ``shape`` (filled with 0)."""
    return zeros(shape, dtype)


def _like(a, dtype, shape):
    a = to_tensor(a)
    return (a.shape if shape is None else _shape(shape)), (a.dtype if dtype is None else dtype)


def zeros_like(a, dtype=None, shape=None):
    """Zeros with the shape and dtype of ``a`` (or ``shape``/``dtype``)."""
    return zeros(*_like(a, dtype, shape))


def ones_like(a, dtype=None, shape=None):
    """Ones with the shape and dtype of ``a`` (or ``shape``/``dtype``)."""
    return ones(*_like(a, dtype, shape))


def full_like(a, fill_value, dtype=None, shape=None):
    """``fill_value`` with the shape and dtype of ``a`` (or ``shape``/``dtype``)."""
    s, d = _like(a, dtype, shape)
    return full(s, fill_value, d)


def empty_like(prototype, dtype=None, shape=None):
    """A Tensor with the shape and dtype of ``prototype`` (filled with 0)."""
    return zeros_like(prototype, dtype, shape)


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``; int32 for ints, float32 for floats."""
    out = ops.arange(start, stop, 1 if step is None else step)
    if dtype is None and out.dtype is mstype.int64:
        dtype = mstype.int32
    return with_dtype(out, dtype)


def _scalar(v):
    return v.item() if isinstance(v, Tensor) else v


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` (excluded if not ``endpoint``)."""
    start, stop = float(_scalar(start)), float(_scalar(stop))
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else math.nan
    end = stop if endpoint else start + step * (num - 1)
    out = ops.linspace(start, end, num) if num > 0 else ops.zeros((0,))
    out = with_dtype(out, dtype)
    return (out, Tensor(step, mstype.float32)) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** t`` for ``t`` in ``linspace(start, stop, num, endpoint)``."""
    return with_dtype(ops.pow(float(base), linspace(start, stop, num, endpoint)), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Values evenly spaced on a log scale from ``start`` to ``stop``."""
    start, stop = float(_scalar(start)), float(_scalar(stop))
    if start == 0 or stop == 0:
        raise ValueError("For 'geomspace', 'start' and 'stop' must be non-zero.")
    out = logspace(math.log10(start), math.log10(stop), num, endpoint)
    return with_dtype(out, dtype)


def eye(N, M=None, k=0, dtype=mstype.float32):
    """An ``N`` x ``M`` matrix with ones on diagonal ``k``."""
    M = N if M is None else M
    if k == 0:
        return ops.eye(N, M, dtype)
    band = ops.triu(ops.tril(ops.ones((N, M), mstype.float32), k), k)
    return with_dtype(band, dtype)


def identity(n, dtype=mstype.float32):
    """The ``n`` x ``n`` identity matrix."""
    return ops.eye(n, n, dtype)


def tri(N, M=None, k=0, dtype=mstype.float32):
    """Ones at and below diagonal ``k`` of an ``N`` x ``M`` matrix, zeros elsewhere."""
    M = N if M is None else M
    return with_dtype(ops.tril(ops.ones((N, M), mstype.float32), k), dtype)


def tril(m, k=0):
    """``m`` with the elements above diagonal ``k`` zeroed."""
    return ops.tril(to_tensor(m), k)


def triu(m, k=0):
    """``m`` with the elements below diagonal ``k`` zeroed."""
    return ops.triu(to_tensor(m), k)


def diag(v, k=0):
    """1-D ``v``: a matrix with ``v`` on diagonal ``k``; 2-D ``v``: its diagonal ``k``."""
    v = to_tensor(v)
    if v.ndim == 1:
        return ops.diag_embed(v, k)
    if v.ndim == 2:
        return ops.diagonal(v, k)
    raise ValueError(f"For 'diag', the input must be 1-D or 2-D, but got shape {v.shape}.")


def diagflat(v, k=0):
    """A matrix with the flattened ``v`` on diagonal ``k``."""
    return ops.diag_embed(ops.ravel(to_tensor(v)), k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal ``offset`` of the planes (``axis1``, ``axis2``), as the last axis."""
    return ops.diagonal(to_tensor(a), offset, axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """Sums along diagonal ``offset`` of the planes (``axis1``, ``axis2``)."""
    from msxla.ops.shape_diag import trace_along
    return trace_along(to_tensor(a), offset, axis1, axis2, dtype)


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate grids from 1-D arrays (``sparse``: broadcastable, not expanded)."""
    xs = [to_tensor(x) for x in xi]
    if not sparse:
        return list(ops.meshgrid(*xs, indexing=indexing))
    n = len(xs)
    out = []
    for i, x in enumerate(xs):
        shape = [1] * n
        j = (1 - i if i < 2 else i) if indexing == "xy" and n > 1 else i
        shape[j] = x.shape[0]
        out.append(ops.reshape(x, tuple(shape)))
    return out


def tril_indices(n, k=0, m=None):
    """The (row, column) int32 indices of the lower triangle of an ``n`` x ``m`` matrix."""
    return tuple(ops.unbind(ops.tril_indices(n, n if m is None else m, k, dtype=mstype.int32)))


def triu_indices(n, k=0, m=None):
    """The (row, column) int32 indices of the upper triangle of an ``n`` x ``m`` matrix."""
    return tuple(ops.unbind(ops.triu_indices(n, n if m is None else m, k, dtype=mstype.int32)))


def tril_indices_from(arr, k=0):
    """``tril_indices`` for the shape of the 2-D ``arr``."""
    rows, cols = to_tensor(arr).shape
    return tril_indices(rows, k, cols)


def triu_indices_from(arr, k=0):
    """``triu_indices`` for the shape of the 2-D ``arr``."""
    rows, cols = to_tensor(arr).shape
    return triu_indices(rows, k, cols)


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an ``n``-sided ``ndim``-D array."""
    idx = ops.arange(n, dtype=mstype.int32)
    return tuple(idx for _ in range(ndim))


def indices(dimensions, dtype=mstype.int32, sparse=False):
    """One grid of indices per axis of an array of shape ``dimensions``."""
    axes = [ops.arange(d, dtype=dtype) for d in dimensions]
    if len(axes) == 1:
        return axes
    return meshgrid(*axes, sparse=sparse, indexing="ij")


def vander(x, N=None, increasing=False):
    """Columns ``x**(N-1), ..., x**0`` (reversed if ``increasing``), in ``x``'s dtype."""
    x = to_tensor(x)
    out = with_dtype(ops.vander(x, N), x.dtype)
    return ops.fliplr(out) if increasing else out
