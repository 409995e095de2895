"""nn losses: LossBase.get_loss, custom losses, dtypes and losses under jit and grad
(values of the built-in losses are compared with MindSpore in test_layers_golden.py)."""
import numpy as np
import pytest

import msxla as ms
from msxla import nn, ops

RNG = np.random.default_rng(11)


def tensor(*shape, dtype=np.float32):
    return ms.Tensor(RNG.standard_normal(shape).astype(dtype))


class WeightedL2(nn.LossBase):
    """A user loss in MindSpore's style: per-element loss, then get_loss(x, weights)."""

    def __init__(self, weights, reduction="mean"):
        super().__init__(reduction)
        self.weights = weights

    def construct(self, logits, labels):
        return self.get_loss(ops.square(logits - labels), self.weights)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_get_loss_weights_and_reduction(reduction):
    x, y = tensor(3, 4), tensor(3, 4)
    w = ms.Tensor(np.array([[1.0, 2.0, 0.5, 0.0]], np.float32))
    got = WeightedL2(w, reduction)(x, y).asnumpy()
    per = (x.asnumpy() - y.asnumpy()) ** 2 * w.asnumpy()
    want = {"mean": per.mean(), "sum": per.sum(), "none": per}[reduction]
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_get_loss_computes_in_float32_and_returns_the_input_dtype():
    x = ms.Tensor(np.full((4,), 300.0, np.float16))
    out = nn.LossBase("sum").get_loss(x * x)  # 4 * 90000 overflows float16
    assert out.dtype == ms.float16
    assert np.isinf(out.asnumpy())
    out32 = nn.LossBase("mean").get_loss(ms.Tensor(np.array([1.0, 2.0], np.float16)), 2.0)
    np.testing.assert_allclose(out32.asnumpy(), 3.0)
    assert nn.LossBase().get_axis(tensor(2, 3, 4)) == (0, 1, 2)


def test_lossbase_construct_is_abstract():
    with pytest.raises(NotImplementedError):
        nn.LossBase()(tensor(2), tensor(2))


def test_loss_rejects_non_tensor_inputs():
    with pytest.raises(TypeError, match="'MSELoss', the 'labels' must be 'Tensor'"):
        nn.MSELoss()(tensor(2), 1.0)


def test_softmax_cross_entropy_sparse_and_one_hot_agree():
    logits = tensor(6, 5)
    labels = ms.Tensor(RNG.integers(0, 5, 6).astype(np.int32))
    one_hot = ms.Tensor(np.eye(5, dtype=np.float32)[labels.asnumpy()])
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(logits, labels)
    dense = nn.SoftmaxCrossEntropyWithLogits(reduction="mean")(logits, one_hot)
    ce = nn.CrossEntropyLoss()(logits, labels)
    lp = logits.asnumpy() - np.log(np.exp(logits.asnumpy()).sum(-1, keepdims=True))
    want = -lp[np.arange(6), labels.asnumpy()].mean()
    for got in (sparse, dense, ce):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)


def test_losses_under_jit_and_grad_match_eager():
    logits = tensor(4, 3)
    labels = ms.Tensor(np.array([0, 2, 1, 2], np.int32))
    loss = nn.CrossEntropyLoss(label_smoothing=0.1)
    grad = ms.value_and_grad(lambda x: loss(x, labels))
    run = ms.jit(grad, capture_mode="trace")
    (v_e, g_e), (v_j, g_j) = grad(logits), run(logits)
    np.testing.assert_allclose(v_j.asnumpy(), v_e.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(g_j.asnumpy(), g_e.asnumpy(), rtol=1e-6)
    # d/dx of mean CE is (softmax - smoothed one-hot) / N
    p = np.exp(logits.asnumpy())
    p /= p.sum(-1, keepdims=True)
    target = np.eye(3)[labels.asnumpy()] * 0.9 + 0.1 / 3
    np.testing.assert_allclose(g_e.asnumpy(), (p - target) / 4, rtol=1e-4, atol=1e-6)


def test_rmse_and_mae():
    x, y = tensor(5), tensor(5)
    d = x.asnumpy() - y.asnumpy()
    np.testing.assert_allclose(nn.RMSELoss()(x, y).asnumpy(), np.sqrt((d ** 2).mean()),
                               rtol=1e-5)
    np.testing.assert_allclose(nn.MAELoss("sum")(x, y).asnumpy(), np.abs(d).sum(), rtol=1e-5)


def test_bce_with_logits_rejects_parameter_weights():
    w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")
    with pytest.raises(TypeError, match="'weight' can not be a Parameter"):
        nn.BCEWithLogitsLoss(weight=w)
