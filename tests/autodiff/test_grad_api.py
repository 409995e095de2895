"""Grad-API behaviour beyond the goldens: non-float inputs, containers, errors.

Where MindSpore returns an unusable result (a gradient through an integer
input cast back to int, an empty tuple for a tuple argument, a wrong value
with ``return_ids`` on one non-zero position), msxla returns the
well-defined one documented in ``msxla/autodiff/grad.py``.
"""
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

X = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
Y = Tensor(np.array([0.5, -1.0, 2.0], np.float32))


def mul(x, y):
    return x * y


def test_tuple_argument_gets_a_tuple_of_gradients():
    def f(pair, z):
        return pair[0] * pair[1] * z

    g = ms.grad(f, 0)((X, Y), X)
    assert isinstance(g, tuple) and len(g) == 2
    np.testing.assert_allclose(g[0].asnumpy(), Y.asnumpy() * X.asnumpy())
    np.testing.assert_allclose(g[1].asnumpy(), X.asnumpy() ** 2)


def test_return_ids_single_nonzero_position_pairs_the_full_gradient():
    out = ms.grad(mul, 1, return_ids=True)(X, Y)
    assert isinstance(out, tuple) and len(out) == 1 and out[0][0] == 1
    np.testing.assert_allclose(out[0][1].asnumpy(), X.asnumpy())
    np.testing.assert_allclose(ms.get_grad(out, 1).asnumpy(), X.asnumpy())
    with pytest.raises(RuntimeError):
        ms.get_grad(out, 0)
    with pytest.raises(TypeError):
        ms.get_grad(out, "x")


def test_vjp_fn_can_be_called_again():
    out, fn = ms.vjp(mul, X, Y)
    a, b = fn(Tensor(np.ones(3, np.float32)))
    c, d = fn(Tensor(np.full(3, 2.0, np.float32)))
    np.testing.assert_allclose(c.asnumpy(), 2 * a.asnumpy())
    np.testing.assert_allclose(d.asnumpy(), 2 * b.asnumpy())


def test_sens_is_cast_to_the_output_dtype_and_shape_checked():
    g = ms.grad(mul, 0, sens_param=True)(X, Y, Tensor(np.array([1.0, 2.0, 3.0])))
    assert g.dtype == ms.float32
    np.testing.assert_allclose(g.asnumpy(), [0.5, -2, 6])
    with pytest.raises(ValueError, match="shape of sens"):
        ms.grad(mul, 0, sens_param=True)(X, Y, Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="one Tensor per output"):
        ms.grad(mul, 0, sens_param=True)(X, Y, (X, X))


def test_python_outputs_pass_through():
    def f(x):
        return x * 2, {"n": 3, "t": x}, None, "tag"

    out, g = ms.value_and_grad(f)(X)
    assert out[1]["n"] == 3 and out[2] is None and out[3] == "tag"
    np.testing.assert_allclose(out[1]["t"].asnumpy(), X.asnumpy())
    np.testing.assert_allclose(g.asnumpy(), [3, 3, 3])  # every Tensor output gets ones


def test_has_aux_with_python_aux():
    g, aux = ms.grad(lambda x: (x * 2, 5, None), has_aux=True)(X)
    assert aux == (5, None)
    np.testing.assert_allclose(g.asnumpy(), [2, 2, 2])


def test_cell_and_grad_operation_with_discovered_weights():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")
            self.frozen = Parameter(Tensor(np.ones(3, np.float32)), requires_grad=False)

        def construct(self, x):
            return x * self.w * self.frozen

    net = Net()
    gx, (gw,) = ms.grad(net, 0, net.trainable_params())(X)
    np.testing.assert_allclose(gx.asnumpy(), [2, 3, 4])
    np.testing.assert_allclose(gw.asnumpy(), X.asnumpy())
    (gw2,) = ops.GradOperation(get_by_list=True)(net)(X)
    np.testing.assert_allclose(gw2.asnumpy(), X.asnumpy())


# ------------------------------------------------------------------ errors
HERE = os.path.basename(__file__)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: ms.grad(mul, (0, 0)), ValueError, "grad_position"),
    (lambda: ms.grad(mul, [0]), TypeError, "grad_position"),
    (lambda: ms.grad(mul, -2), ValueError, "grad_position"),
    (lambda: ms.grad(mul, None, None), ValueError, "weights"),
    (lambda: ms.grad(mul, 0, "w"), TypeError, "weights"),
    (lambda: ms.grad(mul, 0, [X, 3]), TypeError, "weights"),
    (lambda: ms.grad(mul, 0, has_aux="yes"), TypeError, "has_aux"),
    (lambda: ms.value_and_grad(mul, 0, sens_param=1), TypeError, "sens_param"),
    (lambda: ops.GradOperation(sens_param=None), TypeError, "sens_param"),
    (lambda: ms.jacfwd(mul, 0, has_aux=0), TypeError, "has_aux"),
])
def test_bad_options_raise_at_creation(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    assert words in str(info.value) and HERE in str(info.value)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: ms.grad(mul, 2)(X, Y), RuntimeError, "position index 2"),
    (lambda: ms.grad(3)(X), TypeError, "fn should be callable"),
    (lambda: ms.grad(mul, 0, sens_param=True)(), TypeError, "sens"),
    (lambda: ms.grad(mul, has_aux=True)(X, Y), ValueError, "has_aux"),
    (lambda: ms.vjp(mul, X, 3), TypeError, "inputs"),
    (lambda: ms.jvp(mul, (X, Y), (X,)), ValueError, "length"),
    (lambda: ms.jvp(mul, (X, Y), (X, Tensor(np.ones(2, np.float32)))), ValueError, "shape"),
    (lambda: ms.jacrev(mul, 1)(X, 2.0), TypeError, "grad_position 1"),
])
def test_bad_calls_raise(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    assert words in str(info.value) and HERE in str(info.value)


def test_values_are_readable_inside_a_differentiated_function():
    """PyNative: asnumpy, float() and `if` on values work inside grad (not inside jit)."""
    seen = []

    def f(x):
        seen.append((x.asnumpy().copy(), float(ops.sum(x))))
        if ops.sum(x) > 0:
            return x * 2
        return x * 3

    np.testing.assert_allclose(ms.grad(f)(X).asnumpy(), [2, 2, 2])
    np.testing.assert_allclose(ms.grad(f)(-X).asnumpy(), [3, 3, 3])
    np.testing.assert_allclose(seen[0][0], X.asnumpy())
    assert seen[0][1] == 6.0
    np.testing.assert_allclose(ms.jvp(f, X, X)[1].asnumpy(), 2 * X.asnumpy())


def test_discovered_weights_with_value_dependent_python():
    w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")
    v = Parameter(Tensor(np.ones(3, np.float32)), name="v")
    m = Parameter(Tensor(np.zeros(3, np.float32)), name="m", requires_grad=False)

    def f(x):
        ops.assign(m, m + 1)
        if ops.sum(x) > 0:
            return x * w
        return x * v

    (gw,) = ops.GradOperation(get_by_list=True)(f)(X)
    np.testing.assert_allclose(gw.asnumpy(), X.asnumpy())
    np.testing.assert_allclose(m.asnumpy(), [1, 1, 1])  # discovery does not write
