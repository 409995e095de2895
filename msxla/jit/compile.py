"""The one way a captured graph becomes an executable under a function's options.

Every compile of a jitted function goes through ``compile_graph``: the graph
of a call signature (``function.py``), each piece of a program with graph
breaks (``program.py``), a call under ``grad`` (``traceable_graph``) and the
staging API (``jit(f).lower``). The options
hold on each: ``jit_level`` picks the XLA passes, Parameters the graph writes
donate their old buffers (unless the graph has effects: ``lower.
donated_inputs``), and ``backend="GE"`` converts the StableHLO into a GE
graph instead of compiling it with XLA. ``dynamic=1`` entries compile one
executable per concrete shape from an exported XLA module
(``dynamic_entry.py``), which GE cannot take: a ``backend="GE"`` function
with dynamic shapes gets one GE graph per shape instead, and says so once
(``generalises``). Each compile is counted in ``stats.compiles_by_backend``.
"""
from __future__ import annotations

import jax

from msxla._jax_compat import staging_into_jaxpr
from msxla._log import note_once
from msxla.lower.lowering import donated_inputs, graph_callable, lower
from msxla.lower.options import compiler_options


def backend_name(options) -> str:
    """The backend that compiles a function's graphs: ``"GE"`` or ``"XLA"``."""
    return "GE" if options.backend == "GE" else "XLA"


def compile_graph(graph, options, stats, donate=True):
    """``(Lowered, executable)`` for ``graph`` under ``options`` (see the module doc)."""
    lowered = lower(graph, options.jit_level, donated_inputs(graph) if donate else ())
    stats.lowerings += 1
    backend = backend_name(options)
    if backend == "GE":
        from msxla.jit.backend_ge import compile_for_jit
        compiled = compile_for_jit(lowered, graph, options)
    else:
        compiled = lowered.compile()
    stats.compiled(backend)
    return lowered, compiled


def traceable_graph(graph, options, stats):
    """``graph`` as a function jax can trace, for a call under ``grad``/``vjp``/``vmap``
    (traced inputs): ``jax.jit`` with the jit level's XLA options, which jax compiles
    with the transformation around it; or, for ``backend="GE"``, GE graphs for the
    forward and its vector-Jacobian product (``backend_ge.ge_traceable``)."""
    if backend_name(options) == "GE":
        from msxla.jit.backend_ge import ge_traceable
        return ge_traceable(graph, options, stats)
    stats.compiled("XLA")
    fun = graph_callable(graph)
    xla_options = compiler_options(options.jit_level)
    nested = jax.jit(fun)
    if not xla_options:
        return nested
    top = jax.jit(fun, compiler_options=xla_options)

    def run(*flat):
        # Staged into another jax computation, the outer compile decides the options:
        # jax refuses options on a nested jit (also when a transformation such as
        # linearize stages the call while it runs), before running anything.
        if staging_into_jaxpr():
            return nested(*flat)
        try:
            return top(*flat)
        except ValueError as err:
            if "compiler_options" not in str(err):
                raise
            return nested(*flat)
    return run


def generalises(options, name) -> bool:
    """Whether a function with dynamic shapes may get a shape-polymorphic entry: not
    with ``backend="GE"`` (its graphs are built for static shapes)."""
    if backend_name(options) != "GE":
        return True
    note_once(f"{name}:dynamic-GE", f"jit '{name}': backend='GE' builds a GE graph for static "
              "shapes, so dynamic=1 (or inputs declared with dynamic shapes) compiles one GE "
              "graph per input shape here.")
    return False
