"""Recurrent layers against MindSpore 2.10 (goldens from ``tests/golden/make_nn_rnn.py``):
outputs, final states and gradients (inputs, initial states, weights) with the same
weights, eagerly and under jit; errors, reprs, Parameter names and signatures."""
import numpy as np
import pytest

import msxla as ms
from layer_golden import check_case, check_error, check_repr, check_signature, load

import make_nn_rnn  # noqa: E402 - tests/golden is on sys.path (layer_golden)

DATA = load("nn_rnn.json")
EAGER = {"lstm", "gru_seq_length", "lstm_bi_seq_length_state", "rnncell", "lstmcell"}


@pytest.mark.parametrize("name", sorted(DATA["cases"]))
def test_rnn_matches_mindspore(name):
    check_case(DATA, name, "eager" if name in EAGER else "jit", make_nn_rnn.CASES)


def test_goldens_cover_every_case():
    assert set(DATA["cases"]) == set(make_nn_rnn.CASES)


@pytest.mark.parametrize("code", sorted(DATA["errors"]))
def test_invalid_arguments_raise_like_mindspore(code):
    check_error(DATA, code)


@pytest.mark.parametrize("code", sorted(DATA["reprs"]))
def test_repr_and_parameter_names(code):
    check_repr(DATA, code)


@pytest.mark.parametrize("cls_name", sorted(DATA["signatures"]))
def test_constructor_signature(cls_name):
    check_signature(DATA, cls_name)


def test_dropout_between_layers_in_training():
    net = ms.nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((6, 2, 3)).astype(np.float32))
    eval_out = net(x)[0].asnumpy()
    net.set_train()
    train_out = net(x)[0].asnumpy()
    assert train_out.shape == eval_out.shape
    assert not np.allclose(train_out, eval_out)  # the second layer saw dropped inputs


def test_one_compiled_loop_for_any_length():
    net = ms.nn.GRU(3, 4)
    f = ms.jit(lambda x: net(x)[0], capture_mode="trace")
    text = f.lower(ms.Tensor(np.ones((50, 2, 3), np.float32))).as_text()
    assert text.count("stablehlo.while") == 1


def test_every_capture_mode_equals_pynative(mode):
    from modes import make
    np.random.seed(1)
    net = ms.nn.LSTM(3, 4, bidirectional=True, batch_first=True)
    x = ms.Tensor(np.random.default_rng(2).standard_normal((2, 5, 3)).astype(np.float32))
    lengths = ms.Tensor(np.array([5, 3], np.int32))

    def step(x, lengths):
        out, (h, c) = net(x, seq_length=lengths)
        return out.sum() + h.sum() * 2 + c.mean()

    grad = ms.value_and_grad(step, 0, net.trainable_params())
    expected_loss, (expected_gx, expected_gw) = grad(x, lengths)
    loss, (gx, gw) = make(grad, mode)(x, lengths)
    np.testing.assert_allclose(loss.asnumpy(), expected_loss.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(gx.asnumpy(), expected_gx.asnumpy(), rtol=1e-5, atol=1e-6)
    for a, e in zip(gw, expected_gw):
        np.testing.assert_allclose(a.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-6)
