"""``mindspore.ops.operations._inner_ops.TopTypeof``: the top-level type of a value, as
MindSpore 2.10 gives it (asked of the oracle: Tensor -> TensorType, 3 -> int_,
2.5 -> float32, True -> bool_, strings, None, tuples, lists, slices), in every mode."""
import numpy as np

import msxla as ms
from msxla import Tensor, ops
from msxla.common import dtype as mstype
from msxla.ops.operations._inner_ops import TopTypeof

from modes import make


def test_top_types():
    t = TopTypeof()
    assert isinstance(t(Tensor([1.0])), mstype.TensorType)
    assert isinstance(t(Tensor([True])), mstype.TensorType)
    assert t(3) is mstype.int_ and t(True) is mstype.bool_ and t(2.5) is mstype.float32
    assert t("s") is mstype.string and t(None) is mstype.type_none
    assert str(t((1, 2.0))) == "Tuple" and str(t([1])) == "List"
    assert str(t(slice(1, 2))) == "Slice"
    assert not isinstance(t((1,)), mstype.TensorType)


def test_the_tensor_idiom_in_every_mode(mode):
    def index_dims(x, index):
        dims = 0
        for i in index:
            is_bool_tensor = isinstance(TopTypeof()(i), mstype.TensorType) and i.dtype == ms.bool_
            dims += i.ndim if is_bool_tensor else 1
        return x * dims

    out = make(index_dims, mode)(Tensor(np.ones(2, np.float32)),
                                 (Tensor(np.array([[True, False]])), 1))
    np.testing.assert_allclose(out.asnumpy(), [3.0, 3.0])
    assert ops.operations._inner_ops.TopTypeof is TopTypeof
