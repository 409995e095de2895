"""Constants, iota and data movement: StableHLO shape ops -> GE array operators.

    constant           -> Const (a splat: scalar Const + BroadcastTo)
    iota               -> Range -> Reshape -> BroadcastTo [-> Cast]
    reshape/transpose  -> Reshape / Transpose (shape and perm as Const inputs)
    broadcast_in_dim   -> [Transpose] -> Reshape (size-1 dims inserted) -> BroadcastTo
    concatenate        -> ConcatV2
    slice              -> Slice (unit strides) or StridedSlice
    pad                -> [Dilation for interior] -> PadV3 [-> Slice for negative pads]
    reverse            -> ReverseV2
    dynamic_slice      -> starts clamped (ClipByValue) -> Pack -> Slice
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.ge.builder import SHAPE_DTYPE
from msxla.ge.registry import ge_converter


def _out(op, i=0):
    return parse.value_type(op.results[i])


@ge_converter("stablehlo.constant")
def _constant(ctx, op):
    value = parse.constant_value(op)
    if value.size > 1 and (value == value.reshape(-1)[0]).all():
        return [ctx.b.fill(value.reshape(-1)[0], value.dtype, value.shape)]
    return [ctx.b.const(value)]


@ge_converter("stablehlo.iota")
def _iota(ctx, op):
    b = ctx.b
    shape, dtype = _out(op)
    dim = parse.int_attr(op, "iota_dimension")
    n = shape[dim]
    kind = np.int64
    r = b.add1("Range", [b.const(np.asarray(0, kind)), b.const(np.asarray(n, kind)),
                         b.const(np.asarray(1, kind))], kind, (n,))
    r = b.reshape(r, [n if i == dim else 1 for i in range(len(shape))])
    return [b.broadcast_to(b.cast(r, dtype), shape)]


@ge_converter("stablehlo.reshape")
def _reshape(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.reshape(x, _out(op)[0])]


@ge_converter("stablehlo.transpose")
def _transpose(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.transpose(x, parse.ints(op, "permutation"))]


def broadcast_in_dim(b, x, dims, shape):
    dims = list(dims)
    if dims == list(range(len(shape) - len(dims), len(shape))):  # numpy-style: trailing dims
        return b.broadcast_to(x, shape)
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    x = b.transpose(x, order)
    dims = [dims[i] for i in order]
    expanded = [1] * len(shape)
    for i, d in enumerate(dims):
        expanded[d] = x.shape[i]
    return b.broadcast_to(b.reshape(x, expanded), shape)


@ge_converter("stablehlo.broadcast_in_dim")
def _broadcast_in_dim(ctx, op):
    (x,) = ctx.inputs(op)
    return [broadcast_in_dim(ctx.b, x, parse.ints(op, "broadcast_dimensions"), _out(op)[0])]


@ge_converter("stablehlo.concatenate")
def _concatenate(ctx, op):
    xs = ctx.inputs(op)
    axis = parse.ints(op, "dimension")[0]
    xs = [x for x in xs if x.shape[axis] != 0] or xs[:1]
    return [ctx.b.concat(xs, axis)]


def strided_slice(b, x, start, limit, strides):
    if all(s == 1 for s in strides):
        return b.slice(x, start, [hi - lo for lo, hi in zip(start, limit)])
    shape = [max(0, -(-(hi - lo) // s)) for lo, hi, s in zip(start, limit, strides)]
    return b.add1("StridedSlice", [x, b.shape_const(start), b.shape_const(limit),
                                   b.shape_const(strides)], x.dtype, shape)


@ge_converter("stablehlo.slice")
def _slice(ctx, op):
    (x,) = ctx.inputs(op)
    start = parse.ints(op, "start_indices")
    limit = parse.ints(op, "limit_indices")
    strides = parse.ints(op, "strides", [1] * len(start))
    return [strided_slice(ctx.b, x, start, limit, strides)]


def pad(ctx, op, x, value, low, high, interior):
    """StableHLO pad: interior (Dilation), then edges (PadV3; Slice where negative)."""
    b = ctx.b
    if any(interior):
        fill = ctx.const_value(value)
        if fill is None:
            raise ctx.unsupported(op, "with interior padding by a non-constant value")
        shape = [(d - 1) * (i + 1) + 1 if d > 0 else 0 for d, i in zip(x.shape, interior)]
        x = b.add1("Dilation", [x], x.dtype, shape, dilations=[i + 1 for i in interior],
                   pads=[], padding_value=float(np.asarray(fill).real))
    pos = [(max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high)]
    if any(lo or hi for lo, hi in pos):
        shape = [d + lo + hi for d, (lo, hi) in zip(x.shape, pos)]
        paddings = b.const(np.asarray(pos, SHAPE_DTYPE).reshape(len(pos), 2))
        value = b.reshape(value, ())
        x = b.add1("PadV3", [x, paddings, value], x.dtype, shape, mode="constant",
                   paddings_contiguous=True)
    if any(lo < 0 or hi < 0 for lo, hi in zip(low, high)):
        start = [-min(lo, 0) for lo in low]
        size = [d - s + min(hi, 0) for d, s, hi in zip(x.shape, start, high)]
        x = b.slice(x, start, size)
    return x


@ge_converter("stablehlo.pad")
def _pad(ctx, op):
    x, value = ctx.inputs(op)
    low = parse.ints(op, "edge_padding_low")
    high = parse.ints(op, "edge_padding_high")
    interior = parse.ints(op, "interior_padding", [0] * len(low))
    return [pad(ctx, op, x, value, low, high, interior)]


@ge_converter("stablehlo.reverse")
def _reverse(ctx, op):
    (x,) = ctx.inputs(op)
    dims = parse.ints(op, "dimensions")
    if not dims:
        return [x]
    return [ctx.b.add1("ReverseV2", [x, ctx.b.shape_const(dims)], x.dtype, x.shape)]


def clamped_starts(b, starts, dims, sizes):
    """Each scalar start cast to int64 and clamped to [0, dim - size]."""
    out = []
    for s, dim, size in zip(starts, dims, sizes):
        s = b.reshape(b.cast(s, SHAPE_DTYPE), ())
        out.append(b.clip(s, np.asarray(0, SHAPE_DTYPE), np.asarray(dim - size, SHAPE_DTYPE)))
    return out


@ge_converter("stablehlo.dynamic_slice")
def _dynamic_slice(ctx, op):
    b = ctx.b
    x, *starts = ctx.inputs(op)
    sizes = parse.ints(op, "slice_sizes")
    if not starts:
        return [x]
    offsets = b.pack(clamped_starts(b, starts, x.shape, sizes), 0)
    return [b.add1("Slice", [x, offsets, b.shape_const(sizes)], x.dtype, sizes)]


@ge_converter("stablehlo.optimization_barrier")
def _barrier(ctx, op):
    xs = ctx.inputs(op)
    if not xs:
        return []
    return ctx.b.add("IdentityN", [xs], [(t.dtype, t.shape) for t in xs])


@ge_converter("stablehlo.get_tuple_element", "stablehlo.tuple")
def _tuple(ctx, op):
    raise ctx.unsupported(op, "(tuple values)")
