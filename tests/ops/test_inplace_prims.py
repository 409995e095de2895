"""``mindspore.ops.auto_generate`` in-place Primitives (``InplaceAddExt``,
``InplaceSubExt``): the write reaches the Tensor, in PyNative and in every capture mode
(GRAPH_MODE included), and the module's other names still resolve."""
import numpy as np

import msxla as ms
from msxla import Tensor, nn, ops
from msxla.ops.auto_generate import InplaceAddExt, InplaceSubExt, inplace_add_ext_op

from modes import make


class ZerosThenAdd(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = InplaceAddExt()

    def construct(self, a):
        b = ops.zeros_like(a)
        self.op(b, b + 2)
        return b + 1


def test_write_reaches_the_tensor(any_mode):
    out = make(ZerosThenAdd(), any_mode)(Tensor(np.array([1.0, 5.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [3.0, 3.0])


def test_alpha_and_result_is_the_input():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    y = InplaceAddExt()(x, Tensor(np.array([3.0, 4.0], np.float32)), 2)
    assert y is x
    np.testing.assert_allclose(x.asnumpy(), [7.0, 10.0])
    InplaceSubExt()(x, Tensor(np.array([1.0, 1.0], np.float32)), alpha=3)
    np.testing.assert_allclose(x.asnumpy(), [4.0, 7.0])
    np.testing.assert_allclose(inplace_add_ext_op(x, x).asnumpy(), [8.0, 14.0])


def test_paths():
    from msxla.ops.auto_generate import ones
    from msxla.ops.auto_generate.gen_ops_prim import InplaceAddExt as prim
    assert ones is ms.ops.ones and prim is InplaceAddExt
