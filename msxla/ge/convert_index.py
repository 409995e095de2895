"""Indexed reads and writes: gather, scatter, dynamic_update_slice -> GE.

The common gather (one operand axis indexed by a tensor of indices, full
slices elsewhere: an embedding lookup, ``x[idx]``) is one ``GatherV2`` with
its indices clamped, as StableHLO clamps them. Every other form, and every
scatter, goes through *linear indices*: the converter computes, for each
element read or written, its row-major offset in the flattened operand::

    lin = sum_k clamp(idx[..., k]) * stride[map[k]]   (from the index tensor)
        + sum_d iota_d * stride[d]                      (window / batch offsets, a Const)

    gather  -> GatherV2(Reshape(x, [size]), lin, axis=0)
    scatter -> TensorScatter{Update,Add,Max,Min} / ScatterMul(x flattened + 1 spare slot,
               lin (out-of-bounds windows sent to the spare slot), updates) -> Slice -> Reshape

so GE's fixed-form gather/scatter operators cover StableHLO's general ones,
including out-of-bounds semantics (gather clamps; scatter skips the window).
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.ge.builder import SHAPE_DTYPE
from msxla.ge.convert_shape import clamped_starts
from msxla.ge.registry import ge_converter

I64 = SHAPE_DTYPE


def _strides(shape):
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return list(reversed(out))


def _index_component(b, idx, ivd, k):
    """``idx[..., k, ...]`` along the index-vector dim, as int64, that dim dropped."""
    if ivd == idx.rank:
        return b.cast(idx, I64)
    sizes = list(idx.shape)
    sizes[ivd] = 1
    offsets = [0] * idx.rank
    offsets[ivd] = k
    part = b.slice(idx, offsets, sizes)
    return b.cast(b.reshape(part, [d for i, d in enumerate(idx.shape) if i != ivd]), I64)


def _iota_const(out_rank, terms):
    """Sum of ``iota(size) * stride`` placed along output dims: a broadcastable Const."""
    shape = [1] * out_rank
    for dim, size, _ in terms:
        shape[dim] = size
    total = np.zeros(shape, I64)
    for dim, size, stride in terms:
        axis_shape = [1] * out_rank
        axis_shape[dim] = size
        total = total + (np.arange(size, dtype=I64) * stride).reshape(axis_shape)
    return total


def _place(b, t, out_shape, positions):
    """Reshape ``t`` (dims = the output dims at ``positions``, in order) to the output rank."""
    shape = [1] * len(out_shape)
    for dim, p in zip(t.shape, positions):
        shape[p] = dim
    return b.reshape(t, shape)


# ------------------------------------------------------------------ gather
def _gather_v2_axis(d, operand_shape, slice_sizes, idx_rank):
    """The axis when the gather is a plain GatherV2, else None."""
    if list(d.operand_batching_dims) or len(d.start_index_map) != 1:
        return None
    a = d.start_index_map[0]
    if list(d.collapsed_slice_dims) != [a] or slice_sizes[a] != 1:
        return None
    if any(s != n for i, (s, n) in enumerate(zip(slice_sizes, operand_shape)) if i != a):
        return None
    nb = idx_rank - (1 if d.index_vector_dim < idx_rank else 0)
    rank = len(operand_shape)
    expected = list(range(a)) + list(range(a + nb, nb + rank - 1))
    return a if list(d.offset_dims) == expected else None


@ge_converter("stablehlo.gather")
def _gather(ctx, op):
    b = ctx.b
    x, idx = ctx.inputs(op)
    d = parse.gather_dims(op)
    slice_sizes = parse.ints(op, "slice_sizes")
    out_shape, _ = parse.value_type(op.results[0])
    ivd = d.index_vector_dim
    axis = _gather_v2_axis(d, x.shape, slice_sizes, idx.rank)
    if axis is not None:
        i = _index_component(b, idx, ivd, 0)
        i = b.clip(i, np.asarray(0, I64), np.asarray(x.shape[axis] - 1, I64))
        return [b.add1("GatherV2", [x, i, b.axis_const(axis)], x.dtype, out_shape)]
    strides = _strides(x.shape)
    offset_dims = list(d.offset_dims)
    batch_pos = [p for p in range(len(out_shape)) if p not in offset_dims]
    lin = None
    for k, dim in enumerate(d.start_index_map):
        c = _index_component(b, idx, ivd, k)
        c = b.clip(c, np.asarray(0, I64), np.asarray(x.shape[dim] - slice_sizes[dim], I64))
        c = b.binary("Mul", c, b.const(np.asarray(strides[dim], I64)))
        lin = c if lin is None else b.binary("Add", lin, c)
    idx_batch = [i for i in range(idx.rank) if i != ivd]
    terms = []
    for obd, ibd in zip(d.operand_batching_dims, d.start_indices_batching_dims):
        pos = batch_pos[idx_batch.index(ibd)]
        terms.append((pos, out_shape[pos], strides[obd]))
    window = [i for i in range(x.rank)
              if i not in d.collapsed_slice_dims and i not in d.operand_batching_dims]
    for dim, pos in zip(window, offset_dims):
        terms.append((pos, slice_sizes[dim], strides[dim]))
    const = b.const(_iota_const(len(out_shape), terms))
    lin = const if lin is None else b.binary("Add", _place(b, lin, out_shape, batch_pos), const)
    lin = b.broadcast_to(lin, out_shape)
    flat = b.reshape(x, [x.size])
    return [b.add1("GatherV2", [flat, lin, b.axis_const(0)], x.dtype, out_shape)]


# ----------------------------------------------------------------- scatter
def _combiner(ctx, op):
    region = op.regions[0]
    ops = parse.body_ops(region)
    args = list(region.blocks[0].arguments)
    if len(ops) == 1 and list(ops[0].operands) == [args[1]]:
        return "TensorScatterUpdate"
    kind = parse.single_body_op(region)
    table = {"stablehlo.add": "TensorScatterAdd", "stablehlo.maximum": "TensorScatterMax",
             "stablehlo.minimum": "TensorScatterMin", "stablehlo.or": "TensorScatterMax",
             "stablehlo.and": "TensorScatterMin", "stablehlo.multiply": "ScatterMul"}
    if kind not in table:
        raise ctx.unsupported(op, f"with a '{kind or 'multi-op'}' update body")
    return table[kind]


def scatter_linear(ctx, kind, x, lin, valid, updates):
    """Write ``updates`` at flat offsets ``lin`` of ``x`` (invalid ones dropped)."""
    b = ctx.b
    size = x.size
    if valid is not None:
        lin = b.select(valid, lin, b.const(np.asarray(size, I64)))
    n = updates.size
    ext = b.concat([b.reshape(x, [size]), b.const(np.zeros((1,), x.dtype))], 0)
    out = b.add1(kind, [ext, b.reshape(lin, [n, 1]), b.reshape(updates, [n])], x.dtype,
                 (size + 1,))
    return b.reshape(b.slice(out, [0], [size]), x.shape)


@ge_converter("stablehlo.scatter")
def _scatter(ctx, op):
    b = ctx.b
    ins = ctx.inputs(op)
    if len(ins) != 3:
        raise ctx.unsupported(op, "with several operands")
    x, idx, upd = ins
    kind = _combiner(ctx, op)
    d = parse.scatter_dims(op)
    ivd = d.index_vector_dim
    strides = _strides(x.shape)
    window_pos = list(d.update_window_dims)
    scatter_pos = [p for p in range(upd.rank) if p not in window_pos]
    window = [i for i in range(x.rank)
              if i not in d.inserted_window_dims and i not in d.input_batching_dims]
    wsize = {dim: upd.shape[pos] for dim, pos in zip(window, window_pos)}
    lin = valid = None
    for k, dim in enumerate(d.scattered_dims_to_operand_dims):
        c = _index_component(b, idx, ivd, k)
        ok = b.binary("LogicalAnd", b.compare("GreaterEqual", c, b.const(np.asarray(0, I64))),
                      b.compare("LessEqual", c, b.const(np.asarray(
                          x.shape[dim] - wsize.get(dim, 1), I64))), np.bool_)
        valid = ok if valid is None else b.binary("LogicalAnd", valid, ok, np.bool_)
        c = b.binary("Mul", c, b.const(np.asarray(strides[dim], I64)))
        lin = c if lin is None else b.binary("Add", lin, c)
    idx_batch = [i for i in range(idx.rank) if i != ivd]
    terms = [(scatter_pos[idx_batch.index(ibd)], upd.shape[scatter_pos[idx_batch.index(ibd)]],
              strides[ibd_op]) for ibd_op, ibd in zip(d.input_batching_dims,
                                                      d.scatter_indices_batching_dims)]
    terms += [(pos, wsize[dim], strides[dim]) for dim, pos in zip(window, window_pos)]
    const = b.const(_iota_const(upd.rank, terms))
    if lin is None:
        lin = const
    else:
        lin = b.binary("Add", _place(b, lin, upd.shape, scatter_pos), const)
        valid = b.broadcast_to(_place(b, valid, upd.shape, scatter_pos), upd.shape)
    lin = b.broadcast_to(lin, upd.shape)
    return [scatter_linear(ctx, kind, x, lin, valid, upd)]


@ge_converter("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(ctx, op):
    b = ctx.b
    x, upd, *starts = ctx.inputs(op)
    if upd.size == 0:
        return [x]
    strides = _strides(x.shape)
    starts = clamped_starts(b, starts, x.shape, upd.shape)
    lin = None
    for dim, s in enumerate(starts):
        c = b.binary("Mul", s, b.const(np.asarray(strides[dim], I64)))
        lin = c if lin is None else b.binary("Add", lin, c)
    const = b.const(_iota_const(upd.rank, [(i, n, strides[i]) for i, n in enumerate(upd.shape)]))
    lin = const if lin is None else b.binary("Add", lin, const)
    lin = b.broadcast_to(lin, upd.shape)
    return [scatter_linear(ctx, "TensorScatterUpdate", x, lin, None, upd)]
