"""``mindspore.nn.grad.Jvp`` / ``Vjp`` (also ``nn.Jvp`` / ``nn.Vjp``): a network's
Jacobian-vector and vector-Jacobian products as Cells, in every capture mode and in
GRAPH_MODE, against the derivatives worked out by hand (numpy)."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn
from msxla.nn.grad import Jvp, Vjp

from modes import make

X = np.array([1.0, 2.0], np.float32)
Y = np.array([3.0, 4.0], np.float32)
V = np.array([1.0, 0.5], np.float32)


class Cube(nn.Cell):
    def construct(self, x):
        return x ** 3


class TwoOut(nn.Cell):
    def construct(self, x, y):
        return 2 * x, x ** 3 + y


class Product(nn.Cell):
    def construct(self, x, y):
        return x * y


def close(t, want):
    np.testing.assert_allclose(t.asnumpy(), want, rtol=1e-6)


def test_paths():
    assert nn.Jvp is Jvp and nn.Vjp is Vjp


def test_jvp_one_input(any_mode):
    out, d = make(Jvp(Cube()), any_mode)(Tensor(X), Tensor(V))
    close(out, X ** 3)
    close(d, 3 * X ** 2 * V)


def test_jvp_two_inputs_two_outputs(any_mode):
    out, d = make(Jvp(TwoOut()), any_mode)(Tensor(X), Tensor(Y), (Tensor(V), Tensor(V)))
    close(out[0], 2 * X)
    close(out[1], X ** 3 + Y)
    close(d[0], 2 * V)
    close(d[1], 3 * X ** 2 * V + V)


def test_vjp_one_input_gives_a_tensor(any_mode):
    out, g = make(Vjp(Cube()), any_mode)(Tensor(X), Tensor(V))
    close(out, X ** 3)
    assert isinstance(g, Tensor)
    close(g, 3 * X ** 2 * V)


def test_vjp_two_inputs(any_mode):
    out, g = make(Vjp(TwoOut()), any_mode)(Tensor(X), Tensor(Y), (Tensor(V), Tensor(V)))
    close(out[1], X ** 3 + Y)
    close(g[0], 2 * V + 3 * X ** 2 * V)
    close(g[1], V)
    out, g = make(Vjp(Product()), any_mode)(Tensor(X), Tensor(Y), Tensor(V))
    close(out, X * Y)
    close(g[0], Y * V)
    close(g[1], X * V)


def test_jvp_wrong_number_of_tangents():
    with pytest.raises(ValueError, match="v has invalid length"):
        Jvp(TwoOut())(Tensor(X), Tensor(Y), (Tensor(V),))
