"""Write tests/golden/experimental_optim.json: MindSpore 2.10's torch-style optimizers
(``mindspore.experimental.optim``, ``mint.optim``) and lr schedulers.

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_experimental_optim.py

Optimizers: two Parameters in two groups (the second with its own lr and
weight decay), four steps with fixed gradients; the Parameters after each step
(or the error, where MindSpore has no CPU kernel for the optimizer).
Schedulers: the learning rate of each of two groups after each of 8 steps
(ReduceLROnPlateau: after each of a fixed list of metrics); SequentialLR of
LinearLR then CosineAnnealingLR.
"""
import json
import os

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, mint
from mindspore.experimental import optim
from mindspore.experimental.optim import lr_scheduler as L

rng = np.random.RandomState(3)
P0 = rng.randn(3, 2).astype(np.float32)
P1 = rng.randn(4).astype(np.float32)
GRADS = [[rng.randn(3, 2).astype(np.float32), rng.randn(4).astype(np.float32)]
         for _ in range(4)]
METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]

OPTIMIZERS = [
    ("experimental.Adam", {}), ("experimental.Adam", {"weight_decay": 0.1, "amsgrad": True}),
    ("experimental.AdamW", {}), ("experimental.AdamW", {"amsgrad": True, "maximize": True}),
    ("experimental.SGD", {"lr": 0.1}), ("experimental.SGD", {"lr": 0.1, "momentum": 0.9}),
    ("experimental.SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("experimental.SGD", {"lr": 0.1, "momentum": 0.5, "dampening": 0.3}),
    ("mint.AdamW", {}), ("mint.Adam", {}), ("mint.SGD", {"lr": 0.1,
                                                                            "momentum": 0.9}),
]
SCHEDULERS = [
    ("LambdaLR", {"lr_lambda": "0.9 ** epoch"}), ("StepLR", {"step_size": 3, "gamma": 0.5}),
    ("MultiStepLR", {"milestones": [2, 5, 5], "gamma": 0.5}), ("ConstantLR", {}),
    ("LinearLR", {"start_factor": 0.25, "total_iters": 4}), ("ExponentialLR", {"gamma": 0.8}),
    ("PolynomialLR", {"total_iters": 6, "power": 2.0}),
    ("CosineAnnealingLR", {"T_max": 3, "eta_min": 0.01}),
    ("MultiplicativeLR", {"lr_lambda": "0.9 ** epoch"}),
]


def params():
    return [Parameter(Tensor(P0), "w"), Parameter(Tensor(P1), "b")]


def make_optimizer(name, kwargs, ps):
    module, cls = name.split(".")
    cls = getattr(optim if module == "experimental" else mint.optim, cls)
    kwargs = dict(kwargs)
    lr = kwargs.pop("lr", 0.01)
    groups = [{"params": [ps[0]]}, {"params": [ps[1]], "lr": lr * 2, "weight_decay": 0.05}]
    return cls(groups, lr=lr, **kwargs)


def run_optimizer(name, kwargs):
    ps = params()
    opt = make_optimizer(name, kwargs, ps)
    steps = []
    try:
        for grads in GRADS:
            opt(tuple(Tensor(g) for g in grads))
            steps.append([p.asnumpy().tolist() for p in ps])
    except RuntimeError as e:  # no CPU kernel (mint.optim's AdamW / Adam): recorded
        return {"name": name, "kwargs": kwargs, "error": str(e).split("\n")[0]}
    return {"name": name, "kwargs": kwargs, "steps": steps}


def lrs(sched):
    return [float(v) for v in sched.get_last_lr()]


def run_scheduler(name, kwargs):
    opt = make_optimizer("experimental.SGD", {"lr": 0.1}, params())
    kw = {k: (eval("lambda epoch: " + v) if k == "lr_lambda" else v) for k, v in kwargs.items()}
    sched = getattr(L, name)(opt, **kw)
    out = [lrs(sched)]
    for _ in range(8):
        sched.step()
        out.append(lrs(sched))
    return {"name": name, "kwargs": kwargs, "lrs": out}


def main():
    out = {"p0": P0.tolist(), "p1": P1.tolist(), "grads": [[g.tolist() for g in s] for s in GRADS],
           "optimizers": [run_optimizer(n, k) for n, k in OPTIMIZERS],
           "schedulers": [run_scheduler(n, k) for n, k in SCHEDULERS]}
    opt = make_optimizer("experimental.SGD", {"lr": 0.1}, params())
    plateau = L.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=0.02)
    seq = []
    for m in METRICS:
        plateau.step(Tensor(m, ms.float32))
        seq.append(lrs(plateau))
    out["plateau"] = {"metrics": METRICS, "lrs": seq}
    opt = make_optimizer("experimental.SGD", {"lr": 0.1}, params())
    s1 = L.LinearLR(opt, start_factor=0.5, total_iters=2)
    s2 = L.CosineAnnealingLR(opt, T_max=4)
    sequential = L.SequentialLR(opt, [s1, s2], milestones=[3])
    seq = [lrs(sequential)]
    for _ in range(8):
        sequential.step()
        seq.append(lrs(sequential))
    out["sequential"] = seq
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "experimental_optim.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
