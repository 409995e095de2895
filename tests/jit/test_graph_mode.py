"""GRAPH_MODE: calling a top-level Cell compiles its construct; switching modes
in one program works; results equal PyNative."""
import numpy as np
import pytest

import msxla as ms
from msxla import JitConfig, Parameter, Tensor, nn, ops
from helpers import assert_close


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

    def construct(self, x):
        return x * self.w


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.bias = Parameter(Tensor(np.array([1.0, 1.0], np.float32)), name="bias")

    def construct(self, x):
        y = self.inner(x) + self.bias
        ops.assign_add(self.bias, Tensor(np.ones(2, np.float32)))
        return y


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_cell_call_compiles_and_matches_pynative(graph_mode):
    x = Tensor(np.array([1.0, 1.0], np.float32))
    net = Outer()
    outs = [net(x).asnumpy() for _ in range(3)]
    runner = net.__dict__["_graph_runner"]
    assert runner.stats.captures == 1 and runner.stats.compiles == 1
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ref = Outer()
    expected = [ref(x).asnumpy() for _ in range(3)]
    for a, b in zip(outs, expected):
        np.testing.assert_allclose(a, b)
    assert_close(net.bias, ref.bias.asnumpy())


def test_switching_modes_in_one_program(graph_mode):
    net = Outer()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    a = net(x)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    b = net(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    c = net(x)
    assert_close(a, [3.0, 7.0]) and assert_close(b, [4.0, 8.0]) and assert_close(c, [5.0, 9.0])


def test_plain_functions_are_not_compiled_in_graph_mode(graph_mode):
    calls = []

    def f(x):
        calls.append(1)
        return x + 1
    for _ in range(2):
        f(Tensor([1.0]))
    assert len(calls) == 2


def test_set_jit_config_level(graph_mode):
    net = Inner()
    net.set_jit_config(JitConfig(jit_level="O1"))
    net(Tensor(np.ones(2, np.float32)))
    assert net.__dict__["_graph_runner"].options.jit_level == "O1"


def test_attribute_change_recompiles_in_graph_mode(graph_mode):
    class K(nn.Cell):
        def __init__(self):
            super().__init__()
            self.k = 1.0

        def construct(self, x):
            return x * self.k
    net = K()
    assert_close(net(Tensor([1.0])), [1.0])
    net.k = 5.0
    assert_close(net(Tensor([1.0])), [5.0])
