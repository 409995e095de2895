"""batch_norm's running statistics (in place, eager and under jit) and the LayerNorm /
BatchNorm primitives' extra outputs."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops
from helpers import assert_close

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 3, 2, 2)).astype(np.float32)
W, B = np.ones(3, np.float32) * 2, np.full(3, 0.5, np.float32)


def _stats(x):
    axes = (0, 2, 3)
    return x.mean(axes), x.var(axes), x.var(axes, ddof=1)


def _params():
    return (Parameter(Tensor(np.zeros(3, np.float32)), name="rm"),
            Parameter(Tensor(np.ones(3, np.float32)), name="rv"))


def test_batch_norm_training_updates_parameters_in_place():
    rm, rv = _params()
    y = ops.batch_norm(Tensor(X), rm, rv, Tensor(W), Tensor(B), True, 0.1)
    mean, var, unbiased = _stats(X.astype(np.float64))
    ref = (X - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5) * 2 + 0.5
    assert_close(y, ref.astype(np.float32), rtol=1e-5, atol=1e-5)
    assert_close(rm, (0.1 * mean).astype(np.float32))
    assert_close(rv, (0.9 + 0.1 * unbiased).astype(np.float32))


def test_batch_norm_inference_leaves_stats_and_uses_them():
    rm, rv = _params()
    rm.set_data(Tensor(np.array([0.5, -1.0, 0.0], np.float32)))
    y = ops.batch_norm(Tensor(X), rm, rv, Tensor(W), Tensor(B))
    assert_close(rm, np.array([0.5, -1.0, 0.0], np.float32))
    ref = (X - np.array([0.5, -1.0, 0.0]).reshape(1, 3, 1, 1)) / np.sqrt(1 + 1e-5) * 2 + 0.5
    assert_close(y, ref.astype(np.float32), rtol=1e-5, atol=1e-5)


def test_batch_norm_plain_tensors_are_not_written():
    rm = Tensor(np.zeros(3, np.float32))
    ops.batch_norm(Tensor(X), rm, Tensor(np.ones(3, np.float32)), Tensor(W), Tensor(B), True)
    assert_close(rm, np.zeros(3, np.float32))


def test_batch_norm_under_jit_updates_each_call():
    rm, rv = _params()

    @ms.jit
    def step(x):
        return ops.batch_norm(x, rm, rv, Tensor(W), Tensor(B), True, 0.1)

    step(Tensor(X))
    step(Tensor(X))
    mean, _, unbiased = _stats(X.astype(np.float64))
    assert_close(rm, (0.19 * mean).astype(np.float32), rtol=1e-5, atol=1e-6)
    assert_close(rv, (0.81 + 0.19 * unbiased).astype(np.float32), rtol=1e-5, atol=1e-6)


def test_batch_norm_primitive_outputs_and_update():
    rm, rv = _params()
    out = ops.BatchNorm(True, 1e-5, 0.1)(Tensor(X), Tensor(W), Tensor(B), rm, rv)
    assert len(out) == 5
    mean, var, unbiased = _stats(X.astype(np.float64))
    for got, want in zip(out[1:], (mean, var, mean, var)):
        assert_close(got, want.astype(np.float32), rtol=1e-5, atol=1e-6)
    assert_close(rm, (0.1 * mean).astype(np.float32))
    assert_close(rv, (0.9 + 0.1 * unbiased).astype(np.float32))


@pytest.mark.parametrize("begin", [1, 2, -1])
def test_layer_norm_primitive_mean_and_rstd(begin):
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    shape = x.shape[begin % 3:]
    y, mean, rstd = ops.LayerNorm(begin, begin)(Tensor(x), Tensor(np.ones(shape, np.float32)),
                                                Tensor(np.zeros(shape, np.float32)))
    axes = tuple(range(begin % 3, 3))
    m, v = x.mean(axes, keepdims=True), x.var(axes, keepdims=True)
    assert mean.shape == m.shape and rstd.shape == m.shape
    assert_close(mean, m, rtol=1e-5, atol=1e-6)
    assert_close(rstd, 1 / np.sqrt(v + 1e-7), rtol=1e-4)
    assert_close(y, (x - m) / np.sqrt(v + 1e-7), rtol=1e-4, atol=1e-5)


def test_half_precision_layer_norm_keeps_dtype():
    x = Tensor(RNG.standard_normal((2, 8)).astype(np.float16))
    assert ops.layer_norm(x, (8,)).dtype is ms.float16


def test_layer_norm_shape_mismatch_is_value_error():
    with pytest.raises(ValueError, match="layer_norm"):
        ops.layer_norm(Tensor(np.ones((2, 3), np.float32)), (4,))
