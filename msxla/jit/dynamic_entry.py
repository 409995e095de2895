"""Generalised (shape-polymorphic) entries of a jitted function.

``find_or_make(jf, spec, key, leaves, args, kwargs)`` is called by
``JitFunction`` on a cache miss when the function compiles dynamically. It
returns an entry whose graph has symbolic dimensions, or None when the call
should get a static graph (one of the first two shapes, a rank change, ...).
"""
from __future__ import annotations

import jax
from jax.extend.core import InconclusiveDimensionOperation

from msxla.capture import signature as S
from msxla.capture.program import CapturedProgram
from msxla.capture.values import LEAVES, Dict, Seq
from msxla.jit import dynamic as D
from msxla._log import note_once
from msxla.jit.entry import Entry
from msxla.jit.fastpath import make_fast_call
from msxla.jit.compile import generalises
from msxla.lower.lowering import donated_inputs, graph_callable, lower
from msxla.lower.options import compiler_options


class DynamicEntry(Entry):
    """An entry whose executable is chosen per concrete shape (``ShapeCache``)."""

    __slots__ = ()

    def __init__(self, graph, lowered, shape_cache, match):
        super().__init__(graph, lowered, lowered, match)
        self.call = shape_cache


def find_or_make(jf, spec, key, leaves, args, kwargs):
    if not generalises(jf.options, jf.name):  # backend="GE": one GE graph per shape
        return None
    dyn = jf.cache.dynamic.get(spec)
    if dyn is not None and _fits(dyn, leaves):
        return dyn
    declared = jf.declared_inputs
    if declared is not None:
        avals = D.declared_avals(_declared_per_leaf(declared, spec), key[1])
    else:
        seen = jf._seen_shapes.setdefault(spec, [])
        if key[1] not in seen:
            seen.append(key[1])
        if len(seen) < 3:
            return None
        avals = D.generalise(seen)
    if avals is None or spec in jf._static_only:
        return None
    try:
        entry = _build(jf, spec, avals, args, kwargs)
    except InconclusiveDimensionOperation as err:
        note_once(f"{jf.name}:dynamic-control-flow",
                  f"jit '{jf.name}': Python code depends on the value of a dynamic dimension "
                  f"({str(err).splitlines()[0]}); this call signature is compiled per shape.")
        jf._static_only.add(spec)
        return None
    jf.cache.dynamic[spec] = entry
    return entry


def _fits(entry, leaves):
    try:
        entry.call.executable(list(leaves) + [p._value for p in entry.state_in])
    except TypeError:
        return False
    return True


def _build(jf, spec, avals, args, kwargs):
    graph = jf.capture_graph(spec, avals, args, kwargs)
    if isinstance(graph, CapturedProgram):  # graphs and Python steps: per shape
        raise InconclusiveDimensionOperation("the function has graph breaks")
    lowered = lower(graph, jf.options.jit_level)
    jf.stats.lowerings += 1
    in_avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in graph.in_avals]
    exported = D.export_graph(graph_callable(graph), in_avals)
    cache = D.ShapeCache(exported, jf.stats, compiler_options(jf.options.jit_level),
                         donated_inputs(graph))
    guard_src = "_guards.check()" if graph.guards else ""
    match = S.make_matcher(spec, guard_src, {"_guards": graph.guards})
    entry = DynamicEntry(graph, lowered, cache, match)
    entry.fast = make_fast_call(entry, spec)
    return entry


def _declared_per_leaf(declared, spec):
    """Per leaf of ``spec``: the declared shape (None dims dynamic) or None."""
    out = []
    for i, node in enumerate(spec.args):
        decl = declared[i] if i < len(declared) else None
        _collect(node, decl, out)
    return out


def _collect(node, decl, out):
    if isinstance(node, LEAVES):
        if getattr(decl, "_spec", None) is not None and decl._spec[0] is None:
            out.append(D.ANY_RANK)
        else:
            out.append(tuple(decl.shape) if decl is not None and hasattr(decl, "shape") else None)
    elif isinstance(node, Seq):
        for j, child in enumerate(node.children):
            sub = decl[j] if isinstance(decl, (tuple, list)) and j < len(decl) else None
            _collect(child, sub, out)
    elif isinstance(node, Dict):
        for k, child in zip(node.keys, node.children):
            sub = decl.get(k) if isinstance(decl, dict) else None
            _collect(child, sub, out)
