"""OpSpecs: segment reductions, reverse_sequence, order statistics, view scatters and the
remaining math rows (cov, renorm, incomplete gamma, ...)."""
import math

import numpy as np
from scipy import special

from optable import OpSpec

F = (np.float32, np.float64)
FI = F + (np.int32, np.int64)

IDS = np.array([0, 2, 0, 3, 2], np.int32)


def _segment(kind):
    identity = {"sum": 0, "prod": 1}

    def ref(x, ids, num_segments):
        out = np.empty((num_segments,) + x.shape[1:], x.dtype)
        for s in range(num_segments):
            rows = x[ids == s]
            if len(rows):
                out[s] = getattr(np, kind if kind != "sum" else "sum")(rows, axis=0) \
                    if kind in ("sum", "prod") else (rows.max(0) if kind == "max" else rows.min(0))
            elif kind in identity:
                out[s] = identity[kind]
            else:
                info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
                out[s] = info.min if kind == "max" else info.max
        return out
    return ref


def _seg_inputs(rng, dtype):
    x = rng.standard_normal((5, 3)) * 3
    return [x.astype(dtype) if np.dtype(dtype).kind == "f" else np.round(x).astype(dtype), IDS]


def _rev_seq(x, lengths, seq_dim, batch_dim):
    out = x.copy()
    for b, n in enumerate(lengths):
        sl = [slice(None)] * x.ndim
        sl[batch_dim] = b
        sl[seq_dim] = slice(0, n)
        idx = tuple(sl)
        out[idx] = np.flip(x[idx], axis=seq_dim - (1 if batch_dim < seq_dim else 0))
    return out


def _nanmedian(x, axis=-1, keepdims=False):
    order = np.argsort(x, axis=axis, kind="stable")
    count = np.sum(~np.isnan(x), axis=axis, keepdims=True)
    k = np.maximum((count - 1) // 2, 0)
    idx = np.take_along_axis(order, k, axis=axis)
    return (np.take_along_axis(x, idx, axis=axis).squeeze(axis),
            idx.squeeze(axis).astype(np.int64))


def _histc(x, bins, min, max):  # noqa: A002
    return np.histogram(x, bins=bins, range=(min, max))[0].astype(x.dtype)


def _diag_scatter(x, src, offset=0):
    out = x.copy()
    i = np.arange(src.shape[-1])
    out[i, i + offset] = src
    return out


def _cov(x):
    return np.cov(x).astype(x.dtype)


def _renorm(x, p, axis, maxnorm):
    others = tuple(i for i in range(x.ndim) if i != axis)
    norm = np.sum(np.abs(x) ** p, axis=others, keepdims=True) ** (1 / p)
    return (x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)).astype(x.dtype)


def _mvlgamma(x, p):
    j = np.arange(p)
    return (np.sum(special.gammaln(x[..., None] - j / 2), -1)
            + p * (p - 1) / 4 * math.log(math.pi)).astype(x.dtype)


def _chol_inv(x):
    return np.linalg.inv(x @ x.T).astype(x.dtype)


def _lower(rng, dtype):
    a = np.tril(rng.standard_normal((3, 3))) + 3 * np.eye(3)
    return [a.astype(dtype)]


SPECS = [
    *[OpSpec(f"unsorted_segment_{k}", _segment(k), _seg_inputs, {"num_segments": 4},
             dtypes=FI, grad=k in ("sum", "prod"), grad_inputs=(0,), id=k)
      for k in ("sum", "max", "min", "prod")],
    OpSpec("reverse_sequence", lambda x, s, seq_dim, batch_dim: _rev_seq(x, s, seq_dim, batch_dim),
           lambda rng, d: [rng.standard_normal((3, 4)).astype(d), np.array([1, 3, 4])],
           {"seq_dim": 1, "batch_dim": 0}, dtypes=FI, grad=True, grad_inputs=(0,)),
    OpSpec("quantile", lambda x, q, axis: np.quantile(x, q, axis=axis).astype(x.dtype),
           lambda rng, d: [rng.standard_normal((4, 5)).astype(d), 0.3], {"axis": 1}, dtypes=F,
           grad=True, grad_inputs=(0,)),
    OpSpec("nanquantile", lambda x, q: np.nanquantile(x, q).astype(x.dtype),
           lambda rng, d: [np.where(rng.random(8) > 0.7, np.nan, rng.standard_normal(8))
                           .astype(d), 0.5], dtypes=F),
    OpSpec("nanmedian", _nanmedian,
           lambda rng, d: [np.where(rng.random((3, 6)) > 0.7, np.nan,
                                    rng.standard_normal((3, 6))).astype(d)], dtypes=F),
    OpSpec("msort", lambda x: np.sort(x, axis=0), ((4, 3),), dtypes=FI, grad=True),
    OpSpec("aminmax", lambda x, axis: (x.min(axis), x.max(axis)), ((3, 4),), {"axis": 1},
           dtypes=FI),
    OpSpec("histc", _histc, ((20,),), {"bins": 5, "min": -2.0, "max": 2.0}, dtypes=F),
    OpSpec("diff", lambda x: np.diff(x, axis=-1), ((3, 5),), dtypes=FI + (np.bool_,),
           grad=True),
    OpSpec("diff", lambda x, p, axis: np.diff(np.concatenate([p, x], 0), axis=0),
           ((3, 2), (1, 2)), {"axis": 0}, fn=lambda x, p, axis: __import__("msxla").ops.diff(
               x, 1, axis, prepend=p), dtypes=F, id="prepend"),
    OpSpec("slice_scatter", lambda x, s, axis, start, end, step: _slice_set(x, s, start, end, step),
           ((6, 2), (2, 2)), {"axis": 0, "start": 1, "end": 6, "step": 3}, dtypes=FI, grad=True),
    OpSpec("select_scatter", lambda x, s, axis, index: _select_set(x, s, index),
           ((3, 4), (3,)), {"axis": 1, "index": 2}, dtypes=FI, grad=True),
    OpSpec("diagonal_scatter", _diag_scatter, ((3, 4), (3,)), {"offset": 1}, dtypes=FI,
           grad=True),
    OpSpec("inplace_update", lambda x, v, indices: _rows_set(x, v, indices), ((4, 3), (2, 3)),
           {"indices": (3, 1)}, dtypes=FI, grad=True),
    OpSpec("cholesky_inverse", _chol_inv, _lower, dtypes=F, grad=True, rtol=1e-4),
    OpSpec("cov", _cov, ((3, 6),), dtypes=F, grad=True),
    OpSpec("renorm", _renorm, ((3, 4),), {"p": 2, "axis": 0, "maxnorm": 1.5}, dtypes=F,
           grad=True),
    OpSpec("approximate_equal", lambda x, y, tolerance: np.abs(x - y) < tolerance,
           ((3, 4), (3, 4)), {"tolerance": 0.5}, dtypes=F),
    OpSpec("mvlgamma", _mvlgamma, lambda rng, d: [rng.uniform(2, 4, (3,)).astype(d)], {"p": 3},
           dtypes=F, grad=True),
    OpSpec("igamma", lambda a, x: special.gammainc(a, x).astype(a.dtype), ((4,), (4,)),
           dtypes=F, domain="positive", rtol=1e-5),
    OpSpec("igammac", lambda a, x: special.gammaincc(a, x).astype(a.dtype), ((4,), (4,)),
           dtypes=F, domain="positive", rtol=1e-5),
    OpSpec("fills", lambda x, value: np.full_like(x, value), lambda rng, d: [
        rng.standard_normal((2, 3)).astype(d), 2.5], dtypes=F),
]


def _slice_set(x, s, start, end, step):
    out = x.copy()
    out[start:end:step] = s
    return out


def _select_set(x, s, index):
    out = x.copy()
    out[:, index] = s
    return out


def _rows_set(x, v, indices):
    out = x.copy()
    out[list(indices)] = v
    return out
