"""``ops.Custom`` with ``func_type="pyfunc"``: numpy results eagerly and in every capture
mode, several outputs with their dtypes, ``bprop`` gradients, and MindSpore's errors."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from modes import make

X = np.arange(6, dtype=np.float32).reshape(2, 3)
Y = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)


def _f(x, y):
    return x * 2 + np.sin(y)


def _two(x):
    return x + 1, (x * 3).astype(np.int32)


OP = ops.Custom(_f, out_shape=lambda x, y: x, out_dtype=lambda x, y: x, func_type="pyfunc")


def _program(a, b):
    return OP(a, b) * 3


def test_pyfunc_eager_and_multi_output():
    np.testing.assert_allclose(OP(Tensor(X), Tensor(Y)).asnumpy(), _f(X, Y), rtol=1e-6)
    two = ops.Custom(_two, out_shape=([2, 3], [2, 3]), out_dtype=(ms.float32, ms.int32),
                     func_type="pyfunc")
    a, b = two(Tensor(X))
    assert b.dtype == ms.int32
    np.testing.assert_array_equal(a.asnumpy(), X + 1)
    np.testing.assert_array_equal(b.asnumpy(), (X * 3).astype(np.int32))


def test_pyfunc_in_jit(jit_mode):
    fn = make(_program, jit_mode)
    for shift in (0.0, 1.0):
        got = fn(Tensor(X + shift), Tensor(Y))
        np.testing.assert_allclose(got.asnumpy(), _f(X + shift, Y) * 3, rtol=1e-6)


def test_bprop_gives_the_gradient():
    def bprop(x, y, out, dout):
        return dout * 2, dout * Tensor(np.cos(y.asnumpy()))

    op = ops.Custom(_f, out_shape=lambda x, y: x, out_dtype=lambda x, y: x, func_type="pyfunc",
                    bprop=bprop)
    gx, gy = ms.grad(lambda a, b: op(a, b).sum(), grad_position=(0, 1))(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), np.full_like(X, 2))
    np.testing.assert_allclose(gy.asnumpy(), np.cos(Y), rtol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="'out_shape' must be one of"):
        ops.Custom(_f, func_type="pyfunc")
    with pytest.raises(TypeError, match="func_type='pyfunc'"):
        ops.Custom("./kernel.so:add", out_shape=[2], out_dtype=ms.float32, func_type="aot")
