"""Running a captured program (graphs and Python steps), and its cache entry.

A front end returns a ``CapturedProgram`` (``msxla/capture/program.py``) for
a function with graph breaks. ``ProgramRunner.run`` executes one call: it
locates the piece that starts at the current instruction with the current
live state, looks it up (or captures it) in its cache, checks its guards,
runs it, lets the program rebuild the live state and run the breaking
instruction in Python, and goes on until the function returns.

A piece (``PieceRun``) runs as:

- ``graph``: its first run evaluates the graph's equations one by one (as
  PyNative would run them); from its second run on it is an executable made
  by ``compile.compile_graph`` under the function's options (jit level,
  donation, backend). Pieces that run once (a loop iteration keyed by its
  counter, a branch taken once) are never compiled, except under
  ``backend="GE"``: there every piece is a GE graph from its first run, as
  the option asks (evaluating it on XLA would change the backend silently).
  Under ``grad`` (traced inputs) the equations are always evaluated on the
  tracers, so jax differentiates them.
- a graph without equations or state writes: its outputs are picked from its
  inputs (and constants) directly (``passthrough``).
- ``empty``: nothing to run: the piece starts at a breaking instruction.
- ``python``: the live state cannot go through a graph: from here the frame
  runs in Python.

``ProgramEntry`` is the ``JitFunction`` cache entry of a program.
"""
from __future__ import annotations

import threading

from msxla._jax_compat import is_literal
from msxla.capture import signature as S
from msxla.jit import explain
from msxla.jit.compile import backend_name, compile_graph
from msxla.jit.entry import MISS, Entry
from msxla.lower.lowering import graph_callable, lower

MAX_PIECES = 256
MAX_STEPS = 1_000_000


class PieceRun:
    """A captured piece and what running it has made (see the module doc)."""

    __slots__ = ("piece", "entry", "moves", "eager", "uses")

    def __init__(self, piece):
        self.piece = piece
        self.entry = self.eager = None
        self.moves = passthrough(piece.graph) if piece.kind == "graph" else None
        self.uses = 0

    def outputs(self, leaves, owners, traced, options, stats):
        """The graph's output arrays for the inputs ``leaves`` (writes its state)."""
        if self.moves is not None:
            return self.moves(leaves)
        self.uses += 1
        graph = self.piece.graph
        if traced or (self.entry is None and self.uses == 1 and backend_name(options) != "GE"):
            return self._run_eagerly(graph, leaves, owners)
        if self.entry is None:
            lowered, compiled = compile_graph(graph, options, stats)
            self.entry = Entry(graph, lowered, compiled, None)
            self.entry.build = _identity
        outs = self.entry.run(leaves, lambda: owners)
        if outs is MISS:
            raise RuntimeError(f"jit '{graph.name}': a compiled graph rejected its inputs "
                               "(a Parameter it reads changed its shape or dtype after the "
                               "first call; wrap the function with jit again after the change)")
        return outs

    def _run_eagerly(self, graph, leaves, owners):
        if self.eager is None:
            self.eager = graph_callable(graph)
        outs = self.eager(*leaves, *[p._data for p in graph.state_in])
        return Entry.write_back(graph, outs, lambda: owners)


class ProgramRunner:
    """Runs a ``CapturedProgram``: its pieces, cached by (instruction, live state)."""

    def __init__(self, program, stats, jit_callee):
        self.program = program
        self.name, self.options = program.name, program.options
        self.stats, self.jit_callee = stats, jit_callee
        self.pieces: dict = {}
        self.lock = threading.RLock()

    def run(self, args, kwargs, traced=False):
        program, jit_callee = self.program, self.jit_callee
        state = program.start(args, kwargs)
        for _ in range(MAX_STEPS):
            here = program.locate(state)
            if here is None:
                return program.python_tail(state, jit_callee)
            run = self._piece(here)
            piece = run.piece
            if piece.kind == "python":
                return program.python_tail(state, jit_callee)
            if piece.kind == "graph":
                outs = run.outputs(here.leaves, here.owners, traced, self.options, self.stats)
                step = program.resume(piece, outs, here)
                if step.done:
                    return step.value
                state = step.value
            step = program.step(state, piece, jit_callee)
            if step.done:
                return step.value
            state = step.value
        raise RuntimeError(f"jit '{self.name}': too many graph breaks in one call")

    def _piece(self, here):
        with self.lock:
            run = self.pieces.get(here.key)
            if run is not None and run.piece.guards and not run.piece.guards.check():
                explain.guard_failed(self.name, run.piece.guards)
                run = None
            if run is None:
                piece = self.program.capture_piece(here)
                if piece.kind == "graph":
                    self.stats.captures += 1
                run = PieceRun(piece)
                if len(self.pieces) >= MAX_PIECES:
                    self.pieces.pop(next(iter(self.pieces)))
                self.pieces[here.key] = run
            return run

    def first_graph(self):
        """The first piece with a graph captured so far (for ``jit(f).lower``), or None."""
        for run in self.pieces.values():
            if run.piece.kind == "graph":
                return run.piece.graph
        return None


class ProgramEntry:
    """A ``JitFunction`` cache entry that runs a captured program (graph breaks)."""

    graph = None

    def __init__(self, runner, spec, guards=None):
        self.runner = runner
        self.guards = guards
        self.match = S.make_matcher(spec, "_guards.check()" if guards else "",
                                    {"_guards": guards})
        self.counter = None  # its calls (jit/counters.py CallCounter), set by JitFunction
        self.fast = self._make_fast()

    def _make_fast(self):
        match, run = self.match, self.runner.run

        def fast(args, kwargs):
            if match(args, kwargs) is None:
                return MISS
            return run(args, kwargs)
        return fast

    def run_call(self, args, kwargs, traced):
        return self.runner.run(args, kwargs, traced)

    @property
    def lowered(self):
        """The first graph of the program, lowered (``jit(f).lower(...)``)."""
        graph = self.runner.first_graph()
        if graph is None:
            raise RuntimeError(f"jit '{self.runner.name}' has graph breaks and no graph yet")
        return lower(graph, self.runner.options.jit_level)


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
        if is_literal(v):
            picks.append(("const", v.val))
        elif v in where:
            picks.append(where[v])
        else:
            return None

    def outs(leaves):
        return [leaves[x] if k == "leaf" else (x._data if k == "state" else x)
                for k, x in picks]
    return outs
