"""capture_mode="bytecode": symbolic execution of CPython bytecode with graph breaks.

The jitted function's instructions run in msxla's own interpreter
(``interpreter.py``, one handler per opcode in the ``ops_*`` mixins, every
CPython 3.11/3.12 difference in ``compat.py``) over real Python values whose
Tensors hold jax tracers, inside ``jax.make_jaxpr`` and the ``CaptureFrame``
trace mode uses: Tensor operations are msxla's own op rows running on
tracers (no second op implementation), Parameters read and written become
graph inputs and outputs. Calls of user functions, methods and Cells are
inlined (``variables/callables.py``); library calls run on the tracers.

Where an instruction cannot be staged (a branch on a Tensor's value,
``asnumpy()``, ``print(..., file=f)``, a write to a global or an attribute,
a call of ``random``/``time``/third-party code) there is a *graph break*
(``breaks.py``: kinds with stable IDs):

- without breaks the result is one ``CapturedGraph``, cached by
  ``JitFunction`` exactly like trace mode's (same entry, same hot path);
- with breaks it is a ``BytecodeProgram`` (``program.py``, a
  ``CapturedProgram``): graphs and Python steps, which jit compiles and
  caches per (instruction, live state) (``msxla/jit/program.py``); only the breaking
  instructions run in Python on later calls; a call that breaks inside a
  callee runs the callee as its own bytecode-jitted frame (``nested.py``);
- with ``fullgraph=True`` the first break is an ``UnsupportedError`` naming
  the file, line, instruction and reason.

Guards (``guards.py``) cover exactly what the interpreted code read: globals,
closure variables, attributes and items of outside objects, and whole Cells
run as library code, so a changed global recompiles (MindSpore's bytecode
mode misses it) and an attribute the code never read does not.

Generator functions, and functions using opcodes the interpreter does not
model, run in Python (a warning; an error with ``fullgraph=True``). In
GRAPH_MODE, or called from inside an ast-captured function, a
bytecode-jitted function is a plain function (MindSpore's note on ``jit``).
``msxla.jit.explain(fn)(*args)`` reports graphs, breaks and guards.
"""
from __future__ import annotations

import types

from jax.extend.core import InconclusiveDimensionOperation

from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode import compat, record
from msxla.capture.bytecode.frame import Frame
from msxla.capture.bytecode.guards import GuardRecorder
from msxla.capture.bytecode.interpreter import VALUE_NEEDED, FoundBreak, Interpreter
from msxla.capture.bytecode.program import BytecodeProgram
from msxla.capture.bytecode.recipe import Describer
from msxla.capture.bytecode.state import Unrepresentable
from msxla.capture.bytecode.tracking import Tracking
from msxla.capture.bytecode.variables import objects as O
from msxla.capture.bytecode.variables.callables import _plain_cell_construct
from msxla.capture.capture import RunEagerly, register_front_end
from msxla.capture.tensor_state import drop_state_guards
from msxla.capture.tracing import trace_to_graph
from msxla.capture.values import ScalarLeaf
from msxla.errors import ConcretizationError, UnsupportedError, user_error
from msxla.common.cell_base import CellBase
from msxla.options import Jitted


class NeedsStaticShapes(InconclusiveDimensionOperation):
    """A dynamic-shape capture found a graph break: compile this signature per shape."""


class _ReturnsPython(Exception):
    """The function returns a value a graph cannot produce (it runs as a program)."""


def interpretable(fn):
    """``(function, bound self or None, Cell called or None)`` when ``fn``'s bytecode can
    be interpreted: a user function or method, or a call of a Cell whose ``construct``
    is user code and which has no hooks, mixed precision or custom bprop."""
    if isinstance(fn, Jitted):
        fn = fn.fn
    if type(fn) is types.MethodType and fn.__func__ is CellBase._graph_construct:
        construct = _plain_cell_construct(fn.__self__)
        return None if construct is None else (construct, fn.__self__, fn.__self__)
    if type(fn) is types.MethodType and O.is_user_function(fn.__func__):
        return fn.__func__, fn.__self__, None
    if O.is_user_function(fn):
        return fn, None, None
    return None


def capture_bytecode(fn, spec, leaves, candidates, options, name, guards):
    """The bytecode front end (see ``msxla.capture.capture.register_front_end``)."""
    target = interpretable(fn)
    if target is None:  # library code (a grad transform, a built-in Cell): trace it
        return _trace_library(fn, spec, leaves, candidates, options, name, guards)
    func, owner, cell = target
    _refuse_uninterpretable(func, options, name)
    holder = {}

    def run(*args, **kwargs):
        tracking = holder["t"] = Tracking(fullgraph=options.fullgraph)
        if cell is not None:  # a jitted Cell: its call is inlined while it stays plain
            tracking.guards.cell_call_state(cell)
        tracking.mark_arguments(args)
        tracking.mark_arguments(kwargs.values())
        call_args = ((owner,) + args) if owner is not None else args
        frame = Frame.for_call(func, call_args, kwargs)
        value = Interpreter(tracking, options).run_captured(frame)
        try:
            Describer(tracking).node(value)
        except Unrepresentable as why:  # e.g. a generator or a new object holding Tensors
            raise _ReturnsPython(str(why)) from None
        return value

    try:
        graph = trace_to_graph(run, spec, leaves, candidates, mode="bytecode", name=name,
                               guards=guards)
    except _ReturnsPython as why:
        if options.fullgraph:
            raise user_error(UnsupportedError, f"jit '{name}' (capture_mode='bytecode', "
                             f"fullgraph=True): the function returns {why}, which cannot come "
                             f"out of a graph [{B.PYTHON_TAIL.id} {B.PYTHON_TAIL.name}].",
                             hint="return Tensors, Python scalars, tuples, lists or dicts"
                             ) from None
        return BytecodeProgram(func, owner, options, name, candidates, _call_guards(cell))
    except FoundBreak as found:
        record.found(found.record)
        if options.fullgraph:
            raise B.fullgraph_error(name, found.record) from None
        if any(not all(isinstance(d, int) for d in leaf.shape) for leaf in leaves):
            raise NeedsStaticShapes(f"graph break: {found.record.short()}") from None
        if any(isinstance(node, ScalarLeaf) and node.cls in (int, float) for node in spec.args):
            # a scalar argument the recompile brake made a graph input is used as a Python
            # value: JitFunction keeps it a constant and captures again
            raise ConcretizationError(found.record.short()) from None
        program = BytecodeProgram(func, owner, options, name, candidates, _call_guards(cell))
        program.breaks[found.offset] = found.record
        if not found.first:
            program.stop_at.add(found.offset)
        return program
    graph.guards = drop_state_guards(holder["t"].guards.guard_set(), graph)
    graph.notes = []  # Cell attributes set while capturing belong to Cells made by the code
    record.captured(name, graph)
    return graph


def _call_guards(cell):
    """A program for a jitted Cell holds while the Cell's call stays plain."""
    if cell is None:
        return None
    recorder = GuardRecorder()
    recorder.cell_call_state(cell)
    return recorder.guard_set()


def _trace_library(fn, spec, leaves, candidates, options, name, guards):
    """A library callable (``value_and_grad(f)``, a built-in Cell) is traced as a whole:
    jax transforms cannot be cut at a graph break. If it needs a Tensor's value in
    Python, it runs in Python (an error with ``fullgraph=True``)."""
    try:
        return trace_to_graph(fn, spec, leaves, candidates, mode="bytecode", name=name,
                              guards=guards)
    except VALUE_NEEDED as err:
        if isinstance(err, RunEagerly):
            raise
        text = str(err).strip().split("\n")[0]
        loc = getattr(err, "loc", None)
        if options.fullgraph:
            raise user_error(UnsupportedError, f"jit '{name}' (capture_mode='bytecode', "
                             f"fullgraph=True): {text}", loc=loc, find_loc=False,
                             hint="a function transformed by library code (grad, vmap) is "
                                  "captured as a whole; keep Python control flow on Tensor "
                                  "values out of it") from None
        raise user_error(RunEagerly, f"jit '{name}': {text} (inside library code such as a "
                         "grad transform, which is captured as a whole)", loc=loc,
                         find_loc=False) from None


def _refuse_uninterpretable(func, options, name):
    code = func.__code__
    reason = None
    if compat.is_generator_code(code):
        kind, reason = B.GENERATOR_FUNCTION, "it is a generator function or coroutine"
    else:
        bad = Interpreter().unsupported_in(code)
        if bad is not None:
            kind, reason = B.UNSUPPORTED_OPCODE, f"it uses {bad.raw}, which is not modelled"
    if reason is None and compat.supported():
        return
    if reason is None:
        kind, reason = B.UNSUPPORTED_OPCODE, "this Python version is not supported"
    from msxla._source import SourceLoc
    loc = SourceLoc.from_code(code, 0)
    if options.fullgraph:
        raise user_error(UnsupportedError, f"jit '{name}' (capture_mode='bytecode', "
                         f"fullgraph=True) cannot capture '{code.co_name}': {reason} "
                         f"[{kind.id} {kind.name}].", loc=loc, find_loc=False, hint=kind.hint)
    raise user_error(RunEagerly, f"jit '{name}': '{code.co_name}' runs in Python: {reason} "
                     f"[{kind.id} {kind.name}].", loc=loc, find_loc=False)


register_front_end("bytecode", capture_bytecode)
