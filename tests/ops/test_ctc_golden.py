"""CTC losses against MindSpore 2.10 (tests/golden/make_ctc.py): ``ops.ctc_loss``
(loss, log_alpha, gradient), ``nn.CTCLoss`` and the ``ops.CTCLoss`` Primitive.

Where MindSpore's CPU kernels give values its documentation does not
(``zero_infinity`` leaves the loss infinite; ``CTCLoss`` leaves gradient
entries past a sample's sequence length, and the loss of a sample that
``ignore_longer_outputs_than_inputs`` ignores, uninitialised), msxla follows the
documentation (0) and those entries are not compared.
"""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn, ops

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden", "ctc.json")))
LP = np.array(GOLDEN["log_probs"], np.float32)


def _arr(d):
    a = np.array(d["data"], np.float64).reshape(d["shape"])
    big = np.abs(np.nan_to_num(a)) >= 1e37
    return np.where(big, np.copysign(np.inf, np.nan_to_num(a)), a)


def _args(case):
    return (Tensor(LP), Tensor(np.array(case["targets"], np.int32)),
            Tensor(np.array(case["input_lengths"], np.int32)),
            Tensor(np.array(case["target_lengths"], np.int32)))


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["name"])
def test_ctc_loss(case):
    args = _args(case)
    kw = dict(blank=case["blank"], reduction=case["reduction"],
              zero_infinity=case["zero_infinity"])
    loss, log_alpha = ops.ctc_loss(*args, **kw)
    want = _arr(case["loss"])
    if case["zero_infinity"]:
        want = np.where(np.isinf(want), 0.0, want)  # documented; the CPU kernel keeps inf
    np.testing.assert_allclose(loss.asnumpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(log_alpha.asnumpy(), _arr(case["log_alpha"]), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("case", [pytest.param(c, marks=() if c["name"] == "impossible" else
                                               pytest.mark.slow) for c in GOLDEN["cases"]],
                         ids=lambda c: c["name"])
def test_ctc_loss_grad(case):
    args = _args(case)
    kw = dict(blank=case["blank"], reduction=case["reduction"],
              zero_infinity=case["zero_infinity"])
    grad = ms.grad(lambda x: ops.ctc_loss(x, *args[1:], **kw)[0].sum())(args[0]).asnumpy()
    want_grad = _arr(case["grad"])
    possible = ~np.isnan(want_grad)  # an impossible target's gradient is NaN in MindSpore
    np.testing.assert_allclose(grad[possible], want_grad[possible], rtol=1e-4, atol=1e-5)


def test_nn_ctc_loss_and_jit():
    case = GOLDEN["cases"][0]
    net = nn.CTCLoss(blank=0, reduction="mean")
    want = _arr(GOLDEN["nn_mean"])
    np.testing.assert_allclose(net(*_args(case)).asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(ms.jit(net.construct)(*_args(case)).asnumpy(), want, rtol=1e-5)


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow if c["flags"] else ())
                                  for c in GOLDEN["prim"]],
                         ids=lambda c: ",".join(c["flags"]) or "default")
def test_ctc_loss_primitive(case):
    x = np.array(GOLDEN["x"], np.float32)
    seq = np.array(case["sequence_length"], np.int32)
    loss, grad = ops.CTCLoss(**case["flags"])(
        Tensor(x), Tensor(np.array(case["indices"], np.int64)),
        Tensor(np.array(case["values"], np.int32)), Tensor(seq))
    want_loss, want_grad = _arr(case["loss"]), _arr(case["grad"])
    ignored = np.isinf(want_loss)
    np.testing.assert_allclose(loss.asnumpy()[~ignored], want_loss[~ignored], rtol=1e-5)
    assert (loss.asnumpy()[ignored] == 0).all()
    valid = (np.arange(x.shape[0])[:, None] < seq[None, :]) & ~ignored[None, :]
    np.testing.assert_allclose(grad.asnumpy()[valid], want_grad[valid], rtol=1e-4, atol=1e-6)
    assert (grad.asnumpy()[~valid] == 0).all()
