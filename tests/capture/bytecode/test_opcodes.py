"""Opcode coverage of the bytecode interpreter: Python constructs that compile to
every modelled opcode run under ``fullgraph=True`` (one graph, no break) and give
PyNative's result; every opcode of the running CPython is either handled or on the
deliberate list of opcodes that run in Python."""
import dis
import functools
import math

import numpy as np
import pytest
from bc_helpers import as_py, bc, t

from msxla import Parameter, Tensor, nn, ops
from msxla.capture.bytecode import compat
from msxla.capture.bytecode.interpreter import Interpreter

# Opcodes that only appear in generators, coroutines, class bodies and modules, or
# that the interpreter leaves to Python on purpose (functions using them run in Python).
IN_PYTHON = {
    "YIELD_VALUE", "SEND", "RETURN_GENERATOR", "GET_AWAITABLE", "GET_AITER", "GET_ANEXT",
    "END_ASYNC_FOR", "BEFORE_ASYNC_WITH", "ASYNC_GEN_WRAP", "GET_YIELD_FROM_ITER",
    "SETUP_ANNOTATIONS", "IMPORT_STAR", "PRINT_EXPR", "LOAD_NAME", "STORE_NAME", "DELETE_NAME",
    "LOAD_CLASSDEREF", "LOAD_LOCALS", "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS",
    "CHECK_EG_MATCH", "PREP_RERAISE_STAR", "MATCH_CLASS", "CLEANUP_THROW", "END_SEND",
    "CALL_INTRINSIC_1", "CALL_INTRINSIC_2", "STOPITERATION_ERROR", "INTERPRETER_EXIT",
    "RESERVED", "SETUP_FINALLY", "SETUP_CLEANUP", "SETUP_WITH", "POP_BLOCK",
    "LOAD_SUPER_METHOD", "LOAD_ZERO_SUPER_METHOD", "LOAD_ZERO_SUPER_ATTR",
}


def test_every_opcode_is_handled_or_runs_in_python():
    handlers = Interpreter().handlers
    missing = []
    for name in dis.opmap:
        if name.startswith("INSTRUMENTED_"):
            continue
        norm = compat._RENAME.get(name, name)
        if norm not in handlers and name not in IN_PYTHON:
            missing.append(name)
    assert not missing
    assert {"LOAD_ATTR", "CALL", "BINARY_OP", "FOR_ITER", "POP_JUMP_IF_FALSE"} <= set(handlers)


def helper(x, *args, scale=1.0, **kw):
    return x * scale + sum(args) + kw.get("bias", 0)


class Ctx:
    def __init__(self):
        self.n = 0

    def __enter__(self):
        self.n += 1
        return self

    def __exit__(self, *exc):
        self.n += 10
        return False


class Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 2.0
        self.w = Parameter(Tensor(np.full(2, 3.0, np.float32)), name="w")

    def construct(self, x):
        return x * self.k + self.w

    @property
    def double(self):
        return self.k * 2


class Child(Base):
    def construct(self, x):
        return super().construct(x) + self.double


CHILD = Child()


def rec(x, n):
    return x if n == 0 else rec(x + 1, n - 1)


def constructs(x, pair):
    a, *mid, b = [x, x * 2, x * 3, x * 4]                  # UNPACK_EX, BUILD_LIST
    (p, q), r = pair, 5                                     # UNPACK_SEQUENCE
    comp = [x * i for i in range(3) if i != 1]              # comprehension, FOR_ITER
    table = {i: x + i for i in range(2)}                    # dict comprehension, MAP_ADD
    kinds = {i % 2 for i in range(4)}                       # set comprehension, SET_ADD
    total = sum(v for v in comp)                            # generator expression
    out = a + b + mid[0] + comp[-1] + table[1] + len(kinds) + total + p * q + r
    out = out + helper(x, *(1, 2), scale=2.0, bias=3)  # CALL_FUNCTION_EX, KW_NAMES
    c = Ctx()
    with c as entered:                                      # BEFORE_WITH
        out = out + entered.n
    try:                                                    # exception table, PUSH_EXC_INFO
        out = out + [1][2]  # noqa: PLE0643 - raises on purpose
    except IndexError:
        out = out - 1
    finally:
        out = out * 2
    k = 3

    def bump(y):                                            # MAKE_CELL, closures
        nonlocal k
        k += 1
        return y * k
    out = bump(out) + k + (lambda v: v - 1)(x)  # noqa: PLC3002 - MAKE_FUNCTION
    out = out + len(f"{x.shape[0]}:{3.5:.2f}!r{'s'!r}")     # FORMAT_VALUE, BUILD_STRING
    out = out + x[::2][0] + x[-1:][0] + CHILD(x)            # BUILD_SLICE, super(), property
    n = 2
    if 0 < n < 3 and n is not None and n in (1, 2) and not n == 5:  # noqa: SIM201
        out = out + 1                                       # COMPARE_OP, IS_OP, CONTAINS_OP
    if (m := n + 1) > 2:
        out = out + m
    for i, (u, w) in enumerate(zip([1, 2], [3, 4])):
        out = out + u * w + i
    for i in reversed(range(3)):
        if i == 1:
            continue
        out = out + i
    out = out + 100
    while n < 10:
        n += 1
        if n == 4:
            break
    d = {"a": 1, "b": 2}
    del d["a"]                                              # DELETE_SUBSCR
    lst = [1, 2, 3]
    lst[0] += 5                                             # STORE_SUBSCR
    lst += [4]
    assert x.shape == (2,), "shape"                         # LOAD_ASSERTION_ERROR path
    match pair:                                             # MATCH_SEQUENCE
        case (first, second):
            out = out + first + second
    match {"k": 1}:                                         # MATCH_MAPPING, MATCH_KEYS
        case {"k": kk}:
            out = out + kk
    ys = sorted([3, 1, 2], key=lambda v: -v)
    part = functools.partial(helper, scale=3.0)
    out = out + part(x) + ys[0] + max([3, 1, 2], key=lambda v: v % 3) + abs(-n)
    out = out + int(math.sqrt(16)) + rec(x, 3).sum() + d["b"] + lst[0] + len(lst)
    out = -out + (+out) - ~3 + (out ** 2) / 4 // 1 % 7 + (6 >> 1) + (1 << 2) + (5 & 3)
    return ops.relu(out) + out.abs().sum(), x.shape, {"n": n, "s": "text"}


def test_constructs_run_in_one_graph():
    jitted = bc(constructs, fullgraph=True)
    for x in (t(1.0, 2.0), t(-3.0, 0.5)):
        expected = as_py(constructs(x, (2, 3)))
        assert as_py(jitted(x, (2, 3))) == expected
        assert as_py(jitted(x, (2, 3))) == expected
    assert jitted.stats.captures == 1


@pytest.mark.skipif(not compat.PY312, reason="3.12 opcodes")
def test_312_normalisation():
    def f(x):
        return [v for v in x][1:]
    names = {i.opname for i in compat.decode(f.__code__).instrs}
    assert "BINARY_SLICE" in names and "LOAD_FAST_AND_CLEAR" in names


def test_instructions_are_normalised():
    def f(x, y):
        if x is None:
            return y.sum()
        return [a for a in y]
    names = {i.opname for i in compat.decode(f.__code__).instrs}
    assert "LOAD_ATTR" in names and "POP_JUMP_IF_NOT_NONE" in names
    assert not any("FORWARD" in n or "BACKWARD" in n or n == "LOAD_METHOD" for n in names)
