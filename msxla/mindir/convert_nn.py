"""Contractions, convolutions and pooling: dot_general -> MatMul / BatchMatMul,
convolution -> Conv2D, reduce_window -> MaxPool / AvgPool.

dot_general is canonicalised to ``[B, M, K] x [B, K, N]`` with Reshape (and
Transpose only where ``transpose_a`` / ``transpose_b`` cannot express the
operand's layout)::

    dot_general(x[M, K], w[N, K], contracting = 1, 1)  ->  MatMul(x, w, False, True)

convolution moves the input to NCHW and the kernel to OIHW, reverses the
kernel for ``window_reversal``, crops negative padding and runs MindSpore's
Conv2D (``pad_mode="pad"`` with the explicit padding; 1-D convolutions get a
unit height), written as MindSpore writes it: an old-style primitive whose
attributes carry the geometry.

reduce_window over one whole axis, padded on one side, is a running sum or
product: CumSum / CumProd. Over the last two dims of an NCHW tensor with a
``max`` body it is MaxPool (VALID, after padding with the init value where StableHLO pads);
with an ``add`` body (a windowed sum, what average pooling divides) it is
AvgPool times the window size.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.mindir.registry import mindir_converter


def _prod(xs):
    return int(np.prod(list(xs), dtype=np.int64))


@mindir_converter("stablehlo.dot_general")
def _dot_general(ctx, op):
    b = ctx.b
    lhs, rhs = ctx.inputs(op)
    lb, rb, lc, rc = parse.dot_dims(op)
    out_shape, out_dtype = parse.value_type(op.results[0])
    lhs, rhs = ctx.cast(lhs, out_dtype), ctx.cast(rhs, out_dtype)
    lf = [d for d in range(lhs.rank) if d not in lb and d not in lc]
    rf = [d for d in range(rhs.rank) if d not in rb and d not in rc]
    bsz = _prod(lhs.shape[d] for d in lb)
    m, k = _prod(lhs.shape[d] for d in lf), _prod(lhs.shape[d] for d in lc)
    n = _prod(rhs.shape[d] for d in rf)
    batch = [bsz] if lb else []
    ident_l, ident_r = list(range(lhs.rank)), list(range(rhs.rank))
    ta = lb + lc + lf == ident_l and lb + lf + lc != ident_l
    x1 = ctx.reshape(lhs, batch + [k, m]) if ta else \
        ctx.reshape(ctx.transpose(lhs, lb + lf + lc), batch + [m, k])
    tb = rb + rf + rc == ident_r and rb + rc + rf != ident_r
    x2 = ctx.reshape(rhs, batch + [n, k]) if tb else \
        ctx.reshape(ctx.transpose(rhs, rb + rc + rf), batch + [k, n])
    kind = "BatchMatMul" if lb else "MatMul"
    y = b.fn(kind, x1, x2, transpose_a=ta, transpose_b=tb, out_shape=batch + [m, n],
             out_dtype=out_dtype)
    return [ctx.reshape(y, out_shape)]


# ----------------------------------------------------------------- convolution
def conv2d(b, x, w, strides, pads, dilations, groups, out_dtype):
    """MindSpore's Conv2D (old-style primitive) on NCHW ``x`` and OIHW ``w``."""
    out_sp = [(d + lo + hi - ((k - 1) * dl + 1)) // s + 1 for d, (lo, hi), k, dl, s in
              zip(x.shape[2:], pads, w.shape[2:], dilations, strides)]
    shape = (x.shape[0], w.shape[0], *out_sp)
    pad = tuple(int(p) for pair in pads for p in pair)
    attrs = {
        "kernel_size": tuple(int(k) for k in w.shape[2:]), "mode": 1,
        "out_channel": int(w.shape[0]), "input_names": ["x", "w"], "pad": pad,
        "pad_mode": "pad" if any(pad) else "valid", "format": "NCHW", "pad_list": pad,
        "groups": int(groups), "stride": (1, 1, *[int(s) for s in strides]),
        "group": int(groups), "dilation": (1, 1, *[int(d) for d in dilations]),
        "output_names": ["output"],
    }
    return b.old("Conv2D", [x, w], attrs, shape, out_dtype)


@mindir_converter("stablehlo.convolution")
def _convolution(ctx, op):
    lhs, rhs = ctx.inputs(op)
    dn = parse.conv_dims(op)
    n_sp = len(dn.input_spatial_dimensions)
    out_shape, out_dtype = parse.value_type(op.results[0])
    strides = parse.ints(op, "window_strides", [1] * n_sp)
    pads = parse.padding(op, "padding", n_sp)
    lhs_dil = parse.ints(op, "lhs_dilation", [1] * n_sp)
    rhs_dil = parse.ints(op, "rhs_dilation", [1] * n_sp)
    reversal = parse.bools(op, "window_reversal") or [False] * n_sp
    groups = parse.int_attr(op, "feature_group_count", 1)
    if n_sp not in (1, 2):
        raise ctx.unsupported(op, f"with {n_sp} spatial dimensions")
    if any(d != 1 for d in lhs_dil) or parse.int_attr(op, "batch_group_count", 1) != 1:
        raise ctx.unsupported(op, "with input dilation or batch groups (a transposed or "
                                  "gradient convolution)")
    x = ctx.transpose(ctx.cast(lhs, out_dtype), [dn.input_batch_dimension,
                                                 dn.input_feature_dimension,
                                                 *dn.input_spatial_dimensions])
    w = ctx.transpose(ctx.cast(rhs, out_dtype), [dn.kernel_output_feature_dimension,
                                                 dn.kernel_input_feature_dimension,
                                                 *dn.kernel_spatial_dimensions])
    if any(reversal):
        w = ctx.b.fn("ReverseV2", w, axis=tuple(2 + i for i, r in enumerate(reversal) if r))
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        begin = [0, 0] + [max(-lo, 0) for lo, _ in pads]
        end = list(x.shape[:2]) + [d - max(-hi, 0) for d, (_, hi) in zip(x.shape[2:], pads)]
        x = ctx.slice(x, begin, end)
        pads = [(max(lo, 0), max(hi, 0)) for lo, hi in pads]
    if n_sp == 1:
        x = ctx.reshape(x, (*x.shape[:2], 1, x.shape[2]))
        w = ctx.reshape(w, (*w.shape[:2], 1, w.shape[2]))
        strides, pads, rhs_dil = [1, *strides], [(0, 0), *pads], [1, *rhs_dil]
    y = conv2d(ctx.b, x, w, strides, pads, rhs_dil, groups, out_dtype)
    if n_sp == 1:
        y = ctx.reshape(y, (y.shape[0], y.shape[1], y.shape[3]))
    order = [dn.output_batch_dimension, dn.output_feature_dimension,
             *dn.output_spatial_dimensions]
    return [ctx.transpose(y, [order.index(r) for r in range(y.rank)])]


# --------------------------------------------------------------------- pooling
@mindir_converter("stablehlo.reduce_window")
def _reduce_window(ctx, op):
    if len(op.operands) != 2:
        raise ctx.unsupported(op, "with several operands")
    x, init = ctx.inputs(op)
    kind = parse.single_body_op(op.regions[0])
    out_shape, out_dtype = parse.value_type(op.results[0])
    window = parse.ints(op, "window_dimensions")
    strides = parse.ints(op, "window_strides", [1] * x.rank)
    pads = parse.padding(op, "padding", x.rank)
    dilated = parse.ints(op, "base_dilations", [1] * x.rank) + \
        parse.ints(op, "window_dilations", [1] * x.rank)
    cumulative = _cumulative(ctx, x, init, kind, window, strides, pads, dilated)
    if cumulative is not None:
        return [cumulative]
    lead = x.rank - 2
    if kind not in ("stablehlo.maximum", "stablehlo.add") or any(d != 1 for d in dilated) or \
            x.rank not in (3, 4) or any(window[i] != 1 or strides[i] != 1 or pads[i] != (0, 0)
                                        for i in range(lead)) or x.dtype.kind != "f":
        raise ctx.unsupported(op, "other than a max or sum pool over the last two dimensions "
                                  "of a float tensor")
    fill = -np.inf if kind == "stablehlo.maximum" else 0.0
    if init.const is None or float(init.const.reshape(())) != fill:
        raise ctx.unsupported(op, f"with an init value other than {fill}")
    if x.rank == 3:  # (N, C, L): a unit height
        x = ctx.reshape(x, (x.shape[0], x.shape[1], 1, x.shape[2]))
        window, strides, pads = [1, 1, 1, window[2]], [1, 1, 1, strides[2]], \
            [(0, 0), (0, 0), (0, 0), pads[2]]
    if any(p != (0, 0) for p in pads):
        x = _pad_with(ctx, x, pads, fill)
    kernel, stride = tuple(window[2:]), tuple(strides[2:])
    shape = (*x.shape[:2], *[(d - k) // s + 1 for d, k, s in zip(x.shape[2:], kernel, stride)])
    b = ctx.b
    if kind == "stablehlo.maximum":
        attrs = {"pad_mode": "VALID", "output_names": ["output"],
                 "kernel_size": (1, 1, *kernel), "format": "NCHW",
                 "strides": (1, 1, *stride), "input_names": ["x"]}
        y = b.old("MaxPool", [x], attrs, shape, x.dtype)
    else:
        avg = b.fn("AvgPool", x, kernel_size=kernel, strides=stride, pad_mode="VALID",
                   data_format="NCHW", out_shape=shape)
        y = b.fn("Mul", avg, b.const(np.asarray(_prod(kernel), x.dtype)))
    return [ctx.reshape(y, out_shape)]


_CUMULATIVE = {"stablehlo.add": "CumSum", "stablehlo.multiply": "CumProd"}


def _cumulative(ctx, x, init, kind, window, strides, pads, dilated):
    """A running sum / product along one axis (a window of the whole axis, padded on one
    side): CumSum / CumProd, or None if the window is not that."""
    axes = [i for i, w in enumerate(window) if w != 1]
    if kind not in _CUMULATIVE or len(axes) != 1 or any(d != 1 for d in dilated) or \
            any(s != 1 for s in strides) or init.const is None or \
            init.const.reshape(()) != (0 if kind == "stablehlo.add" else 1):
        return None
    a = axes[0]
    n = x.shape[a]
    if window[a] != n or any(p != (0, 0) for i, p in enumerate(pads) if i != a) or \
            pads[a] not in ((n - 1, 0), (0, n - 1)):
        return None
    return ctx.b.fn(_CUMULATIVE[kind], x, a, exclusive=False, reverse=pads[a] == (0, n - 1))


def _pad_with(ctx, x, pads, fill):
    parts_axis = x
    for axis, (lo, hi) in enumerate(pads):
        parts = []
        for n in (lo, None, hi):
            if n is None:
                parts.append(parts_axis)
            elif n:
                shape = list(parts_axis.shape)
                shape[axis] = n
                const = ctx.b.const(np.full((1,) * x.rank, fill, x.dtype))
                parts.append(ctx.broadcast(const, shape))
        parts_axis = ctx.concat(parts, axis)
    return parts_axis
