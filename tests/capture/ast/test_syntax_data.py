"""ast coverage: where source comes from, calls, built-ins, Python data. Each
program runs jitted with fullgraph=False and True and must equal PyNative and
MindSpore 2.10 (tests/golden/ast_syntax.json), except where noted.

Where msxla knowingly differs from MindSpore 2.10 (msxla follows PyNative):
- ``source_decorated``: MindSpore compiles the function a decorator wraps
  (``__wrapped__``) and drops the decorator's own work (``* 2``).
- ``data_inputs_outputs`` under fullgraph=True: MindSpore's STRICT graphs drop
  ``None`` from output tuples and return dicts as tuples.
- ``level_numpy_constant`` (test_syntax_levels): see there.
"""
import numpy as np
import pytest
from ast_helpers import check_case

import msxla as ms
from msxla import Tensor

SOURCES = ["source_method", "source_nested_closure", "source_lambda", "source_decorated"]
CALLS = ["call_helper_and_sub_cell", "call_builtins", "call_tensor_builtins", "call_inner_jit"]
DATA = ["data_inputs_outputs", "data_args_kwargs_defaults", "data_augmented_assignment",
        "data_tensor_setitem", "data_list_append", "data_shape_in_computation"]
DIFFERS = {
    ("source_decorated", False): "MindSpore drops the decorator",
    ("source_decorated", True): "MindSpore drops the decorator",
    ("data_inputs_outputs", True): "MindSpore STRICT drops None and turns dicts into tuples",
}


@pytest.mark.parametrize("fullgraph", [False, True])
@pytest.mark.parametrize("name", SOURCES + CALLS + DATA)
def test_program(name, fullgraph):
    check_case(name, fullgraph, DIFFERS.get((name, fullgraph)))


def test_scalars_from_graph_values_come_back_as_python_scalars():
    def f(x):
        i = 0
        while x.sum() < 10:
            x = x * 2
            i += 1
        return x, i, int(x.sum()), float(x.max()), bool(x.min() > 1)
    _, i, n, m, b = ms.jit(f)(Tensor(np.array([1.0, 2.0], np.float32)))
    assert (type(i), type(n), type(m), type(b)) == (int, int, float, bool)
    assert (i, n, m, b) == (2, 12, 8.0, True)


GLOBAL = 1


def writes_global(x):
    global GLOBAL
    GLOBAL = 5
    return x + GLOBAL


def test_global_statement_follows_pynative():
    """MindSpore 2.10 ignores the write (returns x + 1 and leaves GLOBAL at 1)."""
    global GLOBAL
    GLOBAL = 1
    out = ms.jit(writes_global)(Tensor(np.array([1.0], np.float32)))
    assert out.asnumpy().tolist() == [6.0] and GLOBAL == 5


class Base(ms.nn.Cell):
    def construct(self, x):
        return x * 2


class Child(Base):
    def __init__(self):
        super().__init__()
        self.__k = 3.0

    def construct(self, x):
        y = super().construct(x)
        if y.sum() > 0:
            y = y + self.__k
        return y


def test_super_and_private_names():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert ms.jit(Child())(x).asnumpy().tolist() == Child()(x).asnumpy().tolist() == [5.0, 7.0]


def factorial(x, n):
    if n == 0:
        return x
    return factorial(x * n, n - 1)


def test_recursion_on_python_values():
    assert ms.jit(factorial)(Tensor(np.array([1.0], np.float32)), 4).asnumpy().tolist() == [24.0]


def test_generator_helpers_run_in_python_under_lax():
    def gen(x, n):
        for i in range(n):
            yield x * i

    def f(x):
        s = x * 0
        for v in gen(x, 3):
            s = s + v
        return s
    out = ms.jit(f)(Tensor(np.array([1.0, 2.0], np.float32)))
    assert out.asnumpy().tolist() == [3.0, 6.0]
    with pytest.raises(RuntimeError, match="Unsupported expression 'Yield'"):
        ms.jit(f, fullgraph=True)(Tensor(np.array([1.0, 2.0], np.float32)))


class JitConstruct(ms.nn.Cell):
    @ms.jit
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 2


def test_jit_decorated_construct():
    net = JitConstruct()
    x, y = Tensor(np.array([1.0], np.float32)), Tensor(np.array([-1.0], np.float32))
    assert net(x).asnumpy().tolist() == [2.0] and net(y).asnumpy().tolist() == [-3.0]


def test_fstring_of_a_shape_formats_like_python():
    """MindSpore 2.10 formats the 1-tuple shape as "(2)" in graphs and returns 10."""
    def f(x):
        return x + len(f"shape={x.shape}")
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert ms.jit(f, fullgraph=True)(x).asnumpy().tolist() == f(x).asnumpy().tolist() == [
        11.0, 12.0]


@ms.jit
def ast_inner(v):
    if v.sum() > 0:
        return v * 10
    return v - 10


def test_ast_function_inside_a_trace_capture():
    """An ast-jitted function called by a trace-jitted one keeps its graph control flow."""
    outer = ms.jit(lambda x: ast_inner(x) + 1, capture_mode="trace")
    assert outer(Tensor(np.array([1.0], np.float32))).asnumpy().tolist() == [11.0]
    assert outer(Tensor(np.array([-1.0], np.float32))).asnumpy().tolist() == [-10.0]
    assert outer.stats.captures == 1


class OwnCall(ms.nn.Cell):
    def construct(self, x):
        return x * 2

    def __call__(self, x):
        if x.sum() > 0:
            return self.construct(x) + 1
        return x


def test_cell_with_its_own_call():
    def f(x):
        return OWN(x)
    for v in (1.0, -1.0):
        x = Tensor(np.array([v], np.float32))
        assert ms.jit(f)(x).asnumpy().tolist() == f(x).asnumpy().tolist()


OWN = OwnCall()
