"""``mindspore.experimental.optim`` / ``mint.optim`` optimizers and lr schedulers against
MindSpore 2.10 (tests/golden/make_experimental_optim.py): the Parameters after each step
and the learning rates after each scheduler step. ``mint.optim``'s optimizers are the same
update as ``experimental.optim``'s and are checked against those goldens: MindSpore's own
``mint.optim`` has no CPU kernel for AdamW and updates through in-place Tensor methods,
whose CPU results are not taken as goldens (DEVELOPERS.md)."""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, mint
from msxla.experimental import optim
from msxla.experimental.optim import lr_scheduler as L

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "experimental_optim.json")))
P0, P1 = np.array(GOLDEN["p0"], np.float32), np.array(GOLDEN["p1"], np.float32)
GRADS = [[np.array(g, np.float32) for g in step] for step in GOLDEN["grads"]]


def _params():
    return [Parameter(Tensor(P0), "w"), Parameter(Tensor(P1), "b")]


def _optimizer(name, kwargs, ps):
    module, cls = name.split(".")
    cls = getattr(optim if module == "experimental" else mint.optim, cls)
    kwargs = dict(kwargs)
    lr = kwargs.pop("lr", 0.01)
    groups = [{"params": [ps[0]]}, {"params": [ps[1]], "lr": lr * 2, "weight_decay": 0.05}]
    return cls(groups, lr=lr, **kwargs)


def _want(case):
    if case["name"].startswith("experimental."):
        return case["steps"]
    twin = "experimental." + case["name"].split(".")[1]
    return [c for c in GOLDEN["optimizers"] if c["name"] == twin
            and c["kwargs"] == case["kwargs"]][0]["steps"]


@pytest.mark.parametrize("case", GOLDEN["optimizers"],
                         ids=lambda c: c["name"] + "-" + ",".join(c["kwargs"]))
def test_optimizer_steps(case):
    ps = _params()
    opt = _optimizer(case["name"], case["kwargs"], ps)
    for grads, want in zip(GRADS, _want(case)):
        assert opt(tuple(Tensor(g) for g in grads)) is True
        for p, w in zip(ps, want):
            np.testing.assert_allclose(p.asnumpy(), np.array(w, np.float32), rtol=3e-5, atol=1e-6)


def test_optimizer_step_jitted_equals_golden():
    case = GOLDEN["optimizers"][2]  # AdamW
    ps = _params()
    opt = _optimizer(case["name"], case["kwargs"], ps)
    step = ms.jit(lambda *g: opt(g))
    for grads, want in zip(GRADS, case["steps"]):
        step(*(Tensor(g) for g in grads))
        for p, w in zip(ps, want):
            np.testing.assert_allclose(p.asnumpy(), np.array(w, np.float32), rtol=1e-5, atol=1e-6)


def test_state_is_registered_and_groups_filled():
    ps = _params()
    opt = _optimizer("experimental.AdamW", {}, ps)
    names = [p.name for p in opt.get_parameters()]
    assert "exp_avg.w" in names and "exp_avg_sq.b" in names
    assert opt.param_groups[1]["weight_decay"] == 0.05 and opt.param_groups[0]["betas"] == (
        0.9, 0.999)
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [ps[0]]})


def _lrs(sched):
    return [float(v) for v in sched.get_last_lr()]


@pytest.mark.parametrize("case", GOLDEN["schedulers"], ids=lambda c: c["name"])
def test_scheduler(case):
    opt = _optimizer("experimental.SGD", {"lr": 0.1}, _params())
    kw = {k: (eval("lambda epoch: " + v) if k == "lr_lambda" else v)  # noqa: S307 - golden text
          for k, v in case["kwargs"].items()}
    sched = getattr(L, case["name"])(opt, **kw)
    got = [_lrs(sched)]
    for _ in range(8):
        sched.step()
        got.append(_lrs(sched))
    np.testing.assert_allclose(got, case["lrs"], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose([float(g["lr"]) for g in opt.param_groups], case["lrs"][-1],
                               rtol=1e-5, atol=1e-7)


def test_reduce_on_plateau():
    opt = _optimizer("experimental.SGD", {"lr": 0.1}, _params())
    plateau = L.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=0.02)
    got = []
    for m in GOLDEN["plateau"]["metrics"]:
        plateau.step(Tensor(m, ms.float32))
        got.append(_lrs(plateau))
    np.testing.assert_allclose(got, GOLDEN["plateau"]["lrs"], rtol=1e-6)


def test_sequential():
    opt = _optimizer("experimental.SGD", {"lr": 0.1}, _params())
    s1 = L.LinearLR(opt, start_factor=0.5, total_iters=2)
    s2 = L.CosineAnnealingLR(opt, T_max=4)
    sequential = L.SequentialLR(opt, [s1, s2], milestones=[3])
    got = [_lrs(sequential)]
    for _ in range(8):
        sequential.step()
        got.append(_lrs(sequential))
    np.testing.assert_allclose(got, GOLDEN["sequential"], rtol=1e-5, atol=1e-7)
