"""Conv2dBnAct and DenseBnAct: the same outputs as their layers applied one after
another with the same weights (training and inference), MindSpore 2.10's
parameter names, and the activation choices."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn, ops

X4 = Tensor(np.random.default_rng(0).standard_normal((2, 3, 6, 6)).astype(np.float32))
X2 = Tensor(np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32))


@pytest.mark.parametrize("training", [True, False])
def test_conv2d_bn_act_is_its_layers_in_order(training):
    net = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation="leakyrelu", alpha=0.1)
    conv = nn.Conv2d(3, 4, 3)
    bn = nn.BatchNorm2d(4, momentum=0.997)
    conv.weight.set_data(net.conv.weight.value())
    net.set_train(training)
    bn.set_train(training)
    want = nn.LeakyReLU(0.1)(bn(conv(X4)))
    np.testing.assert_allclose(net(X4).asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-5)
    if training:
        np.testing.assert_allclose(net.batchnorm.moving_mean.asnumpy(),
                                   bn.moving_mean.asnumpy(), rtol=1e-6, atol=1e-7)


def test_dense_bn_act_is_its_layers_in_order():
    net = nn.DenseBnAct(3, 5, has_bn=True, activation="relu")
    dense = nn.Dense(3, 5)
    dense.weight.set_data(net.dense.weight.value())
    dense.bias.set_data(net.dense.bias.value())
    bn = nn.BatchNorm1d(5, momentum=0.9)
    net.set_train(True)
    bn.set_train(True)
    want = ops.relu(bn(dense(X2)))
    np.testing.assert_allclose(net(X2).asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-5)


def test_parameter_names_and_plain_forms():
    # the names MindSpore 2.10 gives (checkpoints load across)
    names = {p.name for p in nn.Conv2dBnAct(3, 4, 3, has_bn=True).get_parameters()}
    assert names == {"conv.weight", "batchnorm.gamma", "batchnorm.beta", "batchnorm.moving_mean",
                     "batchnorm.moving_variance"}
    names = [p.name for p in nn.DenseBnAct(3, 4).get_parameters()]
    assert names == ["dense.weight", "dense.bias"]
    plain = nn.DenseBnAct(3, 4)
    np.testing.assert_allclose(plain(X2).asnumpy(), (ops.matmul(X2, plain.dense.weight.T)
                                                     + plain.dense.bias).asnumpy(), rtol=1e-5)
    act = nn.Conv2dBnAct(3, 2, 1, activation=nn.Sigmoid())
    out = act(X4).asnumpy()
    assert out.shape == (2, 2, 6, 6) and (out > 0).all() and (out < 1).all()
    with pytest.raises(TypeError):
        nn.DenseBnAct(3, 4, activation=3)


def test_jitted_matches_pynative():
    net = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation="relu")
    net.set_train(False)
    eager = net(X4).asnumpy()
    np.testing.assert_allclose(ms.jit(net)(X4).asnumpy(), eager, rtol=1e-5, atol=1e-5)
