"""A function with graph breaks, as the bytecode front end captures it.

``BytecodeProgram`` is the ``CapturedProgram`` (``msxla/capture/program.py``)
of a function the interpreter found graph breaks in. A call starts from the
bound arguments; at each point the live frame state (``state.flatten``: its
spec and the avals of its Tensors are the key) selects the piece of the
function that starts there. ``capture_piece`` captures it
(``segment.capture_segment``) up to the next break or the return; the piece's
outputs rebuild the live state (``resume``, ``recipe.rebuild``); the breaking
instruction runs in Python (``step``, ``Interpreter.step``); and so on until
the function returns. A state that cannot go through a graph (a generator, an
object holding Tensors built by the code) makes the rest of the frame run in
Python (``python_tail``).

What the front end learns while capturing (the offsets of the breaks found)
stays in the record, so a piece captured later stops before a known break
instead of finding it again. Caching, compiling and running the pieces is
``msxla/jit/program.py``.
"""
from __future__ import annotations

from msxla._source import SourceLoc
from msxla.capture import signature as S
from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode import record
from msxla.capture.bytecode.compat import decode
from msxla.capture.bytecode.frame import Frame, FrameState, bind
from msxla.capture.bytecode.interpreter import FoundBreak, Interpreter
from msxla.capture.bytecode.recipe import rebuild
from msxla.capture.bytecode.segment import capture_segment
from msxla.capture.bytecode.state import Unrepresentable, flatten
from msxla.capture.program import CapturedPiece, CapturedProgram, Location, Step

MAX_RECAPTURES = 64


class BytecodeProgram(CapturedProgram):
    def __init__(self, func, owner, options, name, candidates, guards=None):
        self.func, self.owner = func, owner
        self.options, self.name = options, name
        self.candidates = candidates
        self.guards = guards
        self.stop_at: set = set()
        self.breaks: dict = {}   # offset -> BreakRecord

    def start(self, args, kwargs):
        args = (self.owner,) + tuple(args) if self.owner is not None else tuple(args)
        return FrameState(bind(self.func, args, kwargs), {}, [], 0)

    def locate(self, state):
        try:
            spec, leaves, owners, objs = flatten(state)
        except Unrepresentable:
            return None
        return Location((spec, S.aval_key(leaves)), leaves, owners, objs, state.index)

    def resume(self, piece, outs, here):
        record.ran(piece)
        state = rebuild(piece.recipe, outs, here.objs)
        if piece.returns:
            return Step(True, state.stack[0])
        return Step(False, state)

    def step(self, state, piece, jit_callee):
        record.step(piece.record)
        frame = Frame.from_state(self.func, state)
        result = Interpreter(None, self.options, jit_callee).step(frame)
        if result is not None:
            return Step(True, result.value)
        return Step(False, frame.state())

    def python_tail(self, state, jit_callee):
        frame = Frame.from_state(self.func, state)
        record.python_tail(self.name)
        return Interpreter(None, self.options, jit_callee).run_frame(frame)

    def capture_piece(self, here):
        spec, _ = here.key
        for _ in range(MAX_RECAPTURES):
            try:
                cap = capture_segment(self.func, spec, here.leaves, here.owners, here.objs,
                                      self.candidates, self.options, self.name,
                                      frozenset(self.stop_at))
            except FoundBreak as found:
                self.breaks.setdefault(found.offset, found.record)
                record.found(found.record)
                if self.options.fullgraph:
                    raise B.fullgraph_error(self.name, found.record) from None
                if found.first:  # nothing before the break: run the instruction in Python
                    return CapturedPiece("empty", here.index, record=found.record)
                self.stop_at.add(found.offset)
                continue
            except Unrepresentable as why:
                code = self.func.__code__
                rec = B.BreakRecord(B.PYTHON_TAIL, SourceLoc.from_code(code, _offset(
                    self.func, here.index)), "", str(why), None, code.co_name)
                record.found(rec)
                return CapturedPiece("python", here.index, record=rec)
            rec = None if cap.returns else self.breaks.get(_offset(self.func, cap.end_index))
            graph = cap.graph
            if graph.jaxpr.eqns or graph.state_out or graph.mutated:
                record.captured(self.name, graph)
            return CapturedPiece("graph", here.index, graph, cap.recipe, cap.returns, rec)
        raise RuntimeError(f"jit '{self.name}': the capture keeps finding new graph breaks")


def _offset(func, index):
    return decode(func.__code__).instrs[index].offset
