"""Every difference between the CPython versions msxla supports (3.11, 3.12).

The interpreter never looks at ``sys.version_info``: it runs *normalised*
instructions (``Instr``) made here from ``dis``. What is normalised:

- jump opcodes: 3.11's ``POP_JUMP_FORWARD_IF_FALSE`` / ``..._BACKWARD_...``
  and 3.12's ``POP_JUMP_IF_FALSE`` become ``POP_JUMP_IF_FALSE``; every
  unconditional jump (``JUMP_FORWARD``, ``JUMP_BACKWARD``,
  ``JUMP_BACKWARD_NO_INTERRUPT``, 3.12's ``JUMP``) becomes ``JUMP``; targets
  are instruction indices (``Instr.target``);
- ``FOR_ITER``'s exit: 3.11 jumps to the target, 3.12 skips the ``END_FOR``
  at the target (``Instr.exit``);
- attribute loads: 3.11's ``LOAD_METHOD`` and 3.12's ``LOAD_ATTR`` with the
  method bit become ``LOAD_ATTR`` with ``Instr.method``; ``LOAD_GLOBAL``'s
  NULL bit is ``Instr.push_null``; 3.12's ``LOAD_SUPER_ATTR`` flags are
  decoded (``method``, ``two_arg``);
- calls: 3.11's ``PRECALL`` is a no-op; ``KW_NAMES`` carries the names tuple
  (3.11's ``dis`` gives only the constant's index);
- 3.12 additions: ``RETURN_CONST``, ``BINARY_SLICE``/``STORE_SLICE``,
  ``LOAD_FAST_AND_CLEAR`` (inlined comprehensions), ``CALL_INTRINSIC_1``
  (mapped to ``LIST_TO_TUPLE``, ``UNARY_POSITIVE``, ...), ``END_FOR``;
  ``LOAD_FAST_CHECK`` and ``STORE_FAST_MAYBE_NULL`` are plain fast loads/stores;
- the exception table (``co_exceptiontable``) as instruction-index ranges.
"""
from __future__ import annotations

import dis
import operator
import sys
import types
import weakref

PY312 = sys.version_info >= (3, 12)
SUPPORTED = ((3, 11), (3, 12))

_RENAME = {
    "POP_JUMP_FORWARD_IF_FALSE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_BACKWARD_IF_FALSE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_FORWARD_IF_TRUE": "POP_JUMP_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_TRUE": "POP_JUMP_IF_TRUE",
    "POP_JUMP_FORWARD_IF_NONE": "POP_JUMP_IF_NONE",
    "POP_JUMP_BACKWARD_IF_NONE": "POP_JUMP_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE": "POP_JUMP_IF_NOT_NONE",
    "POP_JUMP_BACKWARD_IF_NOT_NONE": "POP_JUMP_IF_NOT_NONE",
    "JUMP_FORWARD": "JUMP", "JUMP_BACKWARD": "JUMP", "JUMP_BACKWARD_NO_INTERRUPT": "JUMP",
    "JUMP_NO_INTERRUPT": "JUMP",
    "LOAD_METHOD": "LOAD_ATTR",
    "LOAD_FAST_CHECK": "LOAD_FAST",
    "STORE_FAST_MAYBE_NULL": "STORE_FAST",
    "PRECALL": "NOP", "RESUME": "NOP", "EXTENDED_ARG": "NOP", "CACHE": "NOP",
}

_INTRINSIC_1 = {
    "INTRINSIC_LIST_TO_TUPLE": "LIST_TO_TUPLE",
    "INTRINSIC_UNARY_POSITIVE": "UNARY_POSITIVE",
    "INTRINSIC_PRINT": "PRINT_EXPR",
    "INTRINSIC_IMPORT_STAR": "IMPORT_STAR",
    "INTRINSIC_STOPITERATION_ERROR": "STOPITERATION_ERROR",
    "INTRINSIC_ASYNC_GEN_WRAP": "ASYNC_GEN_WRAP",
}

# BINARY_OP's argument -> the operator it applies (both versions share dis._nb_ops).
_NB_FUNCS = {
    "NB_ADD": operator.add, "NB_AND": operator.and_, "NB_FLOOR_DIVIDE": operator.floordiv,
    "NB_LSHIFT": operator.lshift, "NB_MATRIX_MULTIPLY": operator.matmul,
    "NB_MULTIPLY": operator.mul, "NB_REMAINDER": operator.mod, "NB_OR": operator.or_,
    "NB_POWER": operator.pow, "NB_RSHIFT": operator.rshift, "NB_SUBTRACT": operator.sub,
    "NB_TRUE_DIVIDE": operator.truediv, "NB_XOR": operator.xor,
    "NB_INPLACE_ADD": operator.iadd, "NB_INPLACE_AND": operator.iand,
    "NB_INPLACE_FLOOR_DIVIDE": operator.ifloordiv, "NB_INPLACE_LSHIFT": operator.ilshift,
    "NB_INPLACE_MATRIX_MULTIPLY": operator.imatmul, "NB_INPLACE_MULTIPLY": operator.imul,
    "NB_INPLACE_REMAINDER": operator.imod, "NB_INPLACE_OR": operator.ior,
    "NB_INPLACE_POWER": operator.ipow, "NB_INPLACE_RSHIFT": operator.irshift,
    "NB_INPLACE_SUBTRACT": operator.isub, "NB_INPLACE_TRUE_DIVIDE": operator.itruediv,
    "NB_INPLACE_XOR": operator.ixor,
}
BINARY_OPS = tuple(_NB_FUNCS[name] for name, _ in dis._nb_ops)
BINARY_OP_SYMBOLS = tuple(symbol for _, symbol in dis._nb_ops)

COMPARE_OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
               ">": operator.gt, ">=": operator.ge}

CO_GENERATOR_LIKE = 0x20 | 0x80 | 0x100 | 0x200  # generator, coroutine, iterable coroutine, async gen


class Instr:
    """One normalised instruction."""

    __slots__ = (
        "arg",
        "argrepr",
        "argval",
        "exit",
        "index",
        "line",
        "method",
        "offset",
        "opname",
        "push_null",
        "raw",
        "target",
        "two_arg",
    )

    def __init__(self, ins, index):
        self.raw = ins.opname
        self.opname = _RENAME.get(ins.opname, ins.opname)
        self.arg, self.argval, self.argrepr = ins.arg, ins.argval, ins.argrepr
        self.offset, self.index = ins.offset, index
        self.target = self.exit = None
        self.push_null = self.method = self.two_arg = False
        self.line = ins.positions.lineno if ins.positions else None

    def __repr__(self):
        return f"{self.offset} {self.raw} {self.argrepr}".rstrip()


class Decoded:
    """A code object's instructions, offset index and exception table."""

    __slots__ = ("__weakref__", "code", "handlers", "index_of", "instrs")

    def __init__(self, code):
        self.code = code
        raw = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
        self.instrs = [Instr(ins, k) for k, ins in enumerate(raw)]
        self.index_of = {ins.offset: ins.index for ins in self.instrs}
        for ins in self.instrs:
            _normalise(ins, self, code)
        self.handlers = [(self.index_of[e.start], _index_before(self, e.end),
                          self.index_of[e.target], e.depth, e.lasti)
                         for e in dis._parse_exception_table(code)]

    def handler_for(self, index):
        """``(target index, stack depth, push lasti)`` of the handler covering ``index``."""
        for start, end, target, depth, lasti in self.handlers:
            if start <= index < end:
                return target, depth, lasti
        return None


def _index_before(decoded, end_offset):
    """Exception-table ends are exclusive byte offsets; map to an exclusive index."""
    for ins in decoded.instrs:
        if ins.offset >= end_offset:
            return ins.index
    return len(decoded.instrs)


def _normalise(ins, decoded, code):
    name, raw = ins.opname, ins.raw
    if name.startswith("POP_JUMP_IF") or name == "JUMP" or raw in (
            "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP", "SEND"):
        ins.target = decoded.index_of[ins.argval]
    elif name == "FOR_ITER":
        ins.target = decoded.index_of[ins.argval]
        ins.exit = ins.target
        if PY312 and decoded.instrs[ins.target].raw == "END_FOR":
            ins.exit = ins.target + 1
    elif name == "LOAD_GLOBAL":
        ins.push_null = bool(ins.arg & 1)
    elif raw == "LOAD_METHOD":
        ins.method = True
    elif name == "LOAD_ATTR" and PY312:
        ins.method = bool(ins.arg & 1)
    elif name == "LOAD_SUPER_ATTR":
        ins.method, ins.two_arg = bool(ins.arg & 1), bool(ins.arg & 2)
    elif name == "KW_NAMES":
        ins.argval = code.co_consts[ins.arg]
    elif name == "CALL_INTRINSIC_1":
        ins.opname = _INTRINSIC_1.get(ins.argrepr, "CALL_INTRINSIC_1")
    elif name == "BINARY_OP":
        ins.argval = BINARY_OPS[ins.arg]
        ins.argrepr = BINARY_OP_SYMBOLS[ins.arg]


_DECODED: weakref.WeakKeyDictionary[types.CodeType, Decoded] = weakref.WeakKeyDictionary()


def decode(code) -> Decoded:
    """The normalised instructions of ``code`` (cached per code object)."""
    try:
        return _DECODED[code]
    except KeyError:
        dec = _DECODED[code] = Decoded(code)
        return dec


def is_generator_code(code) -> bool:
    """Generators and coroutines keep their frame between calls: they run in Python."""
    return bool(code.co_flags & CO_GENERATOR_LIKE)


def supported() -> bool:
    return sys.version_info[:2] in SUPPORTED
