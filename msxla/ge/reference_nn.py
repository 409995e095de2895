"""Reference kernels: GE contraction, convolution, pooling, reduction, scan, sort
and linear-algebra operators.

Convolutions follow GE's attribute conventions: ``strides`` / ``dilations``
list every dim in ``data_format`` order (N and C are 1), ``pads`` are
``[top, bottom, left, right]`` (``[front, back, top, bottom, left, right]``
for Conv3D), ``groups`` splits the channels; the filter is ``[O, I/groups,
kH, kW]`` under NCHW. Pooling pads with -inf (max) or zeros (average). Half
precision is accumulated in float32.
"""
from __future__ import annotations

import numpy as np

from msxla.ge.reference import GeExecutionError, contiguous, kernel


def _acc(dtype):
    return np.float32 if (np.dtype(dtype).itemsize < 4 and np.dtype(dtype).kind == "f") or \
        str(dtype) == "bfloat16" else dtype


# ------------------------------------------------------------- contraction
@kernel("MatMulV2")
def _matmul(call, x1, x2, *_):
    a = x1.T if call.attr("transpose_x1") else x1
    b = x2.T if call.attr("transpose_x2") else x2
    dtype = call.out[0][0]
    return np.matmul(a.astype(_acc(dtype)), b.astype(_acc(dtype))).astype(dtype)


@kernel("BatchMatMulV2")
def _batch_matmul(call, x1, x2, *_):
    a = np.swapaxes(x1, -1, -2) if call.attr("adj_x1") else x1
    b = np.swapaxes(x2, -1, -2) if call.attr("adj_x2") else x2
    dtype = call.out[0][0]
    return np.matmul(a.astype(_acc(dtype)), b.astype(_acc(dtype))).astype(dtype)


# ------------------------------------------------------------- convolution
def _conv_attrs(call, n_sp):
    fmt = call.attr("data_format")
    if fmt not in ("NCHW", "NCDHW"):
        raise GeExecutionError(f"{call.node.type}: data_format {fmt} is not used by msxla")
    pads = call.attr("pads")
    return (call.attr("strides")[2:], [(pads[2 * i], pads[2 * i + 1]) for i in range(n_sp)],
            call.attr("dilations")[2:], call.attr("groups"))


def _windows(shape_sp, kernel_sp, strides, dilations, out_sp):
    """For each kernel position: the strided slices of the padded input it reads."""
    for kpos in np.ndindex(*kernel_sp):
        yield kpos, tuple(slice(k * d, k * d + (o - 1) * s + 1, s)
                          for k, d, o, s in zip(kpos, dilations, out_sp, strides))


def _grouped(x, w, groups):
    n, c = x.shape[:2]
    o = w.shape[0]
    return (x.reshape((n, groups, c // groups) + x.shape[2:]),
            w.reshape((groups, o // groups) + w.shape[1:]))


def conv_forward(x, w, strides, pads, dilations, groups, acc):
    n_sp = x.ndim - 2
    xp = np.pad(x.astype(acc), [(0, 0), (0, 0)] + list(pads))
    ksp = w.shape[2:]
    out_sp = [(xp.shape[2 + i] - ((ksp[i] - 1) * dilations[i] + 1)) // strides[i] + 1
              for i in range(n_sp)]
    xg, wg = _grouped(xp, w.astype(acc), groups)
    out = np.zeros((x.shape[0], groups, wg.shape[1]) + tuple(out_sp), acc)
    for kpos, sl in _windows(xp.shape[2:], ksp, strides, dilations, out_sp):
        patch = xg[(slice(None),) * 3 + sl]
        out += np.einsum("ngc...,goc->ngo...", patch, wg[(slice(None),) * 3 + kpos])
    return out.reshape((x.shape[0], w.shape[0]) + tuple(out_sp))


@kernel("Conv2D", "Conv3D")
def _conv(call, x, w, bias=None, *_):
    strides, pads, dil, groups = _conv_attrs(call, x.ndim - 2)
    dtype = call.out[0][0]
    y = conv_forward(x, w, strides, pads, dil, groups, _acc(dtype))
    if bias is not None:
        y = y + bias.reshape((1, -1) + (1,) * (x.ndim - 2))
    return y.astype(dtype)


@kernel("Conv2DBackpropInput")
def _conv_backprop_input(call, input_size, w, dy):
    strides, pads, dil, groups = _conv_attrs(call, dy.ndim - 2)
    shape = [int(v) for v in input_size]
    dtype = call.out[0][0]
    acc = _acc(dtype)
    padded = shape[:2] + [s + lo + hi for s, (lo, hi) in zip(shape[2:], pads)]
    dxp = np.zeros(padded, acc)
    dxg, wg = _grouped(dxp, w.astype(acc), groups)
    dyg = dy.astype(acc).reshape((dy.shape[0], groups, dy.shape[1] // groups) + dy.shape[2:])
    for kpos, sl in _windows(padded[2:], w.shape[2:], strides, dil, dy.shape[2:]):
        dxg[(slice(None),) * 3 + sl] += np.einsum("ngo...,goc->ngc...", dyg,
                                                   wg[(slice(None),) * 3 + kpos])
    crop = tuple(slice(lo, lo + s) for s, (lo, _) in zip(shape[2:], pads))
    return contiguous(dxp[(slice(None), slice(None)) + crop]).astype(dtype)


@kernel("Conv2DBackpropFilter")
def _conv_backprop_filter(call, x, filter_size, dy):
    strides, pads, dil, groups = _conv_attrs(call, x.ndim - 2)
    shape = [int(v) for v in filter_size]
    dtype = call.out[0][0]
    acc = _acc(dtype)
    xp = np.pad(x.astype(acc), [(0, 0), (0, 0)] + list(pads))
    xg = xp.reshape((x.shape[0], groups, x.shape[1] // groups) + xp.shape[2:])
    dyg = dy.astype(acc).reshape((dy.shape[0], groups, dy.shape[1] // groups) + dy.shape[2:])
    dw = np.zeros((groups, shape[0] // groups) + tuple(shape[1:]), acc)
    dyf = dyg.reshape(dyg.shape[:3] + (-1,))
    for kpos, sl in _windows(xp.shape[2:], shape[2:], strides, dil, dy.shape[2:]):
        patch = xg[(slice(None),) * 3 + sl]
        dw[(slice(None),) * 3 + kpos] = np.einsum("ngcs,ngos->goc",
                                                   patch.reshape(patch.shape[:3] + (-1,)), dyf)
    return dw.reshape(shape).astype(dtype)


# ----------------------------------------------------------------- pooling
def _pool_attrs(call):
    if call.attr("data_format") != "NCHW" or call.attr("padding_mode") != "CALCULATED" or \
            call.attr("ceil_mode") or call.attr("global_pooling"):
        raise GeExecutionError(f"{call.node.type}: only NCHW CALCULATED pooling is used")
    p = call.attr("pads")
    return call.attr("ksize")[2:], call.attr("strides")[2:], [(p[0], p[1]), (p[2], p[3])]


@kernel("MaxPoolV3", "AvgPoolV2")
def _pool(call, x):
    k, s, pads = _pool_attrs(call)
    dtype, shape = call.out[0]
    is_max = call.node.type == "MaxPoolV3"
    fill = -np.inf if is_max else 0
    xp = np.pad(x.astype(_acc(dtype)), [(0, 0), (0, 0)] + pads, constant_values=fill)
    out = None
    for _, sl in _windows(xp.shape[2:], k, s, [1, 1], shape[2:]):
        part = xp[(slice(None), slice(None)) + sl]
        out = part if out is None else (np.maximum(out, part) if is_max else out + part)
    if not is_max:
        if call.attr("exclusive"):
            raise GeExecutionError("AvgPoolV2 exclusive=true is not used by msxla")
        out = out / (k[0] * k[1])
    return out.astype(dtype)


@kernel("MaxPoolV3Grad")
def _max_pool_grad(call, x, y, grad):
    """The gradient goes to the first maximum of each window (row-major order)."""
    k, s, pads = _pool_attrs(call)
    xp = np.pad(x, [(0, 0), (0, 0)] + pads, constant_values=-np.inf)
    dxp = np.zeros(xp.shape, x.dtype)
    found = np.zeros(y.shape, bool)
    for _, sl in _windows(xp.shape[2:], k, s, [1, 1], y.shape[2:]):
        index = (slice(None), slice(None)) + sl
        hit = (xp[index] == y) & ~found
        dxp[index] += np.where(hit, grad, 0).astype(x.dtype)
        found |= hit
    return contiguous(dxp[:, :, pads[0][0]:pads[0][0] + x.shape[2],
                                    pads[1][0]:pads[1][0] + x.shape[3]])


# -------------------------------------------------------------- reductions
_REDUCE = {"ReduceSum": np.sum, "ReduceProd": np.prod, "ReduceMax": np.max,
           "ReduceMin": np.min, "ReduceAll": np.all, "ReduceAny": np.any, "ReduceMean": np.mean}


@kernel(*_REDUCE)
def _reduce(call, x, axes):
    axes = tuple(int(a) for a in np.asarray(axes).reshape(-1))
    dtype = call.out[0][0]
    if not axes and call.node.type == "ReduceMean" and call.attr("noop_with_empty_axes"):
        return x.copy()
    src = x.astype(_acc(x.dtype)) if call.node.type in ("ReduceSum", "ReduceMean",
                                                        "ReduceProd") else x
    y = _REDUCE[call.node.type](src, axis=axes, keepdims=call.attr("keep_dims"))
    return np.asarray(y).astype(dtype)


@kernel("ArgMaxV2", "ArgMin")
def _arg(call, x, dimension):
    fn = np.argmax if call.node.type == "ArgMaxV2" else np.argmin
    return fn(x, axis=int(dimension)).astype(call.attr("dtype"))


@kernel("Cumsum", "Cumprod")
def _cumulative(call, x, axis):
    axis = int(axis)
    fn = np.cumsum if call.node.type == "Cumsum" else np.cumprod
    src = np.flip(x, axis) if call.attr("reverse") else x
    y = fn(src.astype(_acc(x.dtype)), axis=axis)
    if call.attr("exclusive"):
        ident = 0 if call.node.type == "Cumsum" else 1
        y = np.concatenate([np.full_like(np.take(y, [0], axis), ident),
                            np.take(y, np.arange(y.shape[axis] - 1), axis)], axis)
    y = np.flip(y, axis) if call.attr("reverse") else y
    return contiguous(y).astype(x.dtype)


# ------------------------------------------------------------------ sorting
def _order(x, axis, descending, stable=True):
    kind = "stable" if stable else "quicksort"
    if not descending:
        return np.argsort(x, axis=axis, kind=kind)
    n = x.shape[axis]
    idx = np.argsort(np.flip(x, axis), axis=axis, kind=kind)   # NaN last, ties reversed
    return np.flip(n - 1 - idx, axis)                            # NaN first, ties in order


@kernel("Sort")
def _sort(call, x):
    axis = call.attr("axis")
    idx = _order(x, axis, call.attr("descending"), call.attr("stable"))
    return np.take_along_axis(x, idx, axis), idx.astype(np.int32)


@kernel("TopKV2")
def _top_k(call, x, k):
    axis = call.attr("dim")
    if not call.attr("largest"):
        raise GeExecutionError("TopKV2 largest=false is not used by msxla")
    idx = np.take(_order(x, axis, True), np.arange(int(k)), axis=axis)
    return np.take_along_axis(x, idx, axis), idx.astype(np.int32)


# ----------------------------------------------------------- linear algebra
@kernel("Cholesky")
def _cholesky(call, x):
    with np.errstate(all="ignore"):
        try:
            return np.linalg.cholesky(x).astype(x.dtype)
        except np.linalg.LinAlgError:
            return np.full(x.shape, np.nan, x.dtype)


@kernel("Svd")
def _svd(call, x):
    (_, s_shape), (_, u_shape), (_, v_shape) = call.out
    if not call.attr("compute_uv"):
        s = np.linalg.svd(x, compute_uv=False)
        zeros = np.zeros(u_shape, x.dtype)
        return s.astype(x.dtype), zeros, np.zeros(v_shape, x.dtype)
    u, s, vh = np.linalg.svd(x, full_matrices=call.attr("full_matrices"))
    return s.astype(x.dtype), u.astype(x.dtype), np.swapaxes(vh, -1, -2).astype(x.dtype)


@kernel("MatrixTriangularSolve")
def _triangular_solve(call, a, b):
    from scipy.linalg import solve_triangular
    out = np.empty(b.shape, b.dtype)
    for idx in np.ndindex(*a.shape[:-2]):
        out[idx] = solve_triangular(a[idx], b[idx], lower=call.attr("lower"),
                                    trans="C" if call.attr("adjoint") else "N")
    return out
