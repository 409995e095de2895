"""``ops.Morph(fn, infer_shape, infer_dtype, bprop_fn)``: calls ``fn`` and is
differentiated through it, or through ``bprop_fn`` when given, in PyNative and every
capture mode (MindSpore 2.10 expands it before differentiation the same way)."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

from modes import make


def same(*args):
    return args[0]


def scale(x, k):
    return x * k * k


class Net(nn.Cell):
    def __init__(self, bprop_fn=None):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
        self.morph = ops.Morph(scale, same, same, bprop_fn)

    def construct(self, x):
        return self.morph(x * self.w, Tensor(3.0, ms.float32)) * self.w


X = np.array([7.0, 8.0, 9.0], np.float32)
W = np.array([1.0, 2.0, 3.0], np.float32)


def test_differentiated_through_fn(any_mode):
    net = Net()
    (gx,), (gw,) = ops.GradOperation(get_all=True, get_by_list=True)(
        make(net, any_mode), net.trainable_params())(Tensor(X))
    # out = 9 x w^2: d/dx = 9 w^2, d/dw = 18 x w
    np.testing.assert_allclose(gx.asnumpy(), 9 * W * W, rtol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), 18 * X * W, rtol=1e-6)


def test_bprop_fn_gives_the_inputs_gradients(mode):
    def bprop(x, k, out, dout):
        return dout * 100, k * 0
    net = Net(bprop)
    gx = ops.GradOperation()(make(net, mode))(Tensor(X))
    # d/dx through the morph is 100 (its bprop), then * w before and after
    np.testing.assert_allclose(gx.asnumpy(), 100 * W * W, rtol=1e-6)


def test_is_a_primitive_and_checks_its_functions():
    assert issubclass(ops.Morph, ops.Primitive) and ops.operations.Morph is ops.Morph
    with pytest.raises(TypeError, match="'fn' must be a function"):
        ops.Morph(1, same, same)
