"""Sorting: stablehlo.sort -> GE Sort (+ GatherElements), chlo.top_k -> TopKV2.

jax sorts with a comparator region. When the comparator orders by the first
operand only (``compare LT`` / ``GT`` of values derived from that operand's
two arguments, after jax's -0.0 / NaN canonicalisation), the sort is GE's
``Sort`` (NaN last ascending, ``stable`` from ``is_stable``) and every other
operand follows the same permutation::

    sort(x, iota) LT  ->  y1, y2 = Sort(x); indices = Cast(y2)
    sort(x, v)    LT  ->  y1, y2 = Sort(x); GatherElements(v, y2, dim)

Multi-key comparators have no GE equivalent.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.ge.registry import ge_converter


def _depends_on(value, args):
    """The block arguments ``value`` is computed from (inside a comparator)."""
    found, stack, seen = set(), [value], set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if v in args:
            found.add(args.index(v))
            continue
        owner = v.owner
        op = getattr(owner, "operation", None)
        if op is None or not hasattr(op, "operands"):
            continue
        stack.extend(op.operands)
    return found


def _direction(region):
    """'ascending' / 'descending' for a first-key comparator, else None."""
    block = region.blocks[0]
    args = list(block.arguments)
    ops = parse.body_ops(region)
    ret = ops[-1]
    if len(ret.operands) != 1:
        return None
    cmp = getattr(ret.operands[0].owner, "operation", None)
    if cmp is None or cmp.name != "stablehlo.compare":
        return None
    direction, _ = parse.comparison(cmp)
    lhs, rhs = (_depends_on(v, args) for v in cmp.operands)
    if direction not in ("LT", "GT"):
        return None
    if lhs == {0} and rhs == {1}:
        return "ascending" if direction == "LT" else "descending"
    if lhs == {1} and rhs == {0}:
        return "descending" if direction == "LT" else "ascending"
    return None


def _is_iota(value, dim):
    op = getattr(value.owner, "operation", None)
    return op is not None and op.name == "stablehlo.iota" and \
        parse.int_attr(op, "iota_dimension") == dim


@ge_converter("stablehlo.sort")
def _sort(ctx, op):
    b = ctx.b
    xs = ctx.inputs(op)
    dim = parse.int_attr(op, "dimension", -1)
    dim = dim if dim >= 0 else xs[0].rank + dim
    order = _direction(op.regions[0])
    if order is None:
        raise ctx.unsupported(op, "with a comparator other than one key's order")
    x = xs[0]
    values, idx = b.add("Sort", [x], [(x.dtype, x.shape), (np.int32, x.shape)], dict(
        axis=dim, descending=order == "descending",
        stable=parse.bool_attr(op, "is_stable", False)))
    outs = [values]
    for v, t in zip(list(op.operands)[1:], xs[1:]):
        if _is_iota(v, dim):
            outs.append(b.cast(idx, t.dtype))
        else:
            outs.append(b.add1("GatherElements", [t, idx], t.dtype, t.shape, dim=dim))
    return outs


@ge_converter("chlo.top_k")
def _top_k(ctx, op):
    b = ctx.b
    (x,) = ctx.inputs(op)
    (vshape, vdtype), (ishape, idtype) = parse.result_types(op)
    k = vshape[-1]
    values, idx = b.add("TopKV2", [x, b.const(np.asarray(k, np.int32))],
                        [(vdtype, vshape), (np.int32, ishape)],
                        dict(sorted=True, dim=-1, largest=True))
    return [values, b.cast(idx, idtype)]
