"""In-place Tensor methods: the Tensor itself changes (cast to its dtype), the
method returns it, and the same holds under jit (the argument is written back)."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor
from helpers import assert_close

A = np.array([[1.0, -2.0], [3.5, 0.25]], np.float32)
B = np.array([[0.5, 2.0], [-1.0, 4.0]], np.float32)

CASES = [
    ("add_", (Tensor(B),), {"alpha": 2}, A + 2 * B),
    ("sub_", (Tensor(B),), {}, A - B),
    ("mul_", (Tensor(B),), {}, A * B),
    ("div_", (Tensor(B),), {}, A / B),
    ("clamp_", (0.0, 1.0), {}, np.clip(A, 0, 1)),
    ("fill_", (7.0,), {}, np.full_like(A, 7)),
    ("zero_", (), {}, np.zeros_like(A)),
    ("copy_", (Tensor(B),), {}, B),
    ("exp_", (), {}, np.exp(A)),
    ("tanh_", (), {}, np.tanh(A)),
    ("floor_", (), {}, np.floor(A)),
    ("masked_fill_", (Tensor(A > 1),), {"value": 0.0}, np.where(A > 1, 0, A)),
]


@pytest.mark.parametrize("name, args, kwargs, expected", CASES, ids=[c[0] for c in CASES])
def test_in_place_eagerly(name, args, kwargs, expected):
    t = Tensor(A.copy())
    out = getattr(t, name)(*args, **kwargs)
    assert out is t
    assert_close(t, expected.astype(np.float32), rtol=1e-6)


def test_result_is_cast_to_the_tensor_dtype():
    t = Tensor(np.array([1, 2, 3], np.int32))
    t.add_(Tensor(np.array([0.5, 1.5, 0.5], np.float32)))
    assert t.dtype is ms.int32 and t.tolist() == [1, 3, 3]


def test_shape_change_is_refused():
    with pytest.raises(ValueError, match="cannot change the shape"):
        Tensor(np.ones(3, np.float32)).add_(Tensor(np.ones((2, 3), np.float32)))


def test_in_place_under_jit_writes_back(jit_mode):
    capture_mode, level = jit_mode.split("-")
    g = ms.jit(lambda x, y: x.mul_(y) + 0, capture_mode=capture_mode, jit_level=level)
    x = Tensor(A.copy())
    out = g(x, Tensor(B))
    assert_close(out, A * B) and assert_close(x, A * B)


def test_in_place_on_a_parameter_under_jit(jit_mode):
    capture_mode, level = jit_mode.split("-")
    p = Parameter(Tensor(A.copy()), name="p")
    g = ms.jit(lambda y: p.add_(y) * 1, capture_mode=capture_mode, jit_level=level)
    g(Tensor(B))
    g(Tensor(B))
    assert_close(p, A + 2 * B)
