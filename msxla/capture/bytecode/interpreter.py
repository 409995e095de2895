"""The bytecode interpreter: a dispatch table of opcode handlers and its loop.

One ``Interpreter`` runs in one of two modes:

- *symbolic* (``tracking`` given): inside a graph capture. Tensors hold jax
  tracers, so Tensor operations add equations to the graph; user calls are
  inlined; what cannot be staged raises ``GraphBreak``. In the captured
  (outermost) frame a break becomes ``FoundBreak``, naming the instruction
  there (for a break inside an inlined call, the call); the capture is then
  redone so that it ends just before that instruction (``StopCapture``).
- *concrete*: after a graph break, the breaking instruction (or the rest of
  the frame, when its live state cannot go back into a graph) runs on real
  values; calls of user functions go to their own bytecode-jitted frames.

Handlers are methods named exactly like the (normalised, see ``compat``)
opnames, grouped by family in the ``ops_*`` mixins; an opcode without a
handler is an ``unsupported-opcode`` break.
"""
from __future__ import annotations

import sys

import jax
from jax.extend.core import InconclusiveDimensionOperation

from msxla._source import INTERPRETED, SourceLoc
from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode.ops_build import BuildOps
from msxla.capture.bytecode.ops_calls import CallOps
from msxla.capture.bytecode.ops_flow import FlowOps
from msxla.capture.bytecode.ops_load_store import LoadStoreOps
from msxla.capture.bytecode.ops_math import MathOps
from msxla.capture.bytecode.variables.callables import CallPolicy
from msxla.capture.frame import MissedParameter
from msxla.capture.tensor_state import MissedTensorState
from msxla.errors import ConcretizationError

# Errors that mean "a Tensor's value was needed in Python": breaks, never user exceptions.
VALUE_NEEDED = (ConcretizationError, jax.errors.ConcretizationTypeError,
                jax.errors.TracerArrayConversionError, jax.errors.TracerIntegerConversionError)
# Errors of the capture machinery that pass through user `except` blocks untouched.
PASS_THROUGH = (B.GraphBreak, MissedParameter, MissedTensorState,
                InconclusiveDimensionOperation)


class FoundBreak(Exception):
    """A break in the captured frame: its record and instruction offset; ``first``
    when it is the first instruction the capture ran (nothing to stage before it)."""

    def __init__(self, record: B.BreakRecord, offset: int, first: bool = False):
        super().__init__(record.short())
        self.record, self.offset, self.first = record, offset, first


class StopCapture(Exception):
    """The captured frame reached an instruction where a known break is."""

    def __init__(self, frame):
        super().__init__(frame.instr)
        self.frame = frame


class Interpreter(LoadStoreOps, BuildOps, MathOps, CallOps, FlowOps, CallPolicy):
    def __init__(self, tracking=None, options=None, jit_callee=None):
        self.t = tracking
        self.symbolic = tracking is not None
        self.options = options  # JitOptions of the jitted function (nested calls use them)
        # run a callee with graph breaks jitted on its own (a program's Python steps)
        self.jit_callee = jit_callee
        self.handlers = _Table({name: getattr(self, name) for name in _names(type(self))})

    # ------------------------------------------------------------------ run
    def run_frame(self, frame):
        """Run ``frame`` to its return; the value returned."""
        return self._loop(frame, False)

    def run_captured(self, frame):
        """Run the captured (outermost) frame symbolically; breaks become ``FoundBreak``."""
        return self._loop(frame, True)

    def step(self, frame):
        """Run one instruction concretely; a ``Return`` when the frame returned."""
        ins = frame.decoded.instrs[frame.index]
        frame.index += 1
        try:
            return self.handlers[ins.opname](frame, ins)
        except PASS_THROUGH:
            raise
        except Exception as exc:  # noqa: BLE001 - user exceptions go to the code's handlers
            self._dispatch(frame, ins, exc)
            return None

    def _loop(self, frame, captured):
        """Runs ``frame``; while it runs, errors name its current line (see
        ``msxla._source.INTERPRETED``)."""
        interpreted = INTERPRETED.frames
        key = id(sys._getframe())
        interpreted[key] = lambda: (frame.code, frame.decoded.instrs[max(frame.index - 1, 0)]
                                    .offset)
        try:
            return self._run(frame, captured)
        finally:
            del interpreted[key]

    def _run(self, frame, captured):
        instrs = frame.decoded.instrs
        handlers = self.handlers
        stop_at = self.t.stop_at if (captured and self.symbolic) else ()
        first = True
        while True:
            ins = instrs[frame.index]
            if stop_at and not first and ins.offset in stop_at:
                raise StopCapture(frame)
            frame.index += 1
            try:
                result = handlers[ins.opname](frame, ins)
            except B.GraphBreak as brk:
                if brk.loc is None:
                    brk.loc = SourceLoc.from_code(frame.code, ins.offset)
                    brk.instruction = f"{ins.raw} {ins.argrepr}".rstrip()
                if captured:
                    frame.index = ins.index
                    raise FoundBreak(B.record_of(brk, frame.code, ins), ins.offset,
                                     first) from None
                raise
            except PASS_THROUGH:
                raise
            except VALUE_NEEDED as err:
                if not self.symbolic:
                    self._dispatch(frame, ins, err)
                    continue
                brk = B.GraphBreak(B.TENSOR_TO_PYTHON, _first_line(err),
                                   SourceLoc.from_code(frame.code, ins.offset),
                                   f"{ins.raw} {ins.argrepr}".rstrip())
                if captured:
                    frame.index = ins.index
                    raise FoundBreak(B.record_of(brk, frame.code, ins), ins.offset,
                                     first) from None
                raise brk from None
            except Exception as exc:  # noqa: BLE001 - user exceptions go to the code's handlers
                first = False
                self._dispatch(frame, ins, exc)
                continue
            first = False
            if result is not None:
                return result.value

    def _dispatch(self, frame, ins, exc):
        """Send ``exc`` to the handler the exception table names, or re-raise it."""
        handler = frame.decoded.handler_for(ins.index)
        if handler is None:
            _note_location(exc, frame, ins)
            raise exc
        target, depth, lasti = handler
        del frame.stack[depth:]
        if lasti:
            frame.stack.append(ins.offset)
        frame.stack.append(exc)
        frame.index = target

    def unsupported_in(self, code):
        """The first instruction of ``code`` without a handler (None if all have one)."""
        from msxla.capture.bytecode.compat import decode
        for ins in decode(code).instrs:
            if ins.opname not in self.handlers:
                return ins
        return None


def _note_location(exc, frame, ins):
    """The interpreted line an exception passes through, as a note: the code
    the interpreter runs is not on CPython's stack, so its traceback would not
    show the user's lines inside the jitted function."""
    loc = SourceLoc.from_code(frame.code, ins.offset)
    exc.add_note("while capturing (bytecode), the exception passed through:\n" + loc.format())


def _first_line(err) -> str:
    text = str(err).strip().split("\n")[0]
    return text or type(err).__name__


def _unsupported(frame, ins):
    raise B.GraphBreak(B.UNSUPPORTED_OPCODE, f"the instruction {ins.raw} is not modelled")


_NAMES: dict = {}


def _names(cls):
    """The opcode handlers of ``cls``: its methods whose names are upper case."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = [n for n in dir(cls) if n.isupper() and not n.startswith("_")]
    return names


class _Table(dict):
    def __missing__(self, key):
        return _unsupported
