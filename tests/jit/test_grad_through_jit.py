"""Gradients through jit: grad of functions that call jitted functions or Cells,
and jitted functions that compute grads and step an optimizer (MindSpore 2.x's
train_step). Every mode must give PyNative's numbers."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops
from helpers import assert_close
from modes import make


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w = Parameter(Tensor(rng.standard_normal((3, 2)).astype(np.float32)), name="w")
        self.b = Parameter(Tensor(np.zeros(2, np.float32)), name="b")

    def construct(self, x):
        return ops.tanh(ops.matmul(x, self.w) + self.b)


def data():
    rng = np.random.default_rng(1)
    return (Tensor(rng.standard_normal((4, 3)).astype(np.float32)),
            Tensor(rng.standard_normal((4, 2)).astype(np.float32)))


def test_seed_grad_operation_through_jitted_construct(mode):
    class Add(nn.Cell):
        def construct(self, x, y):
            return x * y
    net = Add()
    if mode != "pynative":
        capture_mode, level = mode.split("-")
        net.construct = ms.jit(net.construct, capture_mode=capture_mode, jit_level=level)
    x = Tensor(np.ones([3, 3], np.float32))
    y = Tensor(np.full([3, 3], 2.0, np.float32))
    dx, dy = ops.GradOperation(get_all=True)(net)(x, y)
    assert_close(dx, np.full((3, 3), 2.0, np.float32))
    assert_close(dy, np.ones((3, 3), np.float32))


def test_value_and_grad_with_weights_through_a_jitted_cell(mode):
    net = Net()
    fwd_net = make(net, mode)
    x, t = data()

    def loss_fn(x, t):
        return ((fwd_net(x) - t) ** 2).mean()
    value, grads = ms.value_and_grad(loss_fn, None, net.trainable_params())(x, t)
    ref_net = Net()
    ref_value, ref_grads = ms.value_and_grad(
        lambda x, t: ((ref_net(x) - t) ** 2).mean(), None, ref_net.trainable_params())(x, t)
    assert_close(value, ref_value.asnumpy(), rtol=1e-5)
    for g, r in zip(grads, ref_grads):
        assert_close(g, r.asnumpy(), rtol=1e-5, atol=1e-6)


def test_grad_of_inputs_through_jitted_function(mode):
    def f(x, y):
        return (ops.sin(x) * y).sum()
    g = make(f, mode)
    x, y = Tensor(np.array([0.5, 1.0], np.float32)), Tensor(np.array([2.0, 3.0], np.float32))
    dx, dy = ms.grad(lambda a, b: g(a, b) * 2, grad_position=(0, 1))(x, y)
    assert_close(dx, 2 * np.cos([0.5, 1.0]).astype(np.float32) * np.array([2.0, 3.0], np.float32),
                 rtol=1e-5)
    assert_close(dy, 2 * np.sin([0.5, 1.0]).astype(np.float32), rtol=1e-5)


def test_jitted_train_step_with_optimizer_matches_pynative(mode):
    def run(step_mode):
        net = Net()
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)

        def forward(x, t):
            out = net(x)
            return ((out - t) ** 2).mean(), out
        grad_fn = ms.value_and_grad(forward, None, opt.parameters, has_aux=True)

        def train_step(x, t):
            (loss, _), grads = grad_fn(x, t)
            opt(grads)
            return loss
        step = make(train_step, step_mode)
        x, t = data()
        losses = [float(step(x, t).asnumpy()) for _ in range(5)]
        return losses, net.w.asnumpy(), net.b.asnumpy()
    losses, w, b = run(mode)
    ref_losses, ref_w, ref_b = run("pynative")
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
    np.testing.assert_allclose(w, ref_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b, ref_b, rtol=1e-5, atol=1e-6)
    assert losses[-1] < losses[0]


def test_jit_of_grad_and_of_second_order_grad(mode):
    f = lambda x: (x ** 3).sum()  # noqa: E731
    first = make(ms.grad(f), mode)
    second = make(ms.grad(ms.grad(f)), mode)
    x = Tensor(np.array([2.0], np.float32))
    assert_close(first(x), [12.0]) and assert_close(second(x), [12.0])


def test_grad_sees_parameter_updates_between_calls(mode):
    net = Net()
    g = make(net, mode)
    x, _ = data()
    grad_fn = ms.grad(lambda x: g(x).sum(), None, net.trainable_params())
    before = grad_fn(x)[0].asnumpy()
    net.w.set_data(Tensor(net.w.asnumpy() * 0.5))
    after = grad_fn(x)[0].asnumpy()
    ref = Net()
    ref.w.set_data(Tensor(ref.w.asnumpy() * 0.5))
    expected = ms.grad(lambda x: ref(x).sum(), None, ref.trainable_params())(x)[0].asnumpy()
    np.testing.assert_allclose(after, expected, rtol=1e-5, atol=1e-6)
    assert not np.allclose(before, after)


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_dynamic_shape_function_under_grad(level):
    g = ms.jit(lambda x: (x * x).sum(), capture_mode="trace", dynamic=1, jit_level=level)
    for b in (2, 3, 4, 5):
        x = Tensor(np.arange(b, dtype=np.float32))
        assert_close(ms.grad(g)(x), 2 * np.arange(b, dtype=np.float32))
