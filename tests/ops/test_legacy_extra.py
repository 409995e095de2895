"""``ScalarToArray`` / ``scalar_to_array`` (MindSpore's documented dtypes; MindSpore 2.10
fails on them) and the deprecated ``ops.operations.identity`` Primitive."""
import numpy as np
import pytest

import msxla as ms
from msxla.ops import functional as F, operations as P


@pytest.mark.parametrize("value,dtype", [(3.5, ms.float32), (2, ms.int64), (True, ms.bool_)])
def test_scalar_to_array(value, dtype):
    for out in (F.scalar_to_array(value), P.ScalarToArray()(value)):
        assert out.shape == () and out.dtype == dtype and out.asnumpy() == np.array(value)
    with pytest.raises(TypeError):
        F.scalar_to_array("x")


def test_identity_primitive_and_function_are_distinct():
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    assert P.identity()(x) is x
    np.testing.assert_array_equal(ms.ops.identity(x).asnumpy(), x.asnumpy())
    assert ms.ops.identity is not P.identity
