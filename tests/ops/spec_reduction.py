"""OpSpecs: reductions, statistics and scans (dtypes as MindSpore 2.10 gives them)."""
import numpy as np

from optable import OpSpec

F = (np.float32, np.float64, np.float16)
I = (np.int32, np.int64)
B = (np.bool_,)
I64 = np.int64


def _ax(a):
    return tuple(a) if isinstance(a, list) else a


def _wide(x):
    return x.astype(I64) if x.dtype.kind in "biu" else x


def _sum(x, dim=None, keepdim=False, dtype=None):
    return np.sum(_wide(x), axis=_ax(dim), keepdims=keepdim)


def _mean(x, axis=None, keep_dims=False):
    out = np.mean(x.astype(np.float64) if x.dtype.kind in "iu" else x, axis=_ax(axis),
                  keepdims=keep_dims)
    return np.trunc(out).astype(x.dtype) if x.dtype.kind in "iu" else out


def _prod(x, axis=None, keep_dims=False, dtype=None):
    return np.prod(_wide(x), axis=_ax(axis), keepdims=keep_dims)


def _pair(largest):
    def ref(x, axis=None, keepdims=False):
        f, arg = (np.max, np.argmax) if largest else (np.min, np.argmin)
        if axis is None:
            return np.asarray(f(x)), np.asarray(0, I64)
        return (f(x, axis=axis, keepdims=keepdims),
                np.asarray(arg(x, axis=axis, keepdims=keepdims), I64))
    return ref


def _lse(x, dim, keepdim=False):
    m = np.max(x, axis=_ax(dim), keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=_ax(dim), keepdims=True)) + m
    return out if keepdim else np.squeeze(out, axis=_ax(dim))


def _median(x, axis=-1, keepdims=False):
    order = np.argsort(x, axis=axis, kind="stable")
    pos = (x.shape[axis] - 1) // 2
    idx = np.take(order, [pos], axis=axis)
    vals = np.take_along_axis(x, idx, axis=axis)
    if not keepdims:
        vals, idx = np.squeeze(vals, axis), np.squeeze(idx, axis)
    return vals, idx.astype(I64)


def _cum_extreme(largest, idx_dtype):
    def ref(x, axis):
        x = np.moveaxis(x, axis, -1)
        vals, idx = np.empty_like(x), np.empty(x.shape, idx_dtype)
        best, where = x[..., 0].copy(), np.zeros(x.shape[:-1], idx_dtype)
        for i in range(x.shape[-1]):
            take = x[..., i] >= best if largest else x[..., i] <= best
            best = np.where(take, x[..., i], best)
            where = np.where(take, i, where)
            vals[..., i], idx[..., i] = best, where
        return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)
    return ref


def _cumprod(x, dim, dtype=None):
    return np.cumprod(_wide(x), axis=dim)


def _logcumsumexp(x, axis):
    return np.logaddexp.accumulate(x, axis=axis)


SPECS = [
    OpSpec("sum", _sum, dtypes=F + I + B, grad=True),
    OpSpec("sum", _sum, ((2, 3, 4),), kwargs=dict(dim=(0, 2), keepdim=True), dtypes=F + I,
           grad=True, id="axes"),
    OpSpec("sum", lambda x, dim=None, dtype=None: np.sum(x.astype(np.float64), axis=dim),
           kwargs=dict(dim=1, dtype=np.float64), dtypes=(np.float32, np.int32), id="dtype"),
    OpSpec("mean", _mean, dtypes=F + I, grad=True),
    OpSpec("mean", _mean, ((2, 3, 4),), kwargs=dict(axis=-1, keep_dims=True), dtypes=F + I,
           grad=True, id="axis"),
    OpSpec("prod", _prod, dtypes=F + I + B, grad=True),
    OpSpec("prod", _prod, kwargs=dict(axis=0, keep_dims=True), dtypes=F + I, grad=True,
           id="axis"),
    OpSpec("amax", lambda x, axis=None, keepdims=False: np.amax(x, axis=_ax(axis),
                                                                keepdims=keepdims),
           ((2, 3, 4),), kwargs=dict(axis=(0, 2)), dtypes=F + I, grad=True),
    OpSpec("amin", lambda x, axis=None, keepdims=False: np.amin(x, axis=axis, keepdims=keepdims),
           kwargs=dict(axis=1, keepdims=True), dtypes=F + I, grad=True),
    OpSpec("max", _pair(True), kwargs=dict(axis=1), dtypes=F + I, grad=True),
    OpSpec("max", _pair(True), dtypes=F + I, id="all"),
    OpSpec("min", _pair(False), kwargs=dict(axis=0, keepdims=True), dtypes=F + I, grad=True),
    OpSpec("argmax", lambda x, dim=None, keepdim=False: np.asarray(
        np.argmax(x, axis=dim, keepdims=keepdim), I64), kwargs=dict(dim=1), dtypes=F + I),
    OpSpec("argmax", lambda x: np.asarray(np.argmax(x), I64), dtypes=F + I, id="flat"),
    OpSpec("argmin", lambda x, axis=None, keepdims=False: np.asarray(
        np.argmin(x, axis=axis, keepdims=keepdims), np.int32),
        kwargs=dict(axis=0, keepdims=True), dtypes=F + I),
    OpSpec("all", lambda x, axis=None, keep_dims=False: np.all(x, axis=axis, keepdims=keep_dims),
           kwargs=dict(axis=1), dtypes=F + I + B),
    OpSpec("any", lambda x, axis=None, keep_dims=False: np.any(x, axis=axis, keepdims=keep_dims),
           dtypes=F + I + B),
    OpSpec("count_nonzero", lambda x, axis=(), keep_dims=False: np.asarray(
        np.count_nonzero(x, axis=axis or None, keepdims=keep_dims), np.int32),
        kwargs=dict(axis=1, keep_dims=True), dtypes=F + I + B),
    OpSpec("logsumexp", _lse, kwargs=dict(dim=1), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("logsumexp", _lse, ((2, 3, 4),), kwargs=dict(dim=(0, 2), keepdim=True),
           dtypes=(np.float32,), grad=True, id="axes"),
    OpSpec("nansum", lambda x, axis=None: np.nansum(_wide(x), axis=axis), kwargs=dict(axis=1),
           dtypes=F + I, grad=True),
    OpSpec("nanmean", lambda x, axis=None: np.nanmean(x, axis=axis), kwargs=dict(axis=0),
           dtypes=(np.float32, np.float64), grad=True),
    # statistics
    OpSpec("std", lambda x, axis=None, ddof=0, keepdims=False: np.std(
        x, axis=axis, ddof=ddof, keepdims=keepdims), kwargs=dict(axis=1, ddof=1),
        dtypes=(np.float32, np.float64), grad=True),
    OpSpec("var", lambda x, axis=None, ddof=0, keepdims=False: np.var(
        x, axis=_ax(axis), ddof=ddof, keepdims=keepdims), ((2, 3, 4),),
        kwargs=dict(axis=(0, 1), keepdims=True), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("std_mean", lambda x, axis=None, ddof=0: (np.std(x, axis=axis, ddof=ddof),
                                                     np.mean(x, axis=axis)),
           kwargs=dict(axis=0), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("var_mean", lambda x, axis=None, ddof=0: (np.var(x, axis=axis, ddof=ddof),
                                                     np.mean(x, axis=axis)),
           dtypes=(np.float32, np.float64), grad=True),
    OpSpec("median", _median, ((3, 5),), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("median", _median, ((4, 3),), kwargs=dict(axis=0, keepdims=True),
           dtypes=(np.float32, np.int32, np.int64), id="axis0"),
    # scans
    OpSpec("cumsum", lambda x, axis, dtype=None: np.cumsum(x, axis=axis, dtype=x.dtype),
           kwargs=dict(axis=1), dtypes=F + I, grad=True),
    OpSpec("cumprod", _cumprod, kwargs=dict(dim=0), dtypes=F + I, grad=True),
    OpSpec("cummax", _cum_extreme(True, I64), ((3, 5),), kwargs=dict(axis=1), dtypes=F + I,
           grad=True),
    OpSpec("cummin", _cum_extreme(False, np.int32), ((4, 3),), kwargs=dict(axis=0),
           dtypes=F + I, grad=True),
    OpSpec("logcumsumexp", _logcumsumexp, kwargs=dict(axis=1), dtypes=(np.float32, np.float64),
           grad=True),
]
