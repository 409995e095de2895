"""Constants, iota and data movement: StableHLO shape ops -> MindSpore array primitives.

    constant           -> Constant (a splat is kept as a scalar, broadcast lazily)
    iota               -> Constant (folded)
    reshape/transpose  -> Reshape / Transpose
    broadcast_in_dim   -> [Transpose] -> Reshape (size-1 dims inserted), broadcast lazily
                          (BroadcastTo where a consumer needs the full shape)
    concatenate        -> MakeTuple -> Concat
    slice              -> StridedSlice
    pad                -> Concat with constant blocks (interior padding: unsupported);
                          negative padding -> StridedSlice
    reverse            -> ReverseV2
    dynamic_slice      -> StridedSlice when the start indices are constants
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.mindir.convert import Lazy
from msxla.mindir.registry import mindir_converter


def _out(op, i=0):
    return parse.value_type(op.results[i])


@mindir_converter("stablehlo.constant")
def _constant(ctx, op):
    value = parse.constant_value(op)
    if value.size > 1 and (value == value.reshape(-1)[0]).all():
        scalar = ctx.b.const(value.reshape(-1)[:1].reshape((1,) * value.ndim))
        return [Lazy(scalar, value.shape)]
    return [ctx.b.const(value)]


@mindir_converter("stablehlo.iota")
def _iota(ctx, op):
    shape, dtype = _out(op)
    dim = parse.int_attr(op, "iota_dimension")
    line = np.arange(shape[dim]).astype(dtype).reshape(
        [shape[dim] if i == dim else 1 for i in range(len(shape))])
    return [Lazy(ctx.b.const(line), shape)]


@mindir_converter("stablehlo.reshape")
def _reshape(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.reshape(x, _out(op)[0])]


@mindir_converter("stablehlo.transpose")
def _transpose(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.transpose(x, parse.ints(op, "permutation"))]


@mindir_converter("stablehlo.broadcast_in_dim")
def _broadcast_in_dim(ctx, op):
    shape, _ = _out(op)
    dims = parse.ints(op, "broadcast_dimensions")
    src = ctx.get_lazy(op.operands[0])
    if isinstance(src, Lazy):  # broadcast of a broadcast: from the smaller source
        inner = src.src
        lifted = [1] * len(shape)
        for k, d in enumerate(dims):
            lifted[d] = inner.shape[k]
        return [Lazy(ctx.reshape(inner, lifted), tuple(shape))]
    x = src
    order = sorted(range(len(dims)), key=lambda k: dims[k])
    x = ctx.transpose(x, order)
    lifted = [1] * len(shape)
    for k in order:
        lifted[dims[k]] = x.shape[order.index(k)]
    x = ctx.reshape(x, lifted)
    if tuple(x.shape) == tuple(shape):
        return [x]
    return [Lazy(x, tuple(shape))]


@mindir_converter("stablehlo.concatenate")
def _concatenate(ctx, op):
    axis = parse.int_attr(op, "dimension")
    parts = [p for p in ctx.inputs(op) if p.shape[axis] != 0]
    if all(p.const is not None for p in parts):
        return [ctx.b.const(np.concatenate([p.const for p in parts], axis))]
    return [ctx.concat(parts, axis)]


@mindir_converter("stablehlo.slice")
def _slice(ctx, op):
    (x,) = ctx.inputs(op)
    start = parse.ints(op, "start_indices")
    limit = parse.ints(op, "limit_indices")
    strides = parse.ints(op, "strides", [1] * x.rank)
    return [ctx.slice(x, start, limit, strides)]


@mindir_converter("stablehlo.dynamic_slice")
def _dynamic_slice(ctx, op):
    x, *starts = ctx.inputs(op)
    if any(s.const is None for s in starts):
        raise ctx.unsupported(op, "with start indices computed in the graph")
    sizes = parse.ints(op, "slice_sizes")
    begin = [min(max(int(s.const), 0), d - n) for s, d, n in zip(starts, x.shape, sizes)]
    return [ctx.slice(x, begin, [b + n for b, n in zip(begin, sizes)])]


@mindir_converter("stablehlo.reverse")
def _reverse(ctx, op):
    (x,) = ctx.inputs(op)
    dims = parse.ints(op, "dimensions")
    return [ctx.b.fn("ReverseV2", x, axis=tuple(dims))]


@mindir_converter("stablehlo.pad")
def _pad(ctx, op):
    """Edge padding as Concat with constant blocks of the padding value, one axis at a time."""
    x, value = ctx.inputs(op)
    lo, hi = parse.ints(op, "edge_padding_low"), parse.ints(op, "edge_padding_high")
    interior = parse.ints(op, "interior_padding", [0] * x.rank)
    if any(interior):
        raise ctx.unsupported(op, "with interior padding")
    if value.const is None:
        raise ctx.unsupported(op, "with a padding value computed in the graph")
    fill = value.const.reshape(())
    begin = [max(-a, 0) for a in lo]
    end = [d - max(-b, 0) for d, b in zip(x.shape, hi)]
    x = ctx.slice(x, begin, end)
    for axis, (a, b) in enumerate(zip(lo, hi)):
        parts = []
        for n in (max(a, 0), None, max(b, 0)):
            if n is None:
                parts.append(x)
            elif n:
                shape = list(x.shape)
                shape[axis] = n
                parts.append(ctx.broadcast(ctx.b.const(fill.reshape((1,) * x.rank)), shape))
        x = ctx.concat(parts, axis)
    return [x]
