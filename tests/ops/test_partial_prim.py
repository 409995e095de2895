"""``ops.Partial()(fn, *args)`` binds the first arguments, eagerly and inside jit."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from modes import make


def _affine(a, b, x):
    return a * x + b


def _program(x):
    return ops.Partial()(_affine, Tensor(np.float32(2)), 1.0)(x)


def test_partial_primitive(jit_mode):
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_allclose(ops.Partial()(_affine, 3.0)(0.5, Tensor(x)).asnumpy(), 3 * x + 0.5)
    np.testing.assert_allclose(make(_program, jit_mode)(Tensor(x)).asnumpy(), 2 * x + 1)
    with pytest.raises(TypeError, match="must be a function"):
        ops.Partial()(1, 2)
