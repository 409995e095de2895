"""Optimizer behaviour: state, groups, learning rates, weight-decay filter, numpy references.

Update rules are checked against numpy implementations of MindSpore's
formulas (the 5-step MindSpore goldens are in test_optim_golden.py).
"""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

RNG = np.random.default_rng(7)
W0 = RNG.standard_normal((4, 16)).astype(np.float32)
GRADS = [RNG.standard_normal((4, 16)).astype(np.float32) for _ in range(3)]


def param(name="w", value=W0):
    return Parameter(Tensor(value.copy()), name=name)


def steps(opt, params, grads_per_step):
    for grads in grads_per_step:
        out = opt(tuple(Tensor(g) for g in grads))
    return out


def test_call_updates_in_place_and_returns_true_per_parameter():
    a, b = param("a"), param("b")
    opt = nn.SGD([a, b], learning_rate=0.5)
    out = opt((Tensor(GRADS[0]), Tensor(GRADS[1])))
    assert out == (True, True)
    np.testing.assert_allclose(a.asnumpy(), W0 - 0.5 * GRADS[0], rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), W0 - 0.5 * GRADS[1], rtol=1e-6)
    assert opt.global_step.dtype == ms.int32 and opt.global_step.shape == (1,)
    assert int(opt.global_step.asnumpy()[0]) == 1


def test_state_parameters_are_named_like_mindspore():
    w = param("fc.weight")
    opt = nn.Adam([w], use_amsgrad=True)
    assert isinstance(opt.parameters, ms.ParameterTuple)
    assert [p.name for p in opt.moment1] == ["moment1.fc.weight"]
    names = [n for n, _ in opt.parameters_and_names()]
    assert names == ["global_step", "learning_rate", "fc.weight", "beta1_power", "beta2_power",
                     "moment1.fc.weight", "moment2.fc.weight", "vhat.fc.weight"]
    assert opt.learning_rate.dtype == ms.float32 and opt.learning_rate.shape == ()


def test_weight_decay_skips_beta_and_gamma_by_default():
    w, gamma, beta = param("w"), param("bn.gamma"), param("bn.beta")
    opt = nn.SGD([w, gamma, beta], learning_rate=0.1, weight_decay=0.5)
    assert opt.decay_flags == (True, False, False)
    steps(opt, None, [GRADS])
    np.testing.assert_allclose(w.asnumpy(), W0 - 0.1 * (GRADS[0] + 0.5 * W0), rtol=1e-5)
    np.testing.assert_allclose(gamma.asnumpy(), W0 - 0.1 * GRADS[1], rtol=1e-6)


def test_groups_lr_weight_decay_order_and_get_lr_parameter():
    a, b = param("a"), param("b")
    groups = [{"params": [b], "lr": 0.05, "weight_decay": 0.1}, {"params": [a]},
              {"order_params": [a, b]}]
    opt = nn.SGD(groups, learning_rate=0.2)
    assert [p.name for p in opt.parameters] == ["a", "b"]
    assert opt.is_group and opt.is_group_lr
    lr = opt.get_lr()
    assert isinstance(lr, tuple) and [round(float(x.asnumpy()), 6) for x in lr] == [0.2, 0.05]
    assert opt.get_lr_parameter(b).name == "learning_rate_group_0"
    assert [p.name for p in opt.get_lr_parameter([a, b])] == ["learning_rate",
                                                               "learning_rate_group_0"]
    opt((Tensor(GRADS[0]), Tensor(GRADS[1])))
    np.testing.assert_allclose(a.asnumpy(), W0 - 0.2 * GRADS[0], rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), W0 - 0.05 * (GRADS[1] + 0.1 * W0), rtol=1e-6)
    with pytest.raises(ValueError, match="is not in optimizer"):
        opt.get_lr_parameter(param("c"))


def test_grad_centralization_in_groups():
    w, bias = param("w"), param("bias", W0[0])
    opt = nn.Momentum([{"params": [w], "grad_centralization": True}, {"params": [bias]}],
                      learning_rate=0.1, momentum=0.0)
    opt((Tensor(GRADS[0]), Tensor(GRADS[1][0])))
    centred = GRADS[0] - GRADS[0].mean(axis=1, keepdims=True)  # shape[1] = 16: centralized
    np.testing.assert_allclose(w.asnumpy(), W0 - 0.1 * centred, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bias.asnumpy(), W0[0] - 0.1 * GRADS[1][0], rtol=1e-6)


def test_dynamic_learning_rates():
    w = param()
    opt = nn.SGD([w], learning_rate=[0.1, 0.2, 0.3])
    for i, g in enumerate(GRADS):
        np.testing.assert_allclose(opt.get_lr().asnumpy(), [0.1, 0.2, 0.3][i], rtol=1e-6)
        opt((Tensor(g),))
    expected = W0 - 0.1 * GRADS[0] - 0.2 * GRADS[1] - 0.3 * GRADS[2]
    np.testing.assert_allclose(w.asnumpy(), expected, rtol=1e-5)
    with pytest.raises(RuntimeError, match="For 'Gather'"):
        opt((Tensor(GRADS[0]),))  # past the end of the list, as MindSpore's CPU Gather
    sched = nn.WarmUpLR(0.1, 4)
    opt = nn.SGD([param()], learning_rate=sched)
    assert opt.get_lr_parameter(opt.parameters[0]) is sched
    opt((Tensor(GRADS[0]),))
    np.testing.assert_allclose(opt.get_lr().asnumpy(), 0.025, rtol=1e-6)


def test_loss_scale_divides_gradients():
    a, b = param("a"), param("b")
    nn.SGD([a], learning_rate=0.1, loss_scale=8.0)((Tensor(GRADS[0] * 8),))
    nn.SGD([b], learning_rate=0.1)((Tensor(GRADS[0]),))
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def lamb_reference(w, grads, lr, wd, beta1=0.9, beta2=0.999, eps=1e-6):
    w = w.astype(np.float64)
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        r = (m / (1 - beta1 ** t)) / (np.sqrt(v / (1 - beta2 ** t)) + eps) + wd * w
        w_norm, r_norm = np.linalg.norm(w), np.linalg.norm(r)
        trust = w_norm / r_norm if w_norm > 0 and r_norm > 0 else 1.0
        w = w - lr * trust * r
    return w


def test_lamb_matches_documented_formula():
    w, gamma = param("w"), param("ln.gamma")
    opt = nn.Lamb([w, gamma], learning_rate=0.01, weight_decay=0.1)
    steps(opt, None, [(g, g) for g in GRADS])
    np.testing.assert_allclose(w.asnumpy(), lamb_reference(W0, GRADS, 0.01, 0.1), rtol=1e-5)
    np.testing.assert_allclose(gamma.asnumpy(), lamb_reference(W0, GRADS, 0.01, 0.0), rtol=1e-5)
    zero = param("z", np.zeros_like(W0))  # ||w|| = 0: trust ratio 1
    nn.Lamb([zero], learning_rate=0.01)((Tensor(GRADS[0]),))
    np.testing.assert_allclose(zero.asnumpy(), lamb_reference(np.zeros_like(W0), GRADS[:1],
                                                              0.01, 0.0), rtol=1e-5)


def test_adagrad_update_slots_false_keeps_accumulator():
    w = param()
    opt = nn.Adagrad([w], accum=0.5, learning_rate=0.1, update_slots=False)
    steps(opt, None, [(g,) for g in GRADS[:2]])
    expected = W0 - 0.1 * (GRADS[0] + GRADS[1]) / np.sqrt(0.5)
    np.testing.assert_allclose(w.asnumpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(opt.accum[0].asnumpy(), 0.5)


def test_float16_parameters_stay_float16():
    w16 = Parameter(Tensor(W0.astype(np.float16)), name="w16")
    w32 = param("w32", W0.astype(np.float16).astype(np.float32))
    for p in (w16, w32):
        nn.Adam([p], learning_rate=0.01)((Tensor(GRADS[0].astype(p.dtype.np_dtype)),))
    assert w16.dtype == ms.float16
    np.testing.assert_allclose(w16.asnumpy().astype(np.float32), w32.asnumpy(), rtol=2e-3,
                               atol=2e-3)


class MyMomentum(nn.Optimizer):
    """A user-defined optimizer written against the base-class helpers."""

    def __init__(self, params, learning_rate, momentum=0.9):
        super().__init__(learning_rate, params, weight_decay=0.1)
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.momentum = momentum

    def construct(self, gradients):
        lr = self.get_lr()
        gradients = self.scale_grad(self.gradients_centralization(self.decay_weight(gradients)))
        for param_, mom, grad in zip(self.parameters, self.moments, gradients):
            ops.assign(mom, mom * self.momentum + grad)
            ops.assign(param_, param_ - lr * mom)
        return True


def test_user_defined_optimizer_matches_momentum():
    a, b = param("a"), param("b")
    mine = MyMomentum([a], 0.05)
    ref = nn.Momentum([b], 0.05, 0.9, weight_decay=0.1)
    for g in GRADS:
        mine((Tensor(g),))
        ref((Tensor(g),))
    assert [p.name for p in mine.moments] == ["moments.a"]
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5)


def make_training(opt_fn, jit, mode="trace"):
    w1 = Parameter(Tensor(W0[:, :8] * 0.3), name="w1")
    w2 = Parameter(Tensor(W0[:, 8:16].T.copy() * 0.3), name="w2")
    opt = opt_fn([w1, w2])
    x = Tensor(RNG.standard_normal((5, 4)).astype(np.float32))
    y = Tensor(RNG.standard_normal((5, 4)).astype(np.float32))

    def forward(x, y):
        out = ops.matmul(ops.relu(ops.matmul(x, w1)), w2)
        return ((out - y) ** 2).mean(), out

    grad_fn = ms.value_and_grad(forward, None, opt.parameters, has_aux=True)

    def train_step(x, y):
        (loss, _), grads = grad_fn(x, y)
        opt(grads)
        return loss

    step = ms.jit(train_step, capture_mode=mode) if jit else train_step
    return opt, lambda: step(x, y)


ADAM_SCHEDULE = (lambda ps: nn.Adam(ps, learning_rate=nn.ExponentialDecayLR(0.02, 0.8, 2),
                                    weight_decay=0.01))


@pytest.mark.parametrize("opt_fn,mode", [
    (ADAM_SCHEDULE, "trace"),
    (ADAM_SCHEDULE, "ast"),
    (lambda ps: nn.SGD(ps, learning_rate=[0.1, 0.09, 0.08, 0.07], momentum=0.9), "trace"),
    (lambda ps: nn.Lamb(ps, learning_rate=0.01, weight_decay=0.01), "trace"),
], ids=["adam_schedule", "adam_schedule_ast", "sgd_lr_list", "lamb"])
def test_jitted_train_step_matches_eager(opt_fn, mode):
    RNG.bit_generator.state = np.random.default_rng(99).bit_generator.state
    opt_e, run_e = make_training(opt_fn, jit=False)
    RNG.bit_generator.state = np.random.default_rng(99).bit_generator.state
    opt_j, run_j = make_training(opt_fn, jit=True, mode=mode)
    losses_e = [float(run_e().asnumpy()) for _ in range(4)]
    losses_j = [float(run_j().asnumpy()) for _ in range(4)]
    np.testing.assert_allclose(losses_j, losses_e, rtol=1e-6)
    assert losses_e[-1] < losses_e[0]
    for pe, pj in zip(opt_e.get_parameters(), opt_j.get_parameters()):
        assert pe.name == pj.name
        np.testing.assert_allclose(pj.asnumpy(), pe.asnumpy(), rtol=1e-6, atol=1e-7,
                                   err_msg=pe.name)


def test_init_arguments_are_recorded():
    w = param()
    opt = nn.SGD([w], learning_rate=Tensor(np.array([0.1, 0.2], np.float32)), momentum=0.9)
    assert opt.init_params["params"] == [w]
    np.testing.assert_allclose(opt.init_learning_rate, [0.1, 0.2], rtol=1e-6)
    assert opt.init_args == {"momentum": 0.9, "dampening": 0.0, "weight_decay": 0.0,
                             "nesterov": False, "loss_scale": 1.0}
    assert nn.Adam([w], learning_rate=nn.WarmUpLR(0.1, 2)).init_learning_rate is None
