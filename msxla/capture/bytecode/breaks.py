"""Graph breaks as data: the registry of break kinds and the record of each break.

A graph break is a place where the bytecode capture cannot stage an
instruction into the graph. With ``fullgraph=False`` the graph so far is
compiled and run, the instruction runs in Python, and capture resumes after
it; the break is recorded (``BreakRecord``) and shows in
``msxla.jit.explain``. With ``fullgraph=True`` the first break is an
``UnsupportedError`` naming the file, line, instruction and reason.

Every kind has a stable ID (``B001`` ...), a title, an explanation and a hint,
so tests and users can refer to a kind without matching prose.
"""
from __future__ import annotations

import dataclasses

from msxla._source import SourceLoc
from msxla.errors import UnsupportedError, user_error


@dataclasses.dataclass(frozen=True)
class BreakKind:
    id: str
    name: str
    explanation: str
    hint: str


REGISTRY: dict[str, BreakKind] = {}


def _kind(id_, name, explanation, hint):
    kind = BreakKind(id_, name, explanation, hint)
    REGISTRY[name] = kind
    return kind


DATA_DEPENDENT_BRANCH = _kind(
    "B001", "data-dependent-branch",
    "A Python branch (`if`, `while`, `and`/`or`, a conditional expression) depends on the value "
    "of a Tensor computed in the graph.",
    "use ops.select / ops.where, or capture_mode='ast', which turns Tensor conditions into "
    "graph control flow")
TENSOR_TO_PYTHON = _kind(
    "B002", "tensor-to-python",
    "A Tensor's value is needed as a Python value (asnumpy(), item(), float(), int(), bool(), "
    "numpy on a Tensor, ...).",
    "keep the computation in Tensor operations")
UNSUPPORTED_CALL = _kind(
    "B003", "unsupported-call",
    "A call the capture cannot stage: a function outside msxla, jax, numpy and the pure "
    "built-ins (random numbers, time, third-party code, ...).",
    "call it outside the jitted function, or pass its result in as an argument")
SIDE_EFFECT = _kind(
    "B004", "side-effect",
    "A write to a Python object that lives outside the function (a global, an attribute, an "
    "item of an argument or global container, a closure variable).",
    "return the value and store it outside the jitted function")
PYTHON_IO = _kind(
    "B005", "python-io",
    "Input/output the graph cannot stage (print with file= or flush=True, open, input).",
    "use plain print(...), which is staged into the graph")
OPAQUE_VALUE = _kind(
    "B006", "opaque-value",
    "An operation on a Python value produced outside the graph by an earlier break (a numpy "
    "array, a numpy scalar, an exception).",
    "convert it to a Tensor once, or compute it outside the jitted function")
BREAK_IN_CALLEE = _kind(
    "B007", "break-in-callee",
    "A called function has a graph break; the call runs as its own bytecode-jitted frame.",
    "see the callee's break below")
UNSUPPORTED_OPCODE = _kind(
    "B008", "unsupported-opcode",
    "An instruction the capture does not model (yield, await, import *, match class patterns, "
    "class-body opcodes).",
    "move this code into a function called outside the jitted function")
INLINE_DEPTH = _kind(
    "B009", "inline-depth",
    "Calls are nested deeper than the capture inlines (deep recursion).",
    "reduce the recursion depth, or jit the inner function separately")
PYTHON_TAIL = _kind(
    "B010", "python-tail",
    "At a graph break a live value cannot be carried from the graph to Python (a generator, "
    "an iterator over an unknown object); the rest of the function runs in Python.",
    "avoid keeping generators or iterators alive across a graph break")
GENERATOR_FUNCTION = _kind(
    "B011", "generator-function",
    "Generator functions and coroutines keep their frame between calls; they run in Python.",
    "return a list or tuple instead of yielding")


class GraphBreak(Exception):
    """Raised inside the interpreter where an instruction cannot be staged."""

    def __init__(self, kind: BreakKind, reason: str, loc: SourceLoc | None = None,
                 instruction: str = "", chain=()):
        super().__init__(reason)
        self.kind, self.reason, self.loc = kind, reason, loc
        self.instruction, self.chain = instruction, list(chain)


@dataclasses.dataclass
class BreakRecord:
    """One graph break: where (the outermost frame's instruction) and why."""

    kind: BreakKind
    loc: SourceLoc | None            # the instruction of the captured frame that breaks
    instruction: str                 # e.g. "POP_JUMP_IF_FALSE" or "CALL 1"
    reason: str
    inner: SourceLoc | None = None   # where inside a callee the break happened
    function: str = ""
    cause: GraphBreak | None = dataclasses.field(default=None, compare=False, repr=False)

    def short(self) -> str:
        where = f"{self.loc}" if self.loc else "<unknown>"
        return f"[{self.kind.id} {self.kind.name}] {where} ({self.instruction}): {self.reason}"

    def format(self) -> str:
        lines = [self.short()]
        if self.loc is not None:
            lines.append(self.loc.format())
        if self.inner is not None and self.inner != self.loc:
            lines.append("  inside the called function:")
            lines.append(self.inner.format())
        return "\n".join(lines)


def record_of(brk: GraphBreak, code, instr) -> BreakRecord:
    """The record of ``brk`` attributed to ``instr`` of the captured ``code``."""
    loc = SourceLoc.from_code(code, instr.offset)
    inner = brk.loc if brk.loc is not None and brk.loc != loc else None
    kind, reason = brk.kind, brk.reason
    if inner is not None:
        kind = BREAK_IN_CALLEE
        reason = f"inside '{inner.function}' at {inner}: [{brk.kind.id} {brk.kind.name}] " \
                 f"{brk.reason}"
    return BreakRecord(kind, loc, f"{instr.raw} {instr.argrepr}".rstrip(), reason, inner,
                       code.co_name, brk)


def fullgraph_error(name: str, record: BreakRecord) -> Exception:
    """The error ``fullgraph=True`` raises for ``record``: it names the innermost place
    (inside a called function when the break is there) and the call chain's line."""
    cause = record.cause
    if record.inner is not None and cause is not None:
        kind, loc, instruction, reason = cause.kind, record.inner, cause.instruction, cause.reason
        where = f"{loc} in '{loc.function}' (called at {record.loc})"
        extra = (record.loc,)
    else:
        kind, loc, instruction, reason = record.kind, record.loc, record.instruction, record.reason
        where = f"{loc} in '{record.function}'"
        extra = ()
    return user_error(
        UnsupportedError,
        f"jit '{name}' (capture_mode='bytecode', fullgraph=True) cannot capture the whole "
        f"function: graph break [{kind.id} {kind.name}] at {where}, instruction "
        f"{instruction}: {reason}",
        loc=loc, extra_locs=extra, find_loc=False,
        hint=f"{kind.hint}; or use fullgraph=False to run this piece in Python (a graph break)")
