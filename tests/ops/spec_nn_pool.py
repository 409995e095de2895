"""OpSpecs: pooling, against loop-per-output-cell numpy references."""
import math

import numpy as np

from optable import OpSpec

F = (np.float32, np.float64)


def _tup(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def _out_size(n, k, s, p, d, ceil):
    span = n + 2 * p - d * (k - 1) - 1
    out = (math.ceil(span / s) if ceil else span // s) + 1
    if ceil and (out - 1) * s >= n + p:
        out -= 1
    return out


def _pool_ref(x, nd, kernel, stride, padding, dilation, ceil, reduce):
    """Apply ``reduce(values, positions, window_cells)`` to every window (torch geometry)."""
    k = _tup(kernel, nd)
    s = k if stride is None else _tup(stride, nd)
    p, d = _tup(padding, nd), _tup(dilation, nd)
    sp = x.shape[-nd:]
    outs = [_out_size(sp[i], k[i], s[i], p[i], d[i], ceil) for i in range(nd)]
    lead = x.shape[:-nd]
    res = np.zeros(lead + tuple(outs), np.float64)
    idx = np.zeros(lead + tuple(outs), np.int64)
    for o in np.ndindex(*outs):
        cells, padded = [], 0
        for j in np.ndindex(*k):
            pos = tuple(o[i] * s[i] - p[i] + j[i] * d[i] for i in range(nd))
            if all(0 <= pos[i] < sp[i] for i in range(nd)):
                cells.append(pos)
            elif all(-p[i] <= pos[i] < sp[i] + p[i] for i in range(nd)):
                padded += 1
        vals = np.stack([x[(Ellipsis,) + c] for c in cells], axis=-1)
        res[(Ellipsis,) + o], idx[(Ellipsis,) + o] = reduce(vals, cells, sp, padded)
    return res.astype(x.dtype), idx


def _max_reduce(vals, cells, sp, padded):
    a = np.argmax(vals, axis=-1)
    flat = np.array([np.ravel_multi_index(c, sp) for c in cells])
    return vals.max(axis=-1), flat[a]


def max_pool_ref(nd):
    def ref(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
            ceil_mode=False):
        out, idx = _pool_ref(x, nd, kernel_size, stride, padding, dilation, ceil_mode,
                             _max_reduce)
        return (out, idx) if return_indices else out
    return ref


def avg_pool_ref(nd):
    def ref(x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
            divisor_override=0):
        def reduce(vals, cells, sp, padded):
            total = vals.sum(axis=-1)
            if divisor_override:
                return total / divisor_override, 0
            return total / (len(cells) + (padded if count_include_pad else 0)), 0
        return _pool_ref(x, nd, kernel_size, stride, padding, 1, ceil_mode, reduce)[0]
    return ref


def lp_pool_ref(nd):
    def ref(x, norm_type, kernel_size, stride=None, ceil_mode=False):
        def reduce(vals, cells, sp, padded):
            # MindSpore: the in-bounds mean of x ** p, scaled by the full window size
            full = np.prod(_tup(kernel_size, nd))
            mean = (vals ** norm_type).mean(axis=-1)
            return (mean * full) ** (1.0 / norm_type), 0
        return _pool_ref(x, nd, kernel_size, stride, 0, 1, ceil_mode, reduce)[0]
    return ref


def adaptive_ref(nd, kind):
    def ref(x, output_size, return_indices=False):
        outs = _tup(output_size, nd)
        sp = x.shape[-nd:]
        outs = tuple(sp[i] if outs[i] is None else outs[i] for i in range(nd))
        res = np.zeros(x.shape[:-nd] + outs, np.float64)
        idx = np.zeros(x.shape[:-nd] + outs, np.int64)
        for o in np.ndindex(*outs):
            rng = [range(o[i] * sp[i] // outs[i], -(-(o[i] + 1) * sp[i] // outs[i]))
                   for i in range(nd)]
            cells = [c for c in np.ndindex(*[len(r) for r in rng])]
            cells = [tuple(rng[i][c[i]] for i in range(nd)) for c in cells]
            vals = np.stack([x[(Ellipsis,) + c] for c in cells], axis=-1)
            if kind == "avg":
                res[(Ellipsis,) + o] = vals.mean(axis=-1)
            else:
                res[(Ellipsis,) + o], idx[(Ellipsis,) + o] = _max_reduce(vals, cells, sp, 0)
        res = res.astype(x.dtype)
        return (res, idx.astype(np.int64 if nd == 2 else np.int32)) if return_indices else res
    return ref


def _x(*shape):
    return lambda rng, dt: [rng.standard_normal(shape).astype(dt)]


SPECS = [
    OpSpec("max_pool2d", max_pool_ref(2), _x(2, 2, 5, 6), kwargs={"kernel_size": 2},
           dtypes=F + (np.float16,), grad=True),
    OpSpec("max_pool2d", max_pool_ref(2), _x(1, 1, 7, 6),
           kwargs={"kernel_size": 3, "stride": 2, "padding": 1, "return_indices": True,
                   "ceil_mode": True}, dtypes=F, grad=True, id="pad-ceil-indices"),
    OpSpec("max_pool2d", max_pool_ref(2), _x(1, 1, 7, 7),
           kwargs={"kernel_size": (2, 3), "stride": (2, 1), "dilation": 2,
                   "return_indices": True}, dtypes=F, grad=True, id="dilation"),
    OpSpec("max_pool2d", max_pool_ref(2), lambda rng, dt: [rng.integers(-9, 9, (1, 2, 4, 4))
                                                           .astype(dt)],
           kwargs={"kernel_size": 2}, dtypes=(np.int32,), id="int"),
    OpSpec("max_pool3d", max_pool_ref(3), _x(1, 1, 3, 4, 4),
           kwargs={"kernel_size": 2, "stride": (1, 2, 2), "padding": 1, "ceil_mode": True,
                   "return_indices": True}, dtypes=F, grad=True),
    OpSpec("avg_pool1d", avg_pool_ref(1), _x(2, 3, 7),
           kwargs={"kernel_size": 3, "stride": 2, "padding": 1}, dtypes=F, grad=True),
    OpSpec("avg_pool1d", avg_pool_ref(1), _x(2, 3, 8),
           kwargs={"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True,
                   "count_include_pad": False}, dtypes=F, grad=True, id="ceil-exclude"),
    OpSpec("avg_pool2d", avg_pool_ref(2), _x(1, 2, 6, 7),
           kwargs={"kernel_size": 3, "stride": 2, "padding": 1}, dtypes=F + (np.float16,),
           grad=True),
    OpSpec("avg_pool2d", avg_pool_ref(2), _x(1, 2, 6, 7),
           kwargs={"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True,
                   "count_include_pad": False}, dtypes=F, grad=True, id="ceil-exclude"),
    OpSpec("avg_pool2d", avg_pool_ref(2), _x(1, 2, 6, 7),
           kwargs={"kernel_size": 2, "stride": 2, "divisor_override": 3}, dtypes=F,
           grad=True, id="divisor"),
    OpSpec("avg_pool3d", avg_pool_ref(3), _x(1, 1, 3, 4, 5),
           kwargs={"kernel_size": 2, "stride": 2, "padding": 1, "ceil_mode": True},
           dtypes=F, grad=True),
    OpSpec("lp_pool1d", lp_pool_ref(1), _x(1, 3, 7), kwargs={"norm_type": 2, "kernel_size": 2},
           dtypes=F, grad=True, domain="positive",),
    OpSpec("lp_pool2d", lp_pool_ref(2), lambda rng, dt: [rng.uniform(0.5, 2, (1, 1, 5, 6))
                                                         .astype(dt)],
           kwargs={"norm_type": 1.5, "kernel_size": 2, "stride": (2, 1), "ceil_mode": True},
           dtypes=F, grad=True),
    OpSpec("adaptive_avg_pool1d", adaptive_ref(1, "avg"), _x(2, 3, 8),
           kwargs={"output_size": 4}, dtypes=F, grad=True),
    OpSpec("adaptive_avg_pool2d", adaptive_ref(2, "avg"), _x(1, 2, 7, 5),
           kwargs={"output_size": (3, 2)}, dtypes=F + (np.float16,), grad=True),
    OpSpec("adaptive_avg_pool2d", adaptive_ref(2, "avg"), _x(3, 7, 5),
           kwargs={"output_size": (None, 3)}, dtypes=F, grad=True, id="none-3d"),
    OpSpec("adaptive_avg_pool3d", adaptive_ref(3, "avg"), _x(1, 1, 5, 4, 3),
           kwargs={"output_size": (2, 3, 2)}, dtypes=F, grad=True),
    OpSpec("adaptive_max_pool1d", adaptive_ref(1, "max"), _x(2, 3, 8),
           kwargs={"output_size": 2}, dtypes=F, grad=True),
    OpSpec("adaptive_max_pool2d", adaptive_ref(2, "max"), _x(1, 2, 5, 5),
           kwargs={"output_size": (3, 2), "return_indices": True}, dtypes=F, grad=True),
    OpSpec("adaptive_max_pool3d", adaptive_ref(3, "max"), _x(1, 1, 4, 3, 3),
           kwargs={"output_size": (2, 3, 2), "return_indices": True}, dtypes=F, grad=True),
]
