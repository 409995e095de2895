"""Training wrappers: WithLossCell, WithEvalCell, WithGradCell, ForwardValueAndGrad,
TrainOneStepCell (sens, return_grad, one forward pass per step, under jit)."""
import numpy as np
import pytest

import msxla as ms
from msxla import nn

RNG = np.random.default_rng(5)
X = ms.Tensor(RNG.standard_normal((6, 4)).astype(np.float32))
Y = ms.Tensor(RNG.standard_normal((6, 2)).astype(np.float32))
W = RNG.standard_normal((2, 4)).astype(np.float32)
B = RNG.standard_normal((2,)).astype(np.float32)


def dense():
    return nn.Dense(4, 2, weight_init=ms.Tensor(W), bias_init=ms.Tensor(B))


def mse_grads(x, y, w, b, scale=1.0):
    """Loss and gradients of mean((x @ w.T + b - y) ** 2), times ``scale``."""
    x, y = x.asnumpy(), y.asnumpy()
    d = x @ w.T + b - y
    gd = 2 * d / d.size * scale
    return (d ** 2).mean(), gd.T @ x, gd.sum(0)


def test_with_loss_and_eval_cells():
    net = dense()
    loss = nn.WithLossCell(net, nn.MSELoss())
    want, _, _ = mse_grads(X, Y, W, B)
    np.testing.assert_allclose(loss(X, Y).asnumpy(), want, rtol=1e-5)
    assert loss.backbone_network is net
    assert [p.name for p in loss.trainable_params()] == ["weight", "bias"]  # no prefix
    value, out, label = nn.WithEvalCell(net, nn.MSELoss(), add_cast_fp32=True)(X, Y)
    np.testing.assert_allclose(value.asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(out.asnumpy(), X.asnumpy() @ W.T + B, rtol=1e-5)
    assert label is Y or np.array_equal(label.asnumpy(), Y.asnumpy())


@pytest.mark.parametrize("sens", [None, 2.0])
def test_train_one_step_applies_scaled_gradients(sens):
    net = dense()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.SGD(net.trainable_params(), 0.1), sens=sens)
    w, b = W.copy(), B.copy()
    for _ in range(3):
        want, gw, gb = mse_grads(X, Y, w, b, scale=1.0 if sens is None else sens)
        np.testing.assert_allclose(train(X, Y).asnumpy(), want, rtol=1e-5)
        w, b = w - 0.1 * gw, b - 0.1 * gb
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), b, rtol=1e-5, atol=1e-6)


def test_train_one_step_return_grad_and_errors():
    net = dense()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.SGD(net.trainable_params(), 0.0), return_grad=True)
    loss, grads = train(X, Y)
    _, gw, gb = mse_grads(X, Y, W, B)
    assert list(grads) == ["weight", "bias"]
    np.testing.assert_allclose(grads["weight"].asnumpy(), gw, rtol=1e-5)
    np.testing.assert_allclose(grads["bias"].asnumpy(), gb, rtol=1e-5)
    with pytest.raises(ValueError, match="'sens' can not be 0"):
        nn.TrainOneStepCell(train.network, train.optimizer, sens=0)


def _bn_net():
    ms.set_seed(0)
    return nn.SequentialCell([nn.BatchNorm1d(4), nn.Dense(4, 3), nn.Tanh(), nn.Dense(3, 2)])


def test_train_one_step_runs_the_network_once_per_step():
    net = _bn_net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.Momentum(net.trainable_params(), 0.1, 0.9))
    train.set_train()
    train(X, Y)
    # One update with momentum 0.9: 0.1 * batch mean (as MindSpore's PyNative step).
    np.testing.assert_allclose(net[0].moving_mean.asnumpy(), 0.1 * X.asnumpy().mean(0),
                               rtol=1e-5, atol=1e-7)


def test_train_one_step_under_jit_matches_eager():
    nets = [_bn_net(), _bn_net()]
    steps = []
    for net in nets:
        cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.Adam(net.trainable_params(), 0.01), sens=0.5)
        cell.set_train()
        steps.append(cell)
    run = ms.jit(steps[1], capture_mode="trace")
    for _ in range(3):
        np.testing.assert_allclose(run(X, Y).asnumpy(), steps[0](X, Y).asnumpy(), rtol=1e-5)
    for (name, a), (_, b) in zip(nets[0].parameters_and_names(),
                                 nets[1].parameters_and_names()):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-5, atol=1e-6,
                                   err_msg=name)


def test_with_grad_cell_and_forward_value_and_grad():
    net = dense()
    _, gw, gb = mse_grads(X, Y, W, B)
    grads = nn.WithGradCell(net, nn.MSELoss())(X, Y)
    np.testing.assert_allclose(grads[0].asnumpy(), gw, rtol=1e-5)
    scaled = nn.WithGradCell(net, nn.MSELoss(), sens=ms.Tensor(3.0, ms.float32))(X, Y)
    np.testing.assert_allclose(scaled[1].asnumpy(), 3 * gb, rtol=1e-5)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    fvg = nn.ForwardValueAndGrad(loss_net, net.trainable_params(), get_all=True,
                                 get_by_list=True)
    loss, (g_inputs, g_weights) = fvg(X, Y)
    assert len(g_inputs) == 2 and g_inputs[0].shape == (6, 4)
    np.testing.assert_allclose(g_weights[0].asnumpy(), gw, rtol=1e-5)
    only_x = nn.ForwardValueAndGrad(loss_net)(X, Y)[1]
    assert only_x.shape == (6, 4)
    with pytest.raises(TypeError, match="'weights' must be Parameters array"):
        nn.ForwardValueAndGrad(loss_net, get_by_list=True)


def test_parameter_update_assigns():
    p = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="p")
    upd = nn.ParameterUpdate(p)
    upd(ms.Tensor(np.arange(3, dtype=np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [0, 1, 2])
