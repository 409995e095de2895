"""Contractions and convolutions: dot_general -> MatMulV2 / BatchMatMulV2,
convolution -> Conv2D / Conv3D (GE's fixed NCHW / NCDHW layouts).

dot_general is canonicalised to ``[B, M, K] x [B, K, N]`` with Reshape (and
Transpose only where ``transpose_x1/x2`` / ``adj_x1/x2`` cannot express the
operand's layout)::

    dot_general(x[M, K], w[N, K], contracting = 1, 1)
        -> MatMulV2(x, w, transpose_x2=true)

convolution moves the input to NCHW and the kernel to OIHW by Transpose,
reverses the kernel for ``window_reversal``, dilates the input with
``Dilation`` for ``lhs_dilation`` (jax's input gradient), crops negative
padding with Slice, runs one Conv2D (1-D convs get a unit height, 3-D convs
use Conv3D), and splits ``batch_group_count`` (jax's grouped filter gradient)
into one convolution per group. Gradient convolutions that match GE's own
backprop operators are emitted as those (``convert_conv_grad.py``).
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.ge.registry import ge_converter


def _prod(xs):
    return int(np.prod(list(xs), dtype=np.int64))


@ge_converter("stablehlo.dot_general")
def _dot_general(ctx, op):
    b = ctx.b
    lhs, rhs = ctx.inputs(op)
    lb, rb, lc, rc = parse.dot_dims(op)
    out_shape, out_dtype = parse.value_type(op.results[0])
    lhs, rhs = b.cast(lhs, out_dtype), b.cast(rhs, out_dtype)
    lf = [d for d in range(lhs.rank) if d not in lb and d not in lc]
    rf = [d for d in range(rhs.rank) if d not in rb and d not in rc]
    bsz = _prod(lhs.shape[d] for d in lb)
    m, k = _prod(lhs.shape[d] for d in lf), _prod(lhs.shape[d] for d in lc)
    n = _prod(rhs.shape[d] for d in rf)
    batch = [bsz] if lb else []
    ident_l, ident_r = list(range(lhs.rank)), list(range(rhs.rank))
    adj1 = lb + lc + lf == ident_l and lb + lf + lc != ident_l
    x1 = b.reshape(lhs, batch + [k, m]) if adj1 else \
        b.reshape(b.transpose(lhs, lb + lf + lc), batch + [m, k])
    adj2 = rb + rf + rc == ident_r and rb + rc + rf != ident_r
    x2 = b.reshape(rhs, batch + [n, k]) if adj2 else \
        b.reshape(b.transpose(rhs, rb + rc + rf), batch + [k, n])
    if lb:
        y = b.add1("BatchMatMulV2", [x1, x2], out_dtype, [bsz, m, n], adj_x1=adj1, adj_x2=adj2)
    else:
        y = b.add1("MatMulV2", [x1, x2], out_dtype, [m, n], transpose_x1=adj1,
                   transpose_x2=adj2)
    return [b.reshape(y, out_shape)]


def conv_params(op, n_sp):
    """The convolution's window attributes, defaults filled."""
    return dict(
        strides=parse.ints(op, "window_strides", [1] * n_sp),
        padding=parse.padding(op, "padding", n_sp),
        lhs_dilation=parse.ints(op, "lhs_dilation", [1] * n_sp),
        rhs_dilation=parse.ints(op, "rhs_dilation", [1] * n_sp),
        reversal=parse.bools(op, "window_reversal") or [False] * n_sp,
        groups=parse.int_attr(op, "feature_group_count", 1),
        batch_groups=parse.int_attr(op, "batch_group_count", 1),
    )


def to_channels_first(b, lhs, rhs, dn):
    """Input as N, C, spatial...; kernel as O, I, spatial..."""
    x = b.transpose(lhs, [dn.input_batch_dimension, dn.input_feature_dimension]
                    + list(dn.input_spatial_dimensions))
    w = b.transpose(rhs, [dn.kernel_output_feature_dimension, dn.kernel_input_feature_dimension]
                    + list(dn.kernel_spatial_dimensions))
    return x, w


def from_channels_first(b, y, dn):
    order = [dn.output_batch_dimension, dn.output_feature_dimension] + \
        list(dn.output_spatial_dimensions)
    perm = [order.index(r) for r in range(y.rank)]
    return b.transpose(y, perm)


def conv_nchw(b, x, w, strides, pads, dilations, groups, out_dtype):
    """One GE convolution on channels-first tensors (1, 2 or 3 spatial dims)."""
    n_sp = x.rank - 2
    if n_sp == 1:
        x4 = b.reshape(x, x.shape[:2] + (1,) + x.shape[2:])
        w4 = b.reshape(w, w.shape[:2] + (1,) + w.shape[2:])
        y = conv_nchw(b, x4, w4, [1] + strides, [(0, 0)] + pads, [1] + dilations, groups,
                      out_dtype)
        return b.reshape(y, y.shape[:2] + y.shape[3:])
    out_sp = [(d + lo + hi - ((k - 1) * dl + 1)) // s + 1 for d, (lo, hi), k, dl, s in
              zip(x.shape[2:], pads, w.shape[2:], dilations, strides)]
    shape = [x.shape[0], w.shape[0]] + out_sp
    kind, fmt = ("Conv2D", "NCHW") if n_sp == 2 else ("Conv3D", "NCDHW")
    return b.add("Conv2D" if kind == "Conv2D" else "Conv3D", [x, w], [(out_dtype, shape)], dict(
        strides=[1, 1] + list(strides), pads=[p for pair in pads for p in pair],
        dilations=[1, 1] + list(dilations), groups=groups, data_format=fmt), layout=fmt)[0]


@ge_converter("stablehlo.convolution")
def _convolution(ctx, op):
    from msxla.ge.convert_conv_grad import match_backprop
    b = ctx.b
    lhs, rhs = ctx.inputs(op)
    dn = parse.conv_dims(op)
    n_sp = len(dn.input_spatial_dimensions)
    if n_sp not in (1, 2, 3):
        raise ctx.unsupported(op, f"with {n_sp} spatial dimensions")
    p = conv_params(op, n_sp)
    _, out_dtype = parse.value_type(op.results[0])
    matched = match_backprop(ctx, op, lhs, rhs, dn, p, out_dtype)
    if matched is not None:
        return [matched]
    x, w = to_channels_first(b, b.cast(lhs, out_dtype), b.cast(rhs, out_dtype), dn)
    if any(p["reversal"]):
        axes = [2 + i for i, r in enumerate(p["reversal"]) if r]
        w = b.add1("ReverseV2", [w, b.shape_const(axes)], w.dtype, w.shape)
    if any(d != 1 for d in p["lhs_dilation"]):
        shape = list(x.shape[:2]) + [(s - 1) * d + 1 if s else 0
                                     for s, d in zip(x.shape[2:], p["lhs_dilation"])]
        x = b.add1("Dilation", [x], x.dtype, shape, dilations=[1, 1] + p["lhs_dilation"],
                   pads=[], padding_value=0.0)
    pads = p["padding"]
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        start = [0, 0] + [max(-lo, 0) for lo, _ in pads]
        size = list(x.shape[:2]) + [d - max(-lo, 0) - max(-hi, 0)
                                    for d, (lo, hi) in zip(x.shape[2:], pads)]
        x = b.slice(x, start, size)
        pads = [(max(lo, 0), max(hi, 0)) for lo, hi in pads]
    bg = p["batch_groups"]
    if bg == 1:
        y = conv_nchw(b, x, w, p["strides"], pads, p["rhs_dilation"], p["groups"], out_dtype)
    else:  # output features split into groups, each convolving its own slice of the batch
        nb, og = x.shape[0] // bg, w.shape[0] // bg
        parts = []
        for g in range(bg):
            xg = b.slice(x, [g * nb] + [0] * (x.rank - 1), (nb,) + x.shape[1:])
            wg = b.slice(w, [g * og] + [0] * (w.rank - 1), (og,) + w.shape[1:])
            parts.append(conv_nchw(b, xg, wg, p["strides"], pads, p["rhs_dilation"],
                                   p["groups"], out_dtype))
        y = b.concat(parts, 1)
    return [from_channels_first(b, y, dn)]
