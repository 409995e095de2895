"""``mindspore.ops.function.grad.grad_func.custom_vjp``: ``fn.defbwd(bprop)`` sets the
inputs' gradients to ``bprop(*inputs, out, dout)``; without it ``fn`` is differentiated
as it is. In PyNative and every capture mode, and through ``vjp`` on integer inputs
(differentiated as MindSpore 2.10 does: 2x + y at int32 gives (2, 1))."""
import numpy as np

import msxla as ms
from msxla import Tensor, ops
from msxla.ops.function.grad.grad_func import custom_vjp

from modes import make


@custom_vjp
def mul_add(x, y):
    return 2 * x + y


def bprop_mul_add(x, y, out, dout):
    return 2 * dout, 2 * y


mul_add.defbwd(bprop_mul_add)


@custom_vjp
def plain(x, y):
    return 2 * x + y


def outer(x, y):
    return mul_add(x, y) + x + 2 * y


X = np.array([1.0, 3.0], np.float32)
Y = np.array([2.0, -1.0], np.float32)


def test_bprop_replaces_the_gradient(mode):
    gx, gy = ops.GradOperation(get_all=True)(make(outer, mode))(Tensor(X), Tensor(Y))
    # the custom part gives (2, 2y); the rest adds (1, 2)
    np.testing.assert_allclose(gx.asnumpy(), [3.0, 3.0])
    np.testing.assert_allclose(gy.asnumpy(), 2 * Y + 2)


def test_without_defbwd_and_through_vjp_on_integers():
    gx, gy = ops.GradOperation(get_all=True)(plain)(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), [2.0, 2.0])
    np.testing.assert_allclose(gy.asnumpy(), [1.0, 1.0])
    x, y, v = (Tensor(k, ms.int32) for k in (1, 2, 1))
    _, vjp_fn = ops.vjp(mul_add, x, y)
    assert [int(g) for g in vjp_fn(v)] == [2, 4]
    _, vjp_fn = ops.vjp(plain, x, y)
    assert [(int(g), g.dtype) for g in vjp_fn(v)] == [(2, ms.int32), (1, ms.int32)]
    assert plain(x, y).asnumpy() == 4
