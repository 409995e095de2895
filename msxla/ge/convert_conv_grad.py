"""Gradient convolutions -> GE's Conv2DBackpropInput / Conv2DBackpropFilter.

jax differentiates ``y = conv(x, w, strides s, pads (lo, hi), dilation d)``
into two more convolutions, which this module recognises (2-D, ungrouped):

- input gradient: ``conv(dy, reverse(w, spatial), lhs_dilation=s,
  rhs_dilation=d, padding=(k_eff-1-lo, ...))`` with the kernel's in/out
  feature roles swapped ->
  ``Conv2DBackpropInput(input_size=x.shape, filter=w, out_backprop=dy)``;
- filter gradient: ``conv(x, dy, window_strides=d, rhs_dilation=s,
  padding=(lo, ...))`` with the batch and feature dims of ``x`` (and ``dy``)
  exchanged -> ``Conv2DBackpropFilter(x, filter_size=w.shape, dy)``.

Both are emitted with the *forward* convolution's strides, pads and
dilations, as GE expects. The forward high padding is recovered as the
smallest one giving the same output size (any larger one only adds unread
rows), and a match is accepted only if the forward geometry reproduces
``dy``'s spatial size exactly; anything else takes the general path.
"""
from __future__ import annotations

from msxla.ge import parse


def _defining(value):
    return getattr(value.owner, "operation", None)


def _forward_size(n, lo, hi, k, s, d):
    return (n + lo + hi - ((k - 1) * d + 1)) // s + 1


def _attrs(strides, pads, dilations):
    return dict(strides=[1, 1] + list(strides), pads=[p for lo_hi in pads for p in lo_hi],
                dilations=[1, 1] + list(dilations), groups=1, data_format="NCHW")


def match_backprop(ctx, op, lhs, rhs, dn, p, out_dtype):
    if len(dn.input_spatial_dimensions) != 2 or p["groups"] != 1 or p["batch_groups"] != 1 \
            or any(p["reversal"]) or lhs.dtype != out_dtype or rhs.dtype != out_dtype:
        return None
    return _input_grad(ctx, op, rhs, lhs, dn, p) or _filter_grad(ctx, op, lhs, rhs, dn, p)


def _input_grad(ctx, op, rhs, dy, dn, p):
    b = ctx.b
    rev = _defining(op.operands[1])
    if rev is None or rev.name != "stablehlo.reverse" or \
            sorted(parse.ints(rev, "dimensions")) != sorted(dn.kernel_spatial_dimensions) or \
            any(s != 1 for s in p["strides"]):
        return None
    w_src = ctx.get(rev.operands[0])
    strides, dil = p["lhs_dilation"], p["rhs_dilation"]
    ksp = [w_src.shape[i] for i in dn.kernel_spatial_dimensions]
    out_shape, _ = parse.value_type(op.results[0])
    dx_sp = [out_shape[i] for i in dn.output_spatial_dimensions]
    dy_sp = [dy.shape[i] for i in dn.input_spatial_dimensions]
    pads = []
    for (lo, hi), k, d in zip(p["padding"], ksp, dil):
        k_eff = (k - 1) * d + 1
        pads.append((k_eff - 1 - lo, k_eff - 1 - hi))
    if any(lo < 0 or hi < 0 for lo, hi in pads) or any(
            _forward_size(n, lo, hi, k, s, d) != m
            for n, (lo, hi), k, s, d, m in zip(dx_sp, pads, ksp, strides, dil, dy_sp)):
        return None
    # forward filter, OIHW: O = this conv's kernel input feature, I = its output feature
    w = b.transpose(w_src, [dn.kernel_input_feature_dimension, dn.kernel_output_feature_dimension]
                    + list(dn.kernel_spatial_dimensions))
    g = b.transpose(dy, [dn.input_batch_dimension, dn.input_feature_dimension]
                    + list(dn.input_spatial_dimensions))
    dx_shape = [out_shape[dn.output_batch_dimension], out_shape[dn.output_feature_dimension]] \
        + dx_sp
    dx = b.add("Conv2DBackpropInput", [b.shape_const(dx_shape), w, g], [(g.dtype, dx_shape)],
               _attrs(strides, pads, dil), layout="NCHW")[0]
    from msxla.ge.convert_dot_conv import from_channels_first
    return from_channels_first(b, dx, dn)


def _filter_grad(ctx, op, x, dy, dn, p):
    """Only jax's layout: x and dy NCHW with batch/feature roles exchanged, dw OIHW."""
    if (dn.input_batch_dimension, dn.input_feature_dimension) != (1, 0) or \
            (dn.kernel_input_feature_dimension, dn.kernel_output_feature_dimension) != (0, 1) or \
            (dn.output_batch_dimension, dn.output_feature_dimension) != (1, 0) or \
            list(dn.input_spatial_dimensions) != [2, 3] or \
            list(dn.kernel_spatial_dimensions) != [2, 3] or \
            list(dn.output_spatial_dimensions) != [2, 3] or \
            any(d != 1 for d in p["lhs_dilation"]):
        return None
    strides, dil = p["rhs_dilation"], p["strides"]
    out_shape, _ = parse.value_type(op.results[0])
    ksp = list(out_shape[2:])
    pads = []
    for n, (lo, _), k, s, d, m in zip(x.shape[2:], p["padding"], ksp, strides, dil,
                                      dy.shape[2:]):
        hi = max(0, (m - 1) * s + (k - 1) * d + 1 - n - lo)
        if lo < 0 or _forward_size(n, lo, hi, k, s, d) != m:
            return None
        pads.append((lo, hi))
    b = ctx.b
    w_shape = [out_shape[0], out_shape[1]] + ksp
    return b.add("Conv2DBackpropFilter", [x, b.shape_const(w_shape), dy], [(x.dtype, w_shape)],
                 _attrs(strides, pads, dil), layout="NCHW")[0]
