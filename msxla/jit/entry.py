"""One compiled graph of a jitted function and how a call runs it.

``Entry.run`` is the hot path: the signature matcher has already produced the
call's leaves; the entry reads the current values of the Parameters the graph
reads, calls the XLA executable, writes the new values of the Parameters it
wrote (and of argument Tensors modified in place), and rebuilds the Python
return value. If the executable was compiled for other shapes or dtypes it
refuses the call before running (``TypeError``) and ``run`` returns ``MISS``.

``Entry.run_traced`` runs the same graph when the inputs are jax tracers (the
call happens under ``grad`` or inside another transformation): the graph is
evaluated through a traceable form of it (``compile.traceable_graph``: jax.jit
with the jit level's options, or GE graphs) so jax can differentiate it.
"""
from __future__ import annotations

import sys

import jax
import jax.numpy as jnp

from msxla._jax_compat import compiled_callable
from msxla.capture.logs import replay
from msxla.capture.signature import make_output_builder
from msxla.common.tensor import wrap
from msxla.lower.lowering import donated_state

MISS = object()
# sys.getrefcount of a buffer referenced by its Parameter and the values list.
_OWNED_REFS = 3


class Entry:
    __slots__ = ("graph", "lowered", "compiled", "call", "match", "state_in", "state_out",
                 "mutated", "n_outs", "build", "guards", "_traceable", "fast", "donated",
                 "counter", "collectives", "checked", "appends")

    def __init__(self, graph, lowered, compiled, match):
        self.graph = graph
        self.lowered = lowered
        self.compiled = compiled
        self.call = compiled_callable(compiled)
        self.match = match
        self.state_in = graph.state_in
        self.state_out = graph.state_out
        self.mutated = graph.mutated
        self.appends = graph.appends
        self.n_outs = graph.n_outs
        self.build = make_output_builder(graph.out_spec)
        self.guards = graph.guards
        self._traceable = None
        self.collectives = getattr(compiled, "spmd", False)  # an SPMD program over a group
        self.fast = None  # the generated hot-path call (jit/fastpath.py)
        self.counter = None  # its calls (jit/counters.py CallCounter), set by JitFunction
        # positions in state_in of Parameters the graph also writes: their old
        # buffers are donated to the executable (when nothing else holds them)
        self.donated = donated_state(graph)
        # A graph with effects (runtime checks, prints) is waited for before its
        # Parameters are written: on a GPU the executable runs asynchronously, and a
        # failed check would otherwise surface at some later call, after this one
        # had written its Parameters.
        self.checked = bool(graph.closed_jaxpr.effects)

    def run(self, leaves, owners_fn=None, call=None):
        values = [p._data for p in self.state_in]
        for i in self.donated:  # never donate a buffer someone else still holds
            if sys.getrefcount(values[i]) > _OWNED_REFS:
                values[i] = jnp.array(values[i], copy=True)
        try:
            outs = self.call(*leaves, *values)
        except TypeError:
            return MISS
        if self.checked:
            jax.block_until_ready(outs)
        return self._finish(outs, owners_fn, call)

    def run_traced(self, leaves, owners_fn=None, make_traceable=None, call=None):
        """Run on traced inputs through ``make_traceable(graph)`` (made once)."""
        if self._traceable is None:
            self._traceable = make_traceable(self.graph)
        outs = self._traceable(*leaves, *[p._data for p in self.state_in])
        return self._finish(outs, owners_fn, call)

    def _finish(self, outs, owners_fn, call=None):
        if self.state_out or self.mutated or self.appends:
            outs = self.write_back(self, outs, owners_fn, call)
        return self.build(outs)

    @staticmethod
    def write_back(graph, outs, owners_fn, call=None):
        """Write a graph's state outputs (Parameters written, argument Tensors written in
        place) to their owners and append what it appends to logs (``call``: the call's
        ``(args, kwargs)``); the function's outputs."""
        n = graph.n_outs
        for i, p in enumerate(graph.state_out):
            p._data = outs[n + i]
        if graph.mutated:
            owners = owners_fn()
            base = n + len(graph.state_out)
            for j, leaf_index in enumerate(graph.mutated):
                owner = owners[leaf_index]
                if owner is not None:
                    owner._data = outs[base + j]
        if graph.appends:
            replay(graph.appends, outs[n + len(graph.state_out) + len(graph.mutated):], wrap,
                   call)
        return outs[:n]
