"""``mindspore.ops.linearize``: the output and a reusable Jacobian-vector product, in
PyNative and inside every capture mode, against derivatives worked out by hand."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops

from modes import make

X = np.array([1.0, 2.0], np.float32)
Y = np.array([3.0, 4.0], np.float32)
V = np.array([1.0, 0.5], np.float32)


def cube(x):
    return x ** 3


def pair(x, y):
    return 2 * x, y ** 3


def test_paths():
    from msxla.ops.functional import linearize
    assert linearize is ops.linearize


def test_one_input_many_tangents(mode):
    def f(x, v, w):
        out, jvp_fn = ops.linearize(cube, x)
        return out, jvp_fn(v), jvp_fn(w)

    out, a, b = make(f, mode)(Tensor(X), Tensor(V), Tensor(Y))
    np.testing.assert_allclose(out.asnumpy(), X ** 3)
    np.testing.assert_allclose(a.asnumpy(), 3 * X ** 2 * V)
    np.testing.assert_allclose(b.asnumpy(), 3 * X ** 2 * Y)


def test_two_inputs_two_outputs(mode):
    def f(x, y, v):
        out, jvp_fn = ops.linearize(pair, (x, y))
        return out, jvp_fn((v, v))

    out, tan = make(f, mode)(Tensor(X), Tensor(Y), Tensor(V))
    np.testing.assert_allclose(out[1].asnumpy(), Y ** 3)
    np.testing.assert_allclose(tan[0].asnumpy(), 2 * V)
    np.testing.assert_allclose(tan[1].asnumpy(), 3 * Y ** 2 * V)


def test_agrees_with_jvp():
    out, jvp_fn = ops.linearize(pair, (Tensor(X), Tensor(Y)))
    _, want = ms.jvp(pair, (Tensor(X), Tensor(Y)), (Tensor(V), Tensor(Y)))
    got = jvp_fn((Tensor(V), Tensor(Y)))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy())


def test_wrong_number_of_tangents():
    _, jvp_fn = ops.linearize(pair, (Tensor(X), Tensor(Y)))
    with pytest.raises(ValueError, match="v has invalid length"):
        jvp_fn(Tensor(V))
    with pytest.raises(TypeError, match="inputs"):
        ops.linearize(cube, 3.0)
