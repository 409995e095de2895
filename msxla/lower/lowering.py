"""Captured graph -> StableHLO module -> XLA executable.

Lowering goes through jax (``jax.jit(...).lower``): the jaxpr's equations
keep the user's tracebacks, so the StableHLO carries the user's source lines
as ``loc(...)`` attributes (``as_text(debug_info=True)``).

A graph here is anything with the fields of ``msxla.capture.graph.
CapturedGraph`` that lowering reads (``closed_jaxpr``, ``name``,
``in_avals``; ``state_in``/``state_out``/``n_args`` for donation): this layer
does not import the capture layer, and nothing of jit or nn.
"""
from __future__ import annotations

import re

import jax

from msxla._jax_compat import jaxpr_as_fun
from msxla.communication._spmd import SpmdExecutable, graph_group, spmd_function
from msxla.lower.options import compiler_options
from msxla.parallel._sharding import SemiAutoExecutable, graph_plan


def graph_callable(graph):
    """A Python function evaluating the graph on flat inputs, returning flat outputs."""
    fun = jaxpr_as_fun(graph.closed_jaxpr)

    def run(*args):
        return tuple(fun(*args))

    run.__name__ = re.sub(r"\W", "_", graph.name) or "graph"
    return run


class Lowered:
    """A graph lowered to StableHLO (``jit(f).lower(*args)``)."""

    def __init__(self, graph, jax_lowered, jit_level: str, spmd=None, plan=None):
        self.graph = graph
        self._lowered = jax_lowered
        self.jit_level = jit_level
        self._spmd = spmd  # (sharding, size) of a graph with collectives
        self._plan = plan  # the device plan of a graph compiled under a semi-auto mode

    def as_text(self, debug_info: bool = False) -> str:
        """The StableHLO module; with ``debug_info`` the user's source locations."""
        return self._lowered.as_text(debug_info=debug_info)

    def stablehlo(self):
        """The StableHLO module as an MLIR object (jaxlib's bindings)."""
        return self._lowered.compiler_ir(dialect="stablehlo")

    def compile(self):
        """The XLA executable for this module at the graph's jit level."""
        compiled = self._lowered.compile(compiler_options=compiler_options(self.jit_level) or None)
        if self._spmd is not None:
            return SpmdExecutable(compiled, *self._spmd)
        if self._plan is not None and self._plan.multi:
            return SemiAutoExecutable(compiled, self._plan)
        return compiled

    def __repr__(self):
        return f"<Lowered '{self.graph.name}' at {self.jit_level}>"


def donated_state(graph) -> tuple:
    """Positions in ``graph.state_in`` of the Parameters the graph also writes: their
    old buffers can be donated to the executable (the new value replaces them).

    Empty for a graph with effects (runtime checks, prints): such a graph can fail
    while it runs, and a donated buffer would then be gone, and with it the
    Parameter's old value."""
    if graph.closed_jaxpr.effects:
        return ()
    written = set(map(id, graph.state_out))
    return tuple(i for i, p in enumerate(graph.state_in) if id(p) in written)


def donated_inputs(graph) -> tuple:
    """``donate_argnums`` of the graph's flat inputs (see ``donated_state``)."""
    return tuple(graph.n_args + i for i in donated_state(graph))


def lower(graph, jit_level: str = "O0", donate=()) -> Lowered:
    group = graph_group(graph.closed_jaxpr)
    if group is not None:  # collectives: one SPMD program over the group's devices
        program, sharding, size = spmd_function(graph_callable(graph), group)
        avals = [jax.ShapeDtypeStruct((size, *a.shape), a.dtype, sharding=sharding)
                 for a in graph.in_avals]
        lowered = jax.jit(program, keep_unused=True).lower(*avals)
        return Lowered(graph, lowered, jit_level, (sharding, size))
    plan = graph_plan(graph)
    if plan is not None:  # semi-auto parallel: XLA partitions over the global devices
        jitted = jax.jit(graph_callable(graph), in_shardings=plan.in_shardings,
                         out_shardings=plan.out_shardings, keep_unused=True,
                         donate_argnums=() if plan.multi else tuple(donate))
        return Lowered(graph, jitted.lower(*plan.global_avals), jit_level, plan=plan)
    jitted = jax.jit(graph_callable(graph), donate_argnums=tuple(donate), keep_unused=True)
    avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in graph.in_avals]
    return Lowered(graph, jitted.lower(*avals), jit_level)
