"""``mindspore.ops.auto_generate`` in-place Primitives (``InplaceAddExt``,
``InplaceSubExt``): the write reaches the Tensor, in PyNative and in every capture mode
(GRAPH_MODE included), and the module's other names still resolve."""
import numpy as np
import pytest

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


class IndexAddInPlace(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.operations.InplaceIndexAdd(axis=0)

    def construct(self, x, indices, updates):
        self.op(x, indices, updates)
        return x


def test_inplace_index_add_writes_its_input(any_mode):
    # MindSpore 2.10: [[2, 4], [10, 12], [5, 6]]; the input itself is changed
    x = Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.int32))
    out = make(IndexAddInPlace(), any_mode)(x, Tensor(np.array([0, 1], np.int32)),
                                            Tensor(np.array([[1, 2], [7, 8]], np.int32)))
    assert out.asnumpy().tolist() == [[2, 4], [10, 12], [5, 6]]
    assert x.asnumpy().tolist() == [[2, 4], [10, 12], [5, 6]]


def test_inplace_index_add_on_a_parameter_and_its_checks():
    p = ms.Parameter(Tensor(np.ones((2, 3), np.float32)), name="p")
    out = ops.operations.InplaceIndexAdd(1)(p, Tensor(np.array([2, 0], np.int32)),
                                            Tensor(np.full((2, 2), 2.0, np.float32)))
    assert out is not p
    np.testing.assert_allclose(p.asnumpy(), [[3.0, 1.0, 3.0], [3.0, 1.0, 3.0]])
    with pytest.raises(TypeError, match="axis"):
        ops.operations.InplaceIndexAdd()
    with pytest.raises(TypeError, match="Int32"):
        ops.operations.InplaceIndexAdd(0)(p, Tensor(np.array([0], np.int64)),
                                          Tensor(np.ones((2, 1), np.float32)))
