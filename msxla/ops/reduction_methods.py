"""Tensor methods of the reduction, statistics and scan rows.

MindSpore 2.10's Tensor methods accept two overloads at once, e.g.
``Tensor.sum(dim=None, keepdim=False, *, dtype=None)`` and the older
``Tensor.sum(axis=None, dtype=None, keepdims=False, initial=None)``. Each
method here resolves the overload from the argument names and types (as
MindSpore's overload resolution does) and calls the functional row.
"""
from __future__ import annotations

import numbers

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor, wrap
from msxla.ops import reduction as R, scan as S, stats as T
from msxla.ops.surface import exports, tensor_method


def _take(kw, *names, default=None):
    """Pop the first of ``names`` present in ``kw`` (aliases of one argument)."""
    found = [n for n in names if n in kw]
    if len(found) > 1:
        raise TypeError(f"got both '{found[0]}' and '{found[1]}' for the same argument")
    return kw.pop(found[0]) if found else default


def _pos(args, i, kw, *names, default=None):
    if len(args) > i:
        if any(n in kw for n in names):
            raise TypeError(f"got multiple values for argument '{names[0]}'")
        return args[i]
    return _take(kw, *names, default=default)


def _done(method, args, kw, nmax):
    if len(args) > nmax:
        raise TypeError(f"Tensor.{method}() takes at most {nmax} positional arguments "
                        f"but {len(args)} were given")
    if kw:
        raise TypeError(f"Tensor.{method}() got an unexpected keyword argument "
                        f"'{next(iter(kw))}'")


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _sum(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis")
    if len(args) > 1 and not isinstance(args[1], bool):  # sum(axis, dtype, keepdims, initial)
        dtype = args[1]
        keep = _pos(args, 2, kw, "keepdims", "keepdim", default=False)
        initial = _pos(args, 3, kw, "initial")
    else:
        keep = _pos(args, 1, kw, "keepdim", "keepdims", default=False)
        dtype, initial = _take(kw, "dtype"), _take(kw, "initial")
    _done("sum", args, kw, 4)
    out = R.sum(self, axis, keep, dtype=dtype)
    if initial is not None:
        out = wrap(out._data + jnp.asarray(initial, out._data.dtype))
    return out


def _mean(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis")
    keep = _pos(args, 1, kw, "keepdim", "keep_dims", default=False)
    dtype = _take(kw, "dtype")
    _done("mean", args, kw, 2)
    x = self if dtype is None else self.astype(dtype)
    return R.mean(x, axis, keep)


def _prod(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis")
    keep = _pos(args, 1, kw, "keepdim", "keep_dims", default=False)
    dtype = _pos(args, 2, kw, "dtype")
    _done("prod", args, kw, 3)
    return R.prod(self, axis, keep, dtype)


_OLD_EXTREME = ("axis", "keepdims", "initial", "where", "return_indices")


def _extreme(largest):
    name = "max" if largest else "min"
    values_fn, pair_fn = (R.amax, R.max) if largest else (R.amin, R.min)

    def method(self, *args, **kw):
        old = any(k in kw for k in _OLD_EXTREME) or (args and not _is_int(args[0])
                                                     and not isinstance(args[0], Tensor))
        if not old:
            if not args and "dim" not in kw:
                _done(name, args, kw, 0)
                return values_fn(self)
            dim = _pos(args, 0, kw, "dim")
            keep = _pos(args, 1, kw, "keepdim", default=False)
            _done(name, args, kw, 2)
            return pair_fn(self, dim, keep)
        axis = _pos(args, 0, kw, "axis")
        keep = _pos(args, 1, kw, "keepdims", default=False)
        initial, where = _take(kw, "initial"), _take(kw, "where", default=True)
        return_indices = _take(kw, "return_indices", default=False)
        _done(name, args, kw, 2)
        where = None if where is True else where
        if return_indices:
            return pair_fn(self, axis, keep, initial=initial, where=where)
        return values_fn(self, axis, keep, initial=initial, where=where)

    method.__name__ = name
    return method


def _arg(fn, name):
    def method(self, *args, **kw):
        axis = _pos(args, 0, kw, "dim", "axis")
        keep = _pos(args, 1, kw, "keepdim", "keepdims", default=False)
        _done(name, args, kw, 2)
        return fn(self, axis, keep)
    method.__name__ = name
    return method


def _logical(fn, name):
    def method(self, *args, **kw):
        axis = _pos(args, 0, kw, "dim", "axis")
        keep = _pos(args, 1, kw, "keepdim", "keep_dims", "keepdims", default=False)
        _done(name, args, kw, 2)
        return fn(self, axis, keep)
    method.__name__ = name
    return method


def _spread(fn, name):
    """std/var: ``(dim=None, *, correction=1, keepdim=False)`` and
    ``(axis=None, ddof=0, keepdims=False)``; like MindSpore 2.10 on CPU, the
    delta degrees of freedom are 0 unless ``correction`` or ``ddof`` is given."""
    def method(self, *args, **kw):
        axis = _pos(args, 0, kw, "dim", "axis")
        ddof = _pos(args, 1, kw, "ddof", "correction", default=0)
        keep = _pos(args, 2, kw, "keepdims", "keepdim", default=False)
        _done(name, args, kw, 3)
        return fn(self, axis, int(ddof), keep)
    method.__name__ = name
    return method


def _median(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis", default=-1)
    keep = _pos(args, 1, kw, "keepdim", "keepdims", default=False)
    _done("median", args, kw, 2)
    return T.median(self, axis, keep)


def _logsumexp(self, *args, **kw):
    dim = _pos(args, 0, kw, "dim", "axis")
    keep = _pos(args, 1, kw, "keepdim", "keepdims", default=False)
    _done("logsumexp", args, kw, 2)
    return R.logsumexp(self, dim, keep)


def _cumsum(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis")
    dtype = _pos(args, 1, kw, "dtype")
    _done("cumsum", args, kw, 2)
    if axis is None:
        return S.cumsum(wrap(self._data.reshape(-1)), 0, dtype)
    return S.cumsum(self, axis, dtype)


def _cumprod(self, *args, **kw):
    dim = _pos(args, 0, kw, "dim", "axis")
    dtype = _pos(args, 1, kw, "dtype")
    _done("cumprod", args, kw, 2)
    return S.cumprod(self, dim, dtype)


def _count_nonzero(self, *args, **kw):
    axis = _pos(args, 0, kw, "axis", "dim", default=())
    keep = _pos(args, 1, kw, "keep_dims", default=False)
    dtype = _pos(args, 2, kw, "dtype")
    _done("count_nonzero", args, kw, 3)
    return R.count_nonzero(self, () if axis is None else axis, keep,
                           mstype.int32 if dtype is None else dtype)


def _with_value(fn, name):
    def method(self, axis=0, keep_dims=False):
        return fn(self, axis, keep_dims)
    method.__name__ = name
    return method


_METHODS = {
    "sum": _sum, "mean": _mean, "prod": _prod, "max": _extreme(True), "min": _extreme(False),
    "argmax": _arg(R.argmax, "argmax"), "argmin": _arg(R.argmin, "argmin"),
    "all": _logical(R.all, "all"), "any": _logical(R.any, "any"),
    "std": _spread(T.std, "std"), "var": _spread(T.var, "var"), "median": _median,
    "logsumexp": _logsumexp, "cumsum": _cumsum, "cumprod": _cumprod,
    "cummax": S.cummax, "cummin": S.cummin, "logcumsumexp": S.logcumsumexp,
    "count_nonzero": _count_nonzero, "nansum": R.nansum, "nanmean": R.nanmean,
    "argmax_with_value": _with_value(R.max, "argmax_with_value"),
    "argmin_with_value": _with_value(R.min, "argmin_with_value"),
}
for _name, _fn in _METHODS.items():
    tensor_method(_name, _fn)


__all__ = exports(__name__)
