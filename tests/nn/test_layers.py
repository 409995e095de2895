"""nn layers: behaviour the goldens do not pin down (random masks, initializer
distributions, state under jit, gradients MindSpore's CPU build gets wrong)."""
import math

import numpy as np
import pytest

import msxla as ms
from msxla import nn, ops

RNG = np.random.default_rng(7)


def tensor(*shape):
    return ms.Tensor(RNG.standard_normal(shape).astype(np.float32))


def test_batchnorm_train_under_jit_matches_eager():
    xs = [tensor(4, 3, 2, 2) for _ in range(3)]
    eager, jitted = nn.BatchNorm2d(3, momentum=0.7), nn.BatchNorm2d(3, momentum=0.7)
    eager.set_train()
    jitted.set_train()
    run = ms.jit(jitted, capture_mode="trace")
    for x in xs:
        np.testing.assert_allclose(run(x).asnumpy(), eager(x).asnumpy(), rtol=1e-6, atol=1e-6)
    for name in ("moving_mean", "moving_variance"):
        np.testing.assert_allclose(getattr(jitted, name).asnumpy(),
                                   getattr(eager, name).asnumpy(), rtol=1e-6, err_msg=name)
    # MindSpore's convention: moving = momentum * moving + (1 - momentum) * batch.
    mean = np.zeros(3)
    for x in xs:
        mean = 0.7 * mean + 0.3 * x.asnumpy().mean((0, 2, 3))
    np.testing.assert_allclose(eager.moving_mean.asnumpy(), mean, rtol=1e-5, atol=1e-6)


def test_batchnorm_eval_uses_moving_statistics():
    bn = nn.BatchNorm1d(2, eps=0.0)
    bn.moving_mean.set_data(ms.Tensor(np.array([1.0, -1.0], np.float32)))
    bn.moving_variance.set_data(ms.Tensor(np.array([4.0, 0.25], np.float32)))
    x = tensor(3, 2)
    want = (x.asnumpy() - [1.0, -1.0]) / np.sqrt([4.0, 0.25])
    np.testing.assert_allclose(bn(x).asnumpy(), want, rtol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), [1.0, -1.0])


def test_dropout_is_identity_in_eval_and_scales_in_train():
    x = ms.Tensor(np.ones((200, 50), np.float32))
    drop = nn.Dropout(p=0.3)
    np.testing.assert_array_equal(drop(x).asnumpy(), x.asnumpy())
    drop.set_train()
    out = drop(x).asnumpy()
    kept = out != 0
    assert abs(1 - kept.mean() - 0.3) < 0.02
    np.testing.assert_allclose(out[kept], 1 / 0.7, rtol=1e-6)
    assert not np.array_equal(drop(x).asnumpy() != 0, kept)  # a new mask every call
    legacy = nn.Dropout(keep_prob=0.8).set_train()
    assert abs((legacy(x).asnumpy() != 0).mean() - 0.8) < 0.02


def test_dropout_under_jit_draws_new_masks():
    drop = nn.Dropout(p=0.5).set_train()
    run = ms.jit(drop, capture_mode="trace")
    x = ms.Tensor(np.ones((64, 64), np.float32))
    a, b = run(x).asnumpy(), run(x).asnumpy()
    assert set(np.unique(a)) <= {0.0, 2.0}
    assert not np.array_equal(a, b)


def test_channel_dropout_zeroes_whole_channels():
    x = ms.Tensor(np.ones((8, 16, 3, 3), np.float32))
    out = nn.Dropout2d(0.5).set_train()(x).asnumpy()
    per_channel = out.reshape(8, 16, -1)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2).all(-1))


def _uniform_bound_ok(values, bound):
    values = np.asarray(values).ravel()
    assert np.all(np.abs(values) <= bound + 1e-7)
    # U(-b, b) has standard deviation b / sqrt(3)
    assert abs(values.std() - bound / math.sqrt(3)) < 0.15 * bound


def test_default_initializers_follow_mindspore():
    ms.set_seed(3)
    dense = nn.Dense(64, 128)
    _uniform_bound_ok(dense.weight.asnumpy(), 1 / math.sqrt(64))
    _uniform_bound_ok(dense.bias.asnumpy(), 1 / math.sqrt(64))
    conv = nn.Conv2d(8, 32, 3, has_bias=True)
    _uniform_bound_ok(conv.weight.asnumpy(), 1 / math.sqrt(8 * 9))
    _uniform_bound_ok(conv.bias.asnumpy(), 1 / math.sqrt(8 * 9))
    assert nn.Conv1d(4, 6, 5).weight.shape == (6, 4, 1, 5)
    assert nn.Conv2dTranspose(4, 6, 3, group=2).weight.shape == (4, 3, 3, 3)
    table = nn.Embedding(100, 50).embedding_table.asnumpy()
    assert abs(table.std() - 0.01) < 0.001
    mha = nn.MultiheadAttention(16, 4)
    _uniform_bound_ok(mha.in_proj_weight.asnumpy(), math.sqrt(6 / (16 + 48)))
    np.testing.assert_array_equal(mha.in_proj_bias.asnumpy(), 0)
    bn = nn.BatchNorm2d(3)
    for p, v in ((bn.gamma, 1), (bn.beta, 0), (bn.moving_mean, 0), (bn.moving_variance, 1)):
        np.testing.assert_array_equal(p.asnumpy(), v)
    assert not bn.moving_mean.requires_grad and bn.gamma.requires_grad
    assert not nn.BatchNorm2d(3, affine=False).gamma.requires_grad


def test_embedding_padding_row_starts_at_zero():
    emb = nn.Embedding(5, 3, embedding_table="ones", padding_idx=2)
    table = emb.embedding_table.asnumpy()
    np.testing.assert_array_equal(table[2], 0)
    np.testing.assert_array_equal(np.delete(table, 2, 0), 1)


def test_embedding_lookup_out_of_range_ids_and_max_norm(jit_mode):
    # MindSpore 2.10: ids outside [0, 4) give zero rows; a ones row with max_norm=0.5
    # becomes 0.5 / sqrt(2) in each place
    from modes import make
    emb = nn.EmbeddingLookup(4, 2, param_init="ones", max_norm=0.5)
    assert [(n, tuple(p.shape)) for n, p in emb.parameters_and_names()] == \
        [("embedding_table", (4, 2))]
    ids = ms.Tensor(np.array([[1, 0], [5, -1]], np.int32))
    want = np.array([[[0.5, 0.5], [0.5, 0.5]], [[0, 0], [0, 0]]], np.float32) / math.sqrt(2)
    for fn in (emb, make(emb, jit_mode)):
        np.testing.assert_allclose(fn(ids).asnumpy(), want, rtol=1e-6)
    plain = nn.EmbeddingLookup(4, 2, param_init="ones", dtype=ms.float16)
    assert plain.embedding_table.dtype == ms.float16
    np.testing.assert_array_equal(plain(ms.Tensor(np.array([2]), ms.int64)).asnumpy(), [[1, 1]])
    with pytest.raises(ValueError, match="target"):
        nn.EmbeddingLookup(4, 2, target="GPU")


def test_lp_pool_layers_match_the_window_power_sum():
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) * 0.5
    win = np.lib.stride_tricks.sliding_window_view(x, (2, 3), axis=(2, 3))[:, :, ::2, ::1]
    want = (win ** 2).sum((-1, -2)) ** 0.5
    got = nn.LPPool2d(2, (2, 3), stride=(2, 1))(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5)
    y = x[:, :, 0]
    want1 = (np.lib.stride_tricks.sliding_window_view(y, 3, axis=2)[:, :, ::3] ** 3).sum(-1)
    np.testing.assert_allclose(nn.LPPool1d(3, 3)(ms.Tensor(y)).asnumpy(), want1 ** (1 / 3),
                               rtol=1e-5)


def test_encoder_layers_start_equal_and_ignore_the_given_weights():
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)
    enc = nn.TransformerEncoder(layer, 2)
    first = dict(enc.layers[0].parameters_and_names())
    second = dict(enc.layers[1].parameters_and_names())
    for name, p in first.items():
        np.testing.assert_array_equal(p.asnumpy(), second[name].asnumpy())
        assert p is not second[name]
    assert first["self_attn.in_proj_weight"].name == "layers.0.self_attn.in_proj_weight"


def test_selu_gradient_is_the_analytic_one():
    # MindSpore 2.10's CPU SeLU gradient is wrong, so this one has no golden.
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    x = tensor(3, 4)
    grad = ms.grad(lambda t: nn.SeLU()(t).sum())(x).asnumpy()
    xv = x.asnumpy()
    np.testing.assert_allclose(grad, scale * np.where(xv > 0, 1, alpha * np.exp(xv)), rtol=1e-5)


def test_avgpool_ceil_gradient_is_the_adjoint():
    # Pooling is linear: <pool(x), c> == <x, grad of <pool(x), c>> (no MindSpore golden).
    pool = nn.AvgPool2d(2, 2, ceil_mode=True)
    x, c = tensor(1, 2, 5, 5), tensor(1, 2, 3, 3)
    grad = ms.grad(lambda t: (pool(t) * c).sum())(x)
    lhs = float((pool(x) * c).sum().asnumpy())
    np.testing.assert_allclose(lhs, float((x * grad).sum().asnumpy()), rtol=1e-5)


def test_dense_activation_and_layer_composition():
    dense = nn.Dense(3, 2, activation="sigmoid")
    assert isinstance(dense.activation, nn.Sigmoid)
    x = tensor(4, 3)
    want = 1 / (1 + np.exp(-(x.asnumpy() @ dense.weight.asnumpy().T + dense.bias.asnumpy())))
    np.testing.assert_allclose(dense(x).asnumpy(), want, rtol=1e-5)
    assert nn.get_activation("gelu").approximate == "tanh"
    assert nn.get_activation(None) is None
    with pytest.raises(KeyError):
        nn.get_activation("nope")


def test_mha_need_weights_and_batch_first_agree():
    ms.set_seed(1)
    seq_first = nn.MultiheadAttention(4, 2)
    batch_first = nn.MultiheadAttention(4, 2, batch_first=True)
    for (_, a), (_, b) in zip(seq_first.parameters_and_names(),
                              batch_first.parameters_and_names()):
        b.set_data(a)
    q, k = tensor(3, 2, 4), tensor(5, 2, 4)
    out, weights = seq_first(q, k, k)
    (only,) = seq_first(q, k, k, need_weights=False)
    np.testing.assert_allclose(only.asnumpy(), out.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(weights.asnumpy().sum(-1), 1, rtol=1e-5)
    out_b, _ = batch_first(q.swapaxes(0, 1), k.swapaxes(0, 1), k.swapaxes(0, 1))
    np.testing.assert_allclose(out_b.swapaxes(0, 1).asnumpy(), out.asnumpy(), rtol=1e-5,
                               atol=1e-6)


def test_layers_run_under_jit():
    net = nn.SequentialCell([nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(),
                             nn.Dense(8, 3)])
    x = tensor(2, 1, 4, 4)
    np.testing.assert_allclose(ms.jit(net, capture_mode="trace")(x).asnumpy(),
                               net(x).asnumpy(), rtol=1e-5, atol=1e-6)
    assert ops.shape(net(x)) == (2, 3)
