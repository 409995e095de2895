"""``mindspore.ops.jet`` / ``derivative``: higher-order derivatives along the inputs'
series, in PyNative and in every capture mode, against closed forms worked out by hand
(the convention: ``x(t) = x + sum_k s_k t^k / k!``, outputs the k-th derivatives)."""
import numpy as np
import pytest

from msxla import Tensor, ops

from modes import make

X = np.array([0.3, -0.7], np.float32)
Y = np.array([1.5, 2.0], np.float32)
S = np.array([[1.0, 0.5], [0.3, 0.0], [0.0, -1.0]], np.float32)


def close(t, want):
    np.testing.assert_allclose(t.asnumpy(), want, rtol=2e-5, atol=2e-5)


def test_paths():
    from msxla.ops.functional import derivative, jet
    assert jet is ops.jet and derivative is ops.derivative


def test_jet_of_exp_along_a_curve(mode):
    out, series = make(lambda x, s: ops.jet(ops.exp, x, s), mode)(Tensor(X), Tensor(S))
    e = np.exp(X)
    s1, s2, s3 = S
    close(out, e)
    close(series, np.stack([s1 * e, (s1 ** 2 + s2) * e, (s1 ** 3 + 3 * s1 * s2 + s3) * e]))


def test_jet_two_inputs_two_outputs(mode):
    def f(x, y):
        return ops.sin(x) * y, ops.cos(y)

    def run(x, y, s):
        return ops.jet(f, (x, y), (s, s))

    out, series = make(run, mode)(Tensor(X), Tensor(Y), Tensor(S[:2]))
    assert isinstance(out, list) and isinstance(series, list)
    close(out[0], np.sin(X) * Y)
    s1, s2 = S[0], S[1]
    # h(t) = sin(x(t)) y(t), both inputs along the same series
    close(series[0][0], s1 * np.cos(X) * Y + np.sin(X) * s1)
    close(series[0][1], (s2 * np.cos(X) - s1 ** 2 * np.sin(X)) * Y
          + 2 * s1 ** 2 * np.cos(X) + np.sin(X) * s2)
    close(series[1][1], -s2 * np.sin(Y) - s1 ** 2 * np.cos(Y))


@pytest.mark.parametrize("order", [1, 3])
def test_derivative(mode, order):
    def run(x, y):
        return ops.derivative(lambda a, b: ops.sin(a) * b, (x, y), order)

    out, d = make(run, mode)(Tensor(X), Tensor(Y))
    close(out, np.sin(X) * Y)
    # d^k/dt^k sin(x + t) (y + t) at 0 = sin^(k)(x) y + k sin^(k-1)(x)
    derivs = [np.sin(X), np.cos(X), -np.sin(X), -np.cos(X)]
    close(d, derivs[order] * Y + order * derivs[order - 1])


def test_bad_arguments():
    with pytest.raises(ValueError, match="order"):
        ops.derivative(ops.exp, Tensor(X), 0)
    with pytest.raises(ValueError, match="shape"):
        ops.jet(ops.exp, Tensor(X), Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(TypeError, match="primals"):
        ops.jet(ops.exp, 1.0, Tensor(S))
