"""``mint`` arithmetic, comparisons and reductions: the torch-like faces
(``dim``/``keepdim``, ``alpha``, ``correction``, the ``max``/``min``/``where``
overloads) over msxla's op rows.

Where MindSpore 2.10's mint differs from ``ops`` it is followed here: integer
``sum``/``prod`` give int64, ``max(input, dim)`` returns ``(values, indices)``
with int64 indices, ``std``/``var`` take ``correction`` (default 1), ``sort``
returns int64 indices, ``allclose`` a Python bool.
"""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor


def _cast(x, dtype):
    return x if dtype is None else ops.cast(x, dtype)


def _int64(x):
    return ops.cast(x, mstype.int64)


def add(input, other, *, alpha=1):  # noqa: A002 - MindSpore's names
    """``input + alpha * other``."""
    return ops.add(input, other if alpha == 1 else ops.mul(other, alpha))


def sub(input, other, *, alpha=1):  # noqa: A002
    """``input - alpha * other``."""
    return ops.sub(input, other if alpha == 1 else ops.mul(other, alpha))


mul = ops.mul
div = ops.div
remainder = ops.remainder
fmod = ops.fmod
floor_divide = ops.floor_divide
pow = ops.pow  # noqa: A001
eq = ops.eq
ne = not_equal = ops.ne
ge = greater_equal = ops.ge
clamp = ops.clamp
clip = ops.clip
nansum = ops.nansum
lerp = ops.lerp
xlogy = ops.xlogy
logaddexp = ops.logaddexp
logaddexp2 = ops.logaddexp2
float_power = ops.float_power
isfinite = ops.isfinite
isneginf = ops.isneginf
log2 = ops.log2
log10 = ops.log10
exp2 = ops.exp2
sqrt = ops.sqrt
frac = ops.frac
fix = ops.trunc
acos = arccos = ops.acos
acosh = arccosh = ops.acosh
asin = arcsin = ops.asin
asinh = arcsinh = ops.asinh
atan = arctan = ops.atan
atan2 = arctan2 = ops.atan2
bitwise_and = ops.bitwise_and
bitwise_or = ops.bitwise_or
bitwise_xor = ops.bitwise_xor
logsumexp = ops.logsumexp
cummax = ops.cummax
cummin = ops.cummin


def diff(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    """``input[i+1] - input[i]`` along ``dim`` after joining ``prepend`` / ``append``."""
    return ops.diff(input, n, dim, prepend, append)


def isnan(tensor):
    """Whether each element is NaN."""
    return ops.isnan(tensor)


def bitwise_not(input):  # noqa: A002
    """``~input`` (logical not for bool)."""
    return ops.invert(input)


def where(condition, input=None, other=None):  # noqa: A002
    """``where(condition, input, other)`` elementwise; ``where(condition)`` is
    ``nonzero(condition, as_tuple=True)``."""
    if input is None and other is None:
        return tuple(ops.nonzero(condition, as_tuple=True))
    return ops.where(condition, input, other)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001,A002
    """Sum over ``dim`` (all when None); bool and integers sum to int64."""
    return ops.sum(input, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Mean over ``dim`` (all when None)."""
    return ops.mean(_cast(input, dtype), dim, keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Product over ``dim``; bool and integers multiply to int64."""
    return ops.prod(input, dim, keepdim, dtype)


def amax(input, dim=(), keepdim=False):  # noqa: A002
    """Maximum over ``dim`` (all when ``()``)."""
    return ops.amax(input, None if dim == () else dim, keepdim)


def amin(input, dim=(), keepdim=False):  # noqa: A002
    """Minimum over ``dim`` (all when ``()``)."""
    return ops.amin(input, None if dim == () else dim, keepdim)


def _extreme(fn, arg_fn, input, dim, keepdim, other):  # noqa: A002
    if isinstance(dim, Tensor) and other is None:
        dim, other = None, dim
    if other is not None:
        return (ops.maximum if fn is ops.amax else ops.minimum)(input, other)
    if dim is None:
        return fn(input)
    return fn(input, dim, keepdim), _int64(arg_fn(input, dim, keepdim))


def max(input, dim=None, keepdim=False, *, other=None):  # noqa: A001,A002
    """``max(input)``: the largest element; ``max(input, dim, keepdim=False)``:
    ``(values, indices)``; ``max(input, other)``: the elementwise maximum."""
    return _extreme(ops.amax, ops.argmax, input, dim, keepdim, other)


def min(input, dim=None, keepdim=False, *, other=None):  # noqa: A001,A002
    """``min(input)``, ``min(input, dim, keepdim=False)`` -> ``(values, indices)``,
    or ``min(input, other)`` elementwise."""
    return _extreme(ops.amin, ops.argmin, input, dim, keepdim, other)


def argmax(input, dim=None, keepdim=False):  # noqa: A002
    """Index (int64) of the largest element over ``dim`` (of the flattened input when None)."""
    return _int64(ops.argmax(input, dim, keepdim))


def argmin(input, dim=None, keepdim=False):  # noqa: A002
    """Index (int64) of the smallest element over ``dim``."""
    if dim is None:
        return _int64(ops.argmin(ops.reshape(input, (-1,)), 0, False))
    return _int64(ops.argmin(input, dim, keepdim))


def all(input, dim=None, keepdim=False):  # noqa: A001,A002
    """Whether every element (over ``dim``) is true."""
    return ops.all(input, dim, keepdim)


def any(input, dim=None, keepdim=False):  # noqa: A001,A002
    """Whether any element (over ``dim``) is true."""
    return ops.any(input, dim, keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """Standard deviation over ``dim`` with ``correction`` (Bessel's by default)."""
    return ops.std(input, dim, correction, keepdim)


def var(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """Variance over ``dim`` with ``correction``."""
    return ops.var(input, dim, correction, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """``(std, mean)`` over ``dim``."""
    return ops.std_mean(input, dim, correction, keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """``(var, mean)`` over ``dim``."""
    return ops.var_mean(input, dim, correction, keepdim)


def cumsum(input, dim, dtype=None):  # noqa: A002
    """Cumulative sum along ``dim``."""
    return ops.cumsum(input, dim, dtype)


def softmax(input, dim, *, dtype=None):  # noqa: A002
    """Softmax along ``dim``."""
    return ops.softmax(_cast(input, dtype), dim)


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    """``(values, indices)`` of the ``k`` largest (smallest) elements along ``dim``."""
    values, indices = ops.topk(input, k, dim, largest, sorted)
    return values, _int64(indices)


def sort(input, *, dim=-1, descending=False, stable=False):  # noqa: A002
    """``(values, indices)`` sorted along ``dim`` (the sort is stable)."""
    values, indices = ops.sort(input, dim, descending)
    return values, _int64(indices)


def argsort(input, dim=-1, descending=False, stable=False):  # noqa: A002
    """The indices (int64) that sort ``input`` along ``dim``."""
    return _int64(ops.argsort(input, dim, descending))


def count_nonzero(input, dim=None):  # noqa: A002
    """The number (int64) of non-zero elements over ``dim``."""
    return ops.count_nonzero(input, () if dim is None else dim, False, mstype.int64)


def median(input, dim=None, keepdim=False):  # noqa: A002
    """The lower median of all elements, or ``(values, indices)`` along ``dim``."""
    if dim is None:
        flat = ops.reshape(input, (-1,))
        return ops.sort(flat)[0][(flat.shape[0] - 1) // 2]
    values, indices = ops.median(input, dim, keepdim)
    return values, _int64(indices)


def kthvalue(input, k, dim=-1, keepdim=False):  # noqa: A002
    """``(values, indices)``: the ``k``-th smallest element along ``dim``."""
    values, indices = ops.sort(input, dim)
    pick = ops.narrow(values, dim, k - 1, 1), ops.narrow(indices, dim, k - 1, 1)
    if not keepdim:
        pick = tuple(ops.squeeze(p, dim) for p in pick)
    return pick[0], _int64(pick[1])


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    """Whether every element of ``input`` is close to ``other`` (a Python bool)."""
    return bool(ops.isclose(input, other, rtol, atol, equal_nan).all())


def equal(input, other):  # noqa: A002
    """Whether ``input`` and ``other`` have the same shape and elements (a Python bool)."""
    return bool(ops.equal(input, other).all()) if input.shape == other.shape else False


def vdot(input, other):  # noqa: A002
    """``sum(conj(input) * other)`` of two 1-D Tensors."""
    return ops.sum(ops.mul(ops.conj(input), other))


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The vector ``p``-norm over ``dim`` (all elements when None; ``'fro'`` is 2)."""
    x = ops.abs(_cast(input, dtype))
    p = 2 if p == "fro" else p
    if p == float("inf"):
        return ops.amax(x, dim, keepdim)
    if p == float("-inf"):
        return ops.amin(x, dim, keepdim)
    if p == 0:
        return ops.sum(ops.cast(ops.ne(x, 0), x.dtype), dim, keepdim)
    return ops.pow(ops.sum(ops.pow(x, p), dim, keepdim), 1.0 / p)


def histc(input, bins=100, min=0, max=0):  # noqa: A001,A002
    """Counts in ``bins`` equal bins over ``[min, max]`` (the data's range when equal)."""
    return ops.histc(input, bins, float(min), float(max))


def bincount(input, weights=None, minlength=0):  # noqa: A002
    """Counts of each non-negative integer value."""
    return ops.bincount(input, weights, minlength)


def trace(input):  # noqa: A002
    """The sum of the main diagonal."""
    return ops.trace(input)


def item(input):  # noqa: A002
    """The value of a one-element Tensor as a Python number."""
    return input.item()
