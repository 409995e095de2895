"""``call_with_bprop``: a user backward pass (MindSpore's Cell.bprop convention)."""
import jax
import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, ops
from msxla.autodiff.custom_bprop import call_with_bprop
from msxla.common.state import current_frame

X = np.array([1.0, 2.0, 3.0], np.float32)
Y = np.array([0.5, -1.0, 2.0], np.float32)


def mul(x, y):
    return x * y


def clipped_bprop(x, y, out, dout):
    return dout * 10, ops.maximum(dout * y, dout * 0)


def f(x, y):
    return call_with_bprop(mul, clipped_bprop, (x, y))


def test_forward_runs_fn_directly():
    out = f(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(out.asnumpy(), X * Y)
    assert current_frame() is None


def test_gradient_is_the_user_bprop():
    gx, gy = ms.grad(f, (0, 1))(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), [10, 10, 10])
    np.testing.assert_allclose(gy.asnumpy(), np.maximum(Y, 0))


def test_bprop_sees_out_and_sens():
    seen = {}

    def bprop(x, y, out, dout):
        seen["out"], seen["dout"] = out.asnumpy(), dout.asnumpy()
        return dout * out, dout * 2

    s = np.array([1.0, 2.0, 3.0], np.float32)
    gx, gy = ms.grad(lambda x, y: call_with_bprop(mul, bprop, (x, y)), (0, 1),
                     sens_param=True)(Tensor(X), Tensor(Y), Tensor(s))
    np.testing.assert_allclose(seen["out"], X * Y)
    np.testing.assert_allclose(seen["dout"], s)
    np.testing.assert_allclose(gx.asnumpy(), s * X * Y)
    np.testing.assert_allclose(gy.asnumpy(), 2 * s)


def test_parameters_read_inside_get_zero_gradients_and_writes_land_once():
    w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")
    calls = Parameter(Tensor(np.zeros((), np.float32)), name="calls", requires_grad=False)

    def body(x):
        ops.assign_add(calls, Tensor(np.float32(1)))
        return x * w

    def bprop(x, out, dout):
        return (dout * 3,)

    gx, (gw,) = ms.grad(lambda x: call_with_bprop(body, bprop, (x,)), 0, [w])(Tensor(X))
    np.testing.assert_allclose(gx.asnumpy(), [3, 3, 3])
    np.testing.assert_allclose(gw.asnumpy(), [0, 0, 0])
    assert calls.asnumpy() == 1
    assert isinstance(calls._value, jax.Array) and not isinstance(calls._value, jax.core.Tracer)


def test_non_tensor_arguments_and_tuple_outputs():
    def body(x, scale):
        return x * scale, x + scale

    def bprop(x, scale, out, dout):
        assert scale == 2.0 and isinstance(out, tuple) and isinstance(dout, tuple)
        return dout[0] + dout[1], 0

    g = ms.grad(lambda x: call_with_bprop(body, bprop, (x, 2.0)))(Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), [2, 2, 2])


def test_second_order_differentiates_the_bprop():
    def bprop(x, y, out, dout):
        return dout * out, dout * 2

    def first(x, y):
        return ms.grad(lambda a, b: call_with_bprop(mul, bprop, (a, b)))(x, y)

    g2 = ms.grad(first)(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(g2.asnumpy(), Y)  # d/dx (x * y) with dout = 1


def test_works_under_jit():
    @ms.jit
    def step(x, y):
        return ms.grad(f, (0, 1))(x, y)

    gx, gy = step(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), [10, 10, 10])
    np.testing.assert_allclose(gy.asnumpy(), np.maximum(Y, 0))
