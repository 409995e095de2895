"""A function with graph breaks: compiled graphs and Python steps, and its cache.

``Program.run`` executes one call: starting from the bound arguments it
looks up the piece of the function that starts at the current instruction
with the current live state (``state.flatten``: its spec and the avals of
its Tensors are the key), checks the piece's guards, runs its compiled graph,
rebuilds the live state from the outputs (``recipe.rebuild``), runs the
breaking instruction in Python (``Interpreter.step``) and goes on with the
next piece, until the function returns. A piece not in the cache (or whose
guards fail) is captured (``segment.capture_segment``), lowered and compiled
first. On later calls nothing is interpreted except the breaking
instructions themselves.

Pieces are:

- ``graph``: a compiled ``CapturedGraph`` ending at a break or the return;
- ``empty``: the first instruction breaks (a loop's condition, two breaks
  in a row): nothing to compile;
- ``python``: the live state at the break cannot come back from a graph (a
  generator is alive): from here the frame runs in Python (``python-tail``).

``ProgramEntry`` plugs a program into ``JitFunction``'s cache and hot path.
"""
from __future__ import annotations

import threading

from msxla.capture import signature as S
from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode import record
from msxla.capture.bytecode.frame import Frame, FrameState, bind
from msxla.capture.bytecode.interpreter import FoundBreak, Interpreter
from msxla.capture.bytecode.recipe import rebuild
from msxla.capture.bytecode.segment import capture_segment
from msxla.capture.bytecode.state import Unrepresentable, flatten
from msxla.capture.guards import GuardSet
from msxla.jit import explain
from msxla.jit.entry import MISS, Entry
from msxla.lower.lowering import lower

MAX_PIECES = 256


class Piece:
    __slots__ = ("entry", "guards", "index", "kind", "recipe", "record", "returns")

    def __init__(self, kind, index, entry=None, recipe=None, returns=False, record_=None):
        self.kind, self.index, self.entry = kind, index, entry
        self.guards = entry.guards if entry is not None else None
        self.recipe, self.returns, self.record = recipe, returns, record_


class Program:
    def __init__(self, func, owner, options, name, candidates, stats=None):
        self.func, self.owner = func, owner
        self.options, self.name = options, name
        self.candidates, self.stats = candidates, stats
        self.pieces: dict = {}
        self.stop_at: set = set()
        self.breaks: dict = {}   # offset -> BreakRecord
        self.lock = threading.RLock()

    # ---------------------------------------------------------------- run
    def run(self, args, kwargs, traced=False):
        args = (self.owner,) + tuple(args) if self.owner is not None else tuple(args)
        state = FrameState(bind(self.func, args, kwargs), {}, [], 0)
        for _ in range(1_000_000):
            try:
                spec, leaves, owners, objs = flatten(state)
            except Unrepresentable:
                return self._python_tail(state)
            piece = self._piece(spec, leaves, owners, objs, state.index)
            if piece.kind == "python":
                return self._python_tail(state)
            if piece.kind == "graph" or piece.kind == "moves":
                if piece.kind == "graph":
                    state = self._run_graph(piece, leaves, owners, objs, traced)
                else:
                    state = rebuild(piece.recipe, piece.entry(leaves), objs)
                if piece.returns:
                    return state.stack[0]
            record.step(piece.record)
            out = self._step(state)
            if isinstance(out, _Returned):
                return out.value
            state = out
        raise RuntimeError(f"jit '{self.name}': too many graph breaks in one call")

    def _run_graph(self, piece, leaves, owners, objs, traced):
        entry = piece.entry
        owners_fn = lambda: owners
        if traced:
            outs = entry.run_traced(leaves, owners_fn)
        else:
            outs = entry.run(leaves, owners_fn)
            if outs is MISS:
                raise RuntimeError(f"jit '{self.name}': a compiled graph rejected its inputs")
        record.ran(piece)
        return rebuild(piece.recipe, outs, objs)

    def _step(self, state):
        frame = Frame.from_state(self.func, state)
        result = Interpreter(None, self.options).step(frame)
        if result is not None:
            return _Returned(result.value)
        return frame.state()

    def _python_tail(self, state):
        frame = Frame.from_state(self.func, state)
        record.python_tail(self.name)
        return Interpreter(None, self.options).run_frame(frame)

    # -------------------------------------------------------------- cache
    def _piece(self, spec, leaves, owners, objs, index):
        key = (spec, S.aval_key(leaves))
        with self.lock:
            piece = self.pieces.get(key)
            if piece is not None and piece.guards and not piece.guards.check():
                explain.guard_failed(self.name, piece.guards)
                piece = None
            if piece is None:
                piece = self._capture(spec, leaves, owners, objs, index)
                if len(self.pieces) >= MAX_PIECES:
                    self.pieces.pop(next(iter(self.pieces)))
                self.pieces[key] = piece
            return piece

    def _capture(self, spec, leaves, owners, objs, index):
        for _ in range(64):
            try:
                cap = capture_segment(self.func, spec, leaves, owners, objs, self.candidates,
                                      self.options, self.name, frozenset(self.stop_at))
            except FoundBreak as found:
                self.breaks.setdefault(found.offset, found.record)
                record.found(found.record)
                if self.options.fullgraph:
                    raise B.fullgraph_error(self.name, found.record) from None
                if found.offset == _offset(self.func, index):
                    return Piece("empty", index, record_=found.record)
                self.stop_at.add(found.offset)
                continue
            except Unrepresentable as why:
                rec = B.BreakRecord(B.PYTHON_TAIL, None, "", str(why), None,
                                    self.func.__code__.co_name)
                record.found(rec)
                return Piece("python", index, record_=rec)
            self.stats.captures += 1
            graph = cap.graph
            rec = None if cap.returns else self.breaks.get(_offset(self.func, cap.end_index))
            moves = _passthrough(graph)
            if moves is not None:  # no computation: hand the values on without a graph
                piece = Piece("moves", index, None, cap.recipe, cap.returns, rec)
                piece.entry, piece.guards = moves, graph.guards
                return piece
            lowered = lower(graph, self.options.jit_level, _donated(graph))
            self.stats.lowerings += 1
            entry = Entry(graph, lowered, lowered.compile(), None)
            entry.build = _identity
            self.stats.compiles += 1
            piece = Piece("graph", index, entry, cap.recipe, cap.returns, rec)
            record.captured(self.name, graph, piece)
            return piece
        raise RuntimeError(f"jit '{self.name}': the capture keeps finding new graph breaks")


class _Returned:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _identity(outs):
    return outs


def _passthrough(graph):
    """For a graph without equations or state writes: ``outs(leaves)`` that picks its
    outputs from its inputs and constants (no compile needed); else None."""
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


def _offset(func, index):
    from msxla.capture.bytecode.compat import decode
    return decode(func.__code__).instrs[index].offset


def _donated(graph):
    written = set(map(id, graph.state_out))
    return [graph.n_args + i for i, p in enumerate(graph.state_in) if id(p) in written]


class ProgramEntry:
    """A ``JitFunction`` cache entry that runs a ``Program`` (graph breaks)."""

    def __init__(self, program, spec):
        self.program = program
        self.match = S.make_matcher(spec)
        self.guards = GuardSet()
        self.graph = None
        self.fast = self._make_fast()

    def _make_fast(self):
        match, run = self.match, self.program.run

        def fast(args, kwargs):
            if match(args, kwargs) is None:
                return MISS
            return run(args, kwargs)
        return fast

    def run_call(self, args, kwargs, traced):
        return self.program.run(args, kwargs, traced)

    @property
    def lowered(self):
        for piece in self.program.pieces.values():
            if piece.kind == "graph":
                return piece.entry.lowered
        raise RuntimeError(f"jit '{self.program.name}' has graph breaks and no graph yet")
