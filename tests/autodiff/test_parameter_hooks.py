"""``Parameter.register_hook``: a hook on a Parameter sees (and may replace) the
Parameter's gradient when grad differentiates it as a weight, in PyNative, in every
capture mode and for a Cell in GRAPH_MODE, as MindSpore 2.10 does in both of its modes."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

from modes import make

X = np.array([1.0, 2.0], np.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([4.0, 5.0], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array([1.0, -1.0], np.float32)), name="b")

    def construct(self, x):
        return self.w * x * x + self.b


def double(g):
    return g * 2


def triple(g):
    return g * 3


def weight_grads(net, mode):
    return ops.GradOperation(get_by_list=True)(make(net, mode), net.trainable_params())(
        Tensor(X))


def test_hook_scales_the_weight_gradient(any_mode):
    net = Net()
    net.w.register_hook(double)
    gw, gb = weight_grads(net, any_mode)
    np.testing.assert_allclose(gw.asnumpy(), 2 * X * X)
    np.testing.assert_allclose(gb.asnumpy(), [1.0, 1.0])  # no hook on b


def test_hooks_compose_and_remove(mode):
    net = Net()
    h2 = net.w.register_hook(double)
    net.w.register_hook(triple)
    np.testing.assert_allclose(weight_grads(net, mode)[0].asnumpy(), 6 * X * X)
    h2.remove()
    np.testing.assert_allclose(weight_grads(net, mode)[0].asnumpy(), 3 * X * X)


def test_hook_that_returns_none_keeps_the_gradient():
    seen = []
    net = Net()
    net.w.register_hook(lambda g: seen.append(g.asnumpy()))
    gw = ms.grad(net, None, net.w)(Tensor(X))
    np.testing.assert_allclose(gw.asnumpy(), X * X)
    np.testing.assert_allclose(seen[0], X * X)


class HookInForward(nn.Cell):
    """Registers a hook on its weight on every call, as a construct may."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([4.0, 5.0], np.float32)), name="w")

    def construct(self, x):
        self.w.register_hook(double)
        return self.w * x


def test_hook_registered_in_the_forward_pass_applies_at_once_and_stays():
    # MindSpore 2.10 PyNative: 2x, 4x, 8x the gradient on calls 1, 2, 3 (each call adds one)
    net = HookInForward()
    grad = ops.GradOperation(get_by_list=True)(net, net.trainable_params())
    for k in (1, 2, 3):
        np.testing.assert_allclose(grad(Tensor(X))[0].asnumpy(), 2 ** k * X)


def test_hook_registered_inside_a_graph_is_refused(any_mode):
    net = HookInForward()
    grad = ops.GradOperation(get_by_list=True)(make(net, any_mode), net.trainable_params())
    with pytest.raises(ValueError, match="Register hook for Parameter inside graph"):
        grad(Tensor(X))
