"""Control flow: stablehlo.while / case / if -> GE While / Case / If with subgraphs.

StableHLO regions read values of the enclosing function; GE subgraphs see
only their own ``Data`` nodes. So the values a region reads from outside
(``parse.free_values``) become extra inputs of the GE op, and::

    while(carried...)      -> While(carried..., captured...)   cond: NetOutput(pred)
                              body: NetOutput(new carried..., captured...)  (passed through)
    case(i, branches...)   -> Case(i', captured...)   i' = i outside [0, n) ? n - 1 : i
    if(pred, then, else)   -> If(pred, captured...)

Inside a subgraph, Data ``i`` carries ``_parent_node_index`` (the parent op's
input port it reads: ``i`` for While, ``i + 1`` for Case / If, whose port 0 is
the selector) and each NetOutput input carries the parent output port it
becomes, as GE's own subgraph passes expect.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.ge.registry import ge_converter


@ge_converter("stablehlo.while")
def _while(ctx, op):
    b = ctx.b
    carried = ctx.inputs(op)
    cond, body = op.regions
    captured = parse.free_values([cond.blocks[0], body.blocks[0]])
    cond_name, cond_outs = ctx.subgraph("while_cond", cond.blocks[0], carried, captured,
                                        lambda i: i, out_parent=False)
    if len(cond_outs) != 1:
        raise ctx.unsupported(op, "whose condition returns several values")
    body_name, _ = ctx.subgraph("while_body", body.blocks[0], carried, captured, lambda i: i,
                                passthrough=True)
    inputs = carried + [ctx.get(v) for v in captured]
    outs = b.add("While", [inputs], [(t.dtype, t.shape) for t in inputs],
                 {"parallel_iterations": 10}, subgraphs=[cond_name, body_name])
    return outs[:len(carried)]


def _branch_index(b, index, n):
    """StableHLO sends an index outside [0, n) to the last branch."""
    i = b.reshape(b.cast(index, np.int32), ())
    low = b.compare("Less", i, b.const(np.asarray(0, np.int32)))
    high = b.compare("GreaterEqual", i, b.const(np.asarray(n, np.int32)))
    bad = b.binary("LogicalOr", low, high, np.bool_)
    return b.select(bad, b.const(np.asarray(n - 1, np.int32)), i)


def _branches(ctx, op, regions, role):
    captured = parse.free_values([r.blocks[0] for r in regions])
    names = []
    for k, region in enumerate(regions):
        name, _ = ctx.subgraph(f"{role}{k}", region.blocks[0], [], captured, lambda i: i + 1)
        names.append(name)
    return names, [ctx.get(v) for v in captured]


@ge_converter("stablehlo.case")
def _case(ctx, op):
    b = ctx.b
    index = ctx.get(op.operands[0])
    regions = list(op.regions)
    names, captured = _branches(ctx, op, regions, "case_branch")
    outputs = parse.result_types(op)
    return b.add("Case", [_branch_index(b, index, len(regions)), captured],
                 [(dtype, shape) for shape, dtype in outputs], subgraphs=names)


@ge_converter("stablehlo.if")
def _if(ctx, op):
    b = ctx.b
    pred = b.reshape(ctx.get(op.operands[0]), ())
    names, captured = _branches(ctx, op, list(op.regions), "if_branch")
    outputs = parse.result_types(op)
    return b.add("If", [pred, captured], [(dtype, shape) for shape, dtype in outputs],
                 subgraphs=names)
