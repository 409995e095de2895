"""numpy values on the left of a Tensor operator (``ndarray == Tensor``,
``ndarray + Tensor``, ``np.float32(2) * Tensor``).

MindSpore's Tensor leaves these to numpy, which compares and computes on the
Tensor's value: ``np.all(out.asnumpy() == expected_tensor)`` (MindSpore's
``test_assignment_ops.py`` and others) compares element-wise. Inside jit the
same expressions run as Tensor ops."""
import operator

import numpy as np
import pytest

import msxla as ms
from msxla import nn
from modes import make

A = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
B = np.array([[1.0, 3.0], [3.0, 5.0]], np.float32)

OPS = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge, "add": operator.add, "sub": operator.sub,
    "mul": operator.mul, "truediv": operator.truediv, "floordiv": operator.floordiv,
    "mod": operator.mod, "pow": operator.pow, "matmul": operator.matmul,
}


def _value(x):
    return x.asnumpy() if isinstance(x, ms.Tensor) else np.asarray(x)


@pytest.mark.parametrize("name", sorted(OPS))
def test_ndarray_left_is_elementwise_numpy(name):
    op = OPS[name]
    out = op(A, ms.Tensor(B))
    assert type(out) is np.ndarray
    np.testing.assert_allclose(out, op(A, B), rtol=1e-6)
    assert out.dtype == op(A, B).dtype


def test_assert_pattern_of_mindspore_tests():
    # tests/st/compiler/syntax/simple_expression/test_assignment_ops.py
    result = 3
    result //= ms.Tensor(np.array([[1, 2], [2, 2]])).astype(np.float16)
    expect = ms.Tensor(np.array([[3, 1], [1, 1]]))
    same = result.asnumpy() == expect
    assert type(same) is np.ndarray and same.dtype == np.bool_
    assert same.all()
    assert not np.all(result.asnumpy() == ms.Tensor(np.array([[3, 1], [1, 2]])))


def test_numpy_scalar_left():
    out = np.float32(2) * ms.Tensor(B)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    np.testing.assert_array_equal(out, 2 * B)
    eq = np.float32(3) == ms.Tensor(B)
    np.testing.assert_array_equal(eq, B == 3)


def test_tensor_left_and_numpy_functions_unchanged():
    t = ms.Tensor(B)
    assert isinstance(t + A, ms.Tensor)
    np.testing.assert_array_equal((t + A).asnumpy(), A + B)
    assert (t == A) is False  # as MindSpore: a Tensor equals no ndarray
    assert isinstance(np.add(A, t), np.ndarray)
    np.testing.assert_array_equal(np.add(A, t), A + B)
    np.testing.assert_allclose(np.sin(t), np.sin(B))
    np.testing.assert_array_equal(np.asarray(t), B)
    assert np.add.reduce(t, axis=None) == B.sum()
    assert isinstance(t.asnumpy(), np.ndarray)
    acc = A.copy()
    acc += t
    np.testing.assert_array_equal(acc, A + B)
    with pytest.raises(TypeError):
        np.add(A, A, out=t)


def _left_ops(x):
    return (A == x, A < x, A + x, A * x, A - x, np.float32(2) * x, A // x)


def _expected():
    return [A == B, A < B, A + B, A * B, A - B, 2 * B, A // B]


def test_in_every_mode(mode):
    out = make(_left_ops, mode)(ms.Tensor(B))
    for got, want in zip(out, _expected()):
        if mode == "pynative":
            assert type(got) is np.ndarray
        else:
            assert isinstance(got, ms.Tensor)
        np.testing.assert_array_equal(_value(got), want)
        assert _value(got).dtype == want.dtype


class _Net(nn.Cell):
    def construct(self, x):
        return A == x, A + x


def test_graph_mode_cell():
    eq, add = make(_Net(), "graph-O0")(ms.Tensor(B))
    np.testing.assert_array_equal(_value(eq), A == B)
    np.testing.assert_array_equal(_value(add), A + B)


def test_under_grad_keeps_the_gradient(mode):
    def loss(x):
        return (A * x).sum()

    grad = make(ms.grad(loss), mode)(ms.Tensor(B))
    np.testing.assert_allclose(_value(grad), A)
