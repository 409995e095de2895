"""``Cell._dynamic_shape_inputs``: MindSpore's name for what ``set_inputs``
declared, None until it is called. MindSpore's test helpers (``GradOfFirstInput``
and the other ``_Grad`` Cells) read it before calling a sens-taking grad and
re-declare the inputs with a static sens."""
import numpy as np
import pytest

import msxla as ms
from msxla import nn
from msxla.ops.composite import GradOperation


class _Square(nn.Cell):
    def construct(self, x):
        return x * x


class _GradWithSens(nn.Cell):
    """Reads ``_dynamic_shape_inputs`` as the helpers of MindSpore's tests do."""

    def __init__(self, network):
        super().__init__()
        self.network = network
        self.grad = GradOperation(sens_param=True)
        self.redeclared = None

    def __call__(self, *inputs):
        if self._dynamic_shape_inputs is not None:
            self.redeclared = tuple(self._dynamic_shape_inputs[:-1]) + inputs[-1:]
            self.set_inputs(*self.redeclared)
        return super().__call__(*inputs)

    def construct(self, x, sens):
        return self.grad(self.network)(x, sens)


def test_none_until_set_inputs():
    net = _Square()
    assert net._dynamic_shape_inputs is None
    assert net.get_inputs() is None


def test_holds_the_declared_inputs():
    net = _Square()
    dyn = ms.Tensor(shape=[None, 3], dtype=ms.float32)
    net.set_inputs(dyn)
    assert isinstance(net._dynamic_shape_inputs, tuple)
    assert len(net._dynamic_shape_inputs) == 1
    assert net._dynamic_shape_inputs[0] is dyn
    assert net._dynamic_shape_inputs is net.get_inputs()
    other = _Square()
    other.set_inputs(*net._dynamic_shape_inputs)
    assert other.get_inputs()[0] is dyn


def test_assignment_is_set_inputs():
    net = _Square()
    dyn = ms.Tensor(shape=[None], dtype=ms.float32)
    net._dynamic_shape_inputs = [dyn]
    assert net.get_inputs() == (dyn,)
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), np.arange(4, dtype=np.float32) ** 2)
    net._dynamic_shape_inputs = None
    assert net.get_inputs() is None


X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
SENS = np.full((2, 3), 0.5, np.float32)
MODES = [pytest.param(False, id="pynative"), pytest.param(True, id="graph")]


def _in_mode(graph, fn):
    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    try:
        return fn()
    finally:
        ms.set_context(mode=old)


@pytest.mark.parametrize("graph", MODES)
def test_grad_helper_without_declared_inputs(graph):
    helper = _GradWithSens(_Square())
    got = _in_mode(graph, lambda: helper(ms.Tensor(X), ms.Tensor(SENS)))
    assert helper.redeclared is None
    np.testing.assert_allclose(got.asnumpy(), 2 * X * SENS)


@pytest.mark.parametrize("graph", [
    MODES[0],
    pytest.param(True, id="graph", marks=pytest.mark.xfail(
        strict=True, raises=ValueError,
        reason="GRAPH_MODE compares a static sens (2, 3) with the symbolic output shape "
               "(a, 3) of a dynamic input and refuses it")),
])
def test_grad_helper_with_declared_inputs(graph):
    helper = _GradWithSens(_Square())
    helper.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32),
                      ms.Tensor(shape=[None, 3], dtype=ms.float32))
    sens = ms.Tensor(SENS)
    got = _in_mode(graph, lambda: helper(ms.Tensor(X), sens))
    assert helper.redeclared[1] is sens
    assert helper._dynamic_shape_inputs == helper.redeclared
    np.testing.assert_allclose(got.asnumpy(), 2 * X * SENS)
