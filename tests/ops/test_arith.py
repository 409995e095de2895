"""Binary arithmetic rows against numpy, with MindSpore's promotion."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from helpers import assert_close

RNG = np.random.default_rng(0)
CASES = [
    (ops.add, np.add, lambda a, b: a + b),
    (ops.sub, np.subtract, lambda a, b: a - b),
    (ops.mul, np.multiply, lambda a, b: a * b),
    (ops.maximum, np.maximum, None),
    (ops.minimum, np.minimum, None),
]


@pytest.mark.parametrize("fn, ref, operator", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16])
def test_binary_same_dtype(fn, ref, operator, dtype):
    a = (RNG.standard_normal((2, 3)) * 4).astype(dtype)
    b = (RNG.standard_normal((3,)) * 4).astype(dtype)
    assert_close(fn(Tensor(a), Tensor(b)), ref(a, b))
    if operator is not None:
        assert_close(operator(Tensor(a), Tensor(b)), ref(a, b))


def test_true_division_of_ints_gives_float32():
    a, b = np.array([1, 2, 3]), np.array([2, 2, 2])
    out = Tensor(a) / Tensor(b)
    assert out.dtype is ms.float32
    assert_close(out, (a / b).astype(np.float32))


@pytest.mark.parametrize("mode, ref", [("floor", np.floor_divide), ("trunc", None)])
def test_div_rounding_modes(mode, ref):
    a, b = np.array([-7.0, 7.0, 5.5], np.float32), np.array([2.0, -2.0, 2.0], np.float32)
    expected = ref(a, b) if ref else np.trunc(a / b)
    assert_close(ops.div(Tensor(a), Tensor(b), rounding_mode=mode), expected.astype(np.float32))


def test_floor_divide_and_remainder_follow_python_signs():
    a, b = np.array([-7, 7, -7]), np.array([2, -2, -2])
    assert_close(Tensor(a) // Tensor(b), a // b)
    assert_close(Tensor(a) % Tensor(b), a % b)


@pytest.mark.parametrize("scalar, tdtype, out", [
    (2, ms.float32, ms.float32), (2.5, ms.int32, ms.float32), (2, ms.int32, ms.int32),
    (2.5, ms.float16, ms.float16), (True, ms.int64, ms.int64), (2, ms.bool_, ms.int64),
])
def test_scalar_promotion(scalar, tdtype, out):
    t = Tensor(np.ones(3), tdtype)
    assert (t * scalar).dtype is out and (scalar * t).dtype is out


@pytest.mark.parametrize("a, b, out", [
    (ms.int32, ms.float16, ms.float16), (ms.int8, ms.uint8, ms.int16),
    (ms.float16, ms.bfloat16, ms.float32), (ms.float32, ms.float64, ms.float64),
    (ms.bool_, ms.int8, ms.int8), (ms.int64, ms.float32, ms.float32),
])
def test_tensor_promotion(a, b, out):
    assert (Tensor(np.ones(2), a) + Tensor(np.ones(2), b)).dtype is out


def test_reflected_operators_keep_order():
    t = Tensor(np.array([2.0, 4.0], np.float32))
    assert_close(1.0 - t, np.array([-1.0, -3.0], np.float32))
    assert_close(8.0 / t, np.array([4.0, 2.0], np.float32))
    assert_close(2.0 ** t, np.array([4.0, 16.0], np.float32))


def test_shape_mismatch_names_the_op_and_shapes():
    with pytest.raises(ValueError, match=r"For 'Add'.*\(2, 3\).*\(4, 5\)"):
        ops.add(Tensor(np.ones((2, 3))), Tensor(np.ones((4, 5))))


def test_primitive_signature_matches_mindspore():
    import inspect
    assert list(inspect.signature(ops.div).parameters) == ["input", "other", "rounding_mode"]
    assert ops.add.__name__ == "add"


@pytest.mark.parametrize("scalar", [np.float64(2.0), np.float32(2.0), np.int64(3), np.int8(3)])
def test_numpy_scalars_promote_like_python_scalars(scalar):
    t = Tensor(np.ones(2, np.float32))
    assert (t + scalar).dtype is ms.float32 and (t * scalar).dtype is ms.float32
    assert (Tensor(np.array([1, 2], np.int32)) + np.int64(1)).dtype is ms.int32
