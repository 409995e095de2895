"""The pieces a function with graph breaks is cut into, and how each one runs.

- ``graph``: a captured graph ending at a break or the return. Its first run
  evaluates the graph's equations one by one (as PyNative would run them);
  from its second run on it is an XLA executable (``Entry``). Pieces that run
  once (a loop iteration keyed by its counter, a branch taken once) are never
  compiled; hot pieces are. Under ``grad`` (traced inputs) the equations are
  always evaluated on the tracers, so jax differentiates them.
- ``moves``: a graph without equations: its outputs are picked from its
  inputs (and constants) directly.
- ``empty``: nothing to run: the piece starts at a breaking instruction.
- ``python``: the frame's live state at the break cannot come back from a
  graph: from here the frame runs in Python.
"""
from __future__ import annotations

from msxla.jit.entry import MISS, Entry
from msxla.lower.lowering import graph_callable, lower


class Piece:
    __slots__ = (
        "_eager",
        "entry",
        "graph",
        "guards",
        "index",
        "kind",
        "moves",
        "recipe",
        "record",
        "returns",
        "uses",
    )

    def __init__(self, kind, index, graph=None, recipe=None, returns=False, record=None):
        self.kind, self.index, self.graph = kind, index, graph
        self.guards = graph.guards if graph is not None else None
        self.recipe, self.returns, self.record = recipe, returns, record
        self.entry = self.moves = self._eager = None
        self.uses = 0
        if kind == "graph":
            self.moves = passthrough(graph)
            if self.moves is not None:
                self.kind = "moves"

    def outputs(self, leaves, owners, traced, options, stats):
        """The graph's output arrays for the inputs ``leaves`` (writes its state)."""
        if self.kind == "moves":
            return self.moves(leaves)
        self.uses += 1
        if traced or (self.entry is None and self.uses == 1):
            return self._run_eagerly(leaves, owners)
        if self.entry is None:
            self.entry = _compile(self.graph, options, stats)
        outs = self.entry.run(leaves, lambda: owners)
        if outs is MISS:
            raise RuntimeError(f"jit '{self.graph.name}': a compiled graph rejected its inputs")
        return outs

    def _run_eagerly(self, leaves, owners):
        graph = self.graph
        if self._eager is None:
            self._eager = graph_callable(graph)
        outs = self._eager(*leaves, *[p._data for p in graph.state_in])
        n = graph.n_outs
        for i, p in enumerate(graph.state_out):
            p._data = outs[n + i]
        base = n + len(graph.state_out)
        for j, leaf_index in enumerate(graph.mutated):
            owner = owners[leaf_index]
            if owner is not None:
                owner._data = outs[base + j]
        return outs[:n]


def _compile(graph, options, stats):
    written = set(map(id, graph.state_out))
    donate = [graph.n_args + i for i, p in enumerate(graph.state_in) if id(p) in written]
    lowered = lower(graph, options.jit_level, donate)
    stats.lowerings += 1
    entry = Entry(graph, lowered, lowered.compile(), None)
    entry.build = _identity
    stats.compiles += 1
    return entry


def _identity(outs):
    return outs


def passthrough(graph):
    """For a graph without equations or state writes: ``outs(leaves)`` that picks its
    outputs from its inputs and constants (nothing to run); else None."""
    jaxpr = graph.jaxpr
    if jaxpr.eqns or graph.state_out or graph.mutated:
        return None
    where = {v: ("leaf", i) for i, v in enumerate(jaxpr.invars[:graph.n_args])}
    where.update({v: ("state", p) for v, p in zip(jaxpr.invars[graph.n_args:], graph.state_in)})
    where.update({v: ("const", c) for v, c in zip(jaxpr.constvars, graph.closed_jaxpr.consts)})
    picks = []
    for v in jaxpr.outvars:
        if type(v).__name__ == "Literal":
            picks.append(("const", v.val))
        elif v in where:
            picks.append(where[v])
        else:
            return None

    def outs(leaves):
        return [leaves[x] if k == "leaf" else (x._data if k == "state" else x)
                for k, x in picks]
    return outs
