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

The pieces (``pieces.py``) are captured graphs (evaluated op by op on their
first run, compiled from their second), pass-through pieces without
computation, empty pieces (the first instruction breaks), and Python tails
(the live state cannot come back from a graph: the frame runs in Python).

``ProgramEntry`` plugs a program into ``JitFunction``'s cache and hot path.
"""
from __future__ import annotations

import threading

from msxla._source import SourceLoc
from msxla.capture import signature as S
from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode import record
from msxla.capture.bytecode.frame import Frame, FrameState, bind
from msxla.capture.bytecode.interpreter import FoundBreak, Interpreter
from msxla.capture.bytecode.pieces import Piece
from msxla.capture.bytecode.recipe import rebuild
from msxla.capture.bytecode.segment import capture_segment
from msxla.capture.bytecode.state import Unrepresentable, flatten
from msxla.capture.guards import GuardSet
from msxla.jit import explain
from msxla.jit.entry import MISS

MAX_PIECES = 256


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
                outs = piece.outputs(leaves, owners, traced, self.options, self.stats)
                record.ran(piece)
                state = rebuild(piece.recipe, outs, objs)
                if piece.returns:
                    return state.stack[0]
            record.step(piece.record)
            out = self._step(state)
            if isinstance(out, _Returned):
                return out.value
            state = out
        raise RuntimeError(f"jit '{self.name}': too many graph breaks in one call")

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
                if found.first:  # nothing before the break: run the instruction in Python
                    return Piece("empty", index, record=found.record)
                self.stop_at.add(found.offset)
                continue
            except Unrepresentable as why:
                code = self.func.__code__
                rec = B.BreakRecord(B.PYTHON_TAIL, SourceLoc.from_code(code, _offset(
                    self.func, index)), "", str(why), None, code.co_name)
                record.found(rec)
                return Piece("python", index, record=rec)
            self.stats.captures += 1
            rec = None if cap.returns else self.breaks.get(_offset(self.func, cap.end_index))
            piece = Piece("graph", index, cap.graph, cap.recipe, cap.returns, rec)
            if piece.kind == "graph":
                record.captured(self.name, cap.graph, piece)
            return piece
        raise RuntimeError(f"jit '{self.name}': the capture keeps finding new graph breaks")


class _Returned:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _offset(func, index):
    from msxla.capture.bytecode.compat import decode
    return decode(func.__code__).instrs[index].offset


class ProgramEntry:
    """A ``JitFunction`` cache entry that runs a ``Program`` (graph breaks)."""

    def __init__(self, program, spec, guards=None):
        self.program = program
        self.guards = guards if guards is not None else GuardSet()
        self.match = S.make_matcher(spec, "_guards.check()" if self.guards else "",
                                    {"_guards": self.guards})
        self.graph = None
        self.counter = None  # its calls (jit/counters.py CallCounter), set by JitFunction
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
                from msxla.lower.lowering import lower
                return lower(piece.graph, self.program.options.jit_level)
        raise RuntimeError(f"jit '{self.program.name}' has graph breaks and no graph yet")
