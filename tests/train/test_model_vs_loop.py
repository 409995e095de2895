"""``Model.train`` computes exactly the steps of a hand-written loop: ``value_and_grad``
over the forward function, ``optimizer(grads)``, in every capture mode (the shared
``mode`` fixture: PyNative and jit ast / bytecode / trace at O0 and O1). The Model
compiles its step with the same capture mode and level (``JitConfig(capture_mode=...)``);
in the PyNative case the loop runs eagerly and the Model's step compiled."""
import numpy as np
import pytest

import msxla as ms
from modes import make

STEPS, BATCH = 3, 8


def _data():
    rng = np.random.default_rng(3)
    return [(rng.standard_normal((BATCH, 5)).astype(np.float32),
             rng.integers(0, 4, BATCH).astype(np.int32)) for _ in range(STEPS)]


def _net():
    net = ms.nn.SequentialCell([ms.nn.Dense(5, 7), ms.nn.Tanh(), ms.nn.Dense(7, 4)])
    rng = np.random.default_rng(4)
    for p in net.get_parameters():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.5).astype(np.float32)))
    return net


def _loss():
    return ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _loop(mode, data, epochs):
    net, loss_fn = _net(), _loss()
    opt = ms.nn.Adam(net.trainable_params(), learning_rate=0.01)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    step = make(step, mode)
    losses = [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy())
              for _ in range(epochs) for x, y in data]
    return losses, {p.name: p.asnumpy() for p in net.get_parameters()}


def _model(mode, data, epochs):
    net, loss_fn = _net(), _loss()
    if mode != "pynative":
        capture_mode, level = mode.split("-")
        net.set_jit_config(ms.JitConfig(jit_level=level, capture_mode=capture_mode))
    opt = ms.nn.Adam(net.trainable_params(), learning_rate=0.01)
    model = ms.train.Model(net, loss_fn, opt)
    losses = []
    record = ms.train.LambdaCallback(on_train_step_end=lambda rc: losses.append(
        float(rc.original_args().net_outputs.asnumpy())))
    model.train(epochs, data, callbacks=[record])
    return losses, {p.name: p.asnumpy() for p in net.get_parameters()}


@pytest.mark.slow
def test_model_train_equals_the_value_and_grad_loop(mode):
    _check(mode)


@pytest.mark.parametrize("mode", ["pynative", "ast-O0"])
def test_model_train_equals_the_loop_quick(mode):
    _check(mode)


def _check(mode):
    data = _data()
    want_losses, want = _loop(mode, data, 2)
    losses, got = _model(mode, data, 2)
    np.testing.assert_allclose(losses, want_losses, rtol=1e-5, atol=1e-6)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6, err_msg=name)
