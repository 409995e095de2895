"""Write tests/golden/optim.json: 5 training steps of each optimizer in MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_optim.py``.

A tiny MLP (fixed numpy weights and data, stored in the JSON) is trained
with ``value_and_grad`` + ``optimizer(grads)`` in PyNative mode; the JSON
holds, per configuration, the loss of every step, the final Parameters and
the names of the optimizer's Parameters. ``make_net`` and ``make_optimizer``
take the framework module, so ``tests/nn/test_optim_golden.py`` builds the
very same network and optimizers with msxla. Lamb is not here: MindSpore's
CPU build has no Lamb kernel,
nor the Centralization kernel that ``grad_centralization`` needs.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 5

# name -> (optimizer, kwargs); kwargs may hold the markers "GROUPS",
# "SCHEDULE", "LR_LIST" and "WD_CELL", turned into objects by make_optimizer.
CONFIGS = {
    "sgd": ("SGD", {"learning_rate": 0.1}),
    "sgd_momentum": ("SGD", {"learning_rate": 0.05, "momentum": 0.9, "dampening": 0.1}),
    "sgd_nesterov": ("SGD", {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True}),
    "sgd_weight_decay": ("SGD", {"learning_rate": 0.1, "momentum": 0.5, "weight_decay": 0.05}),
    "sgd_loss_scale": ("SGD", {"learning_rate": 0.1, "loss_scale": 4.0, "weight_decay": 0.01}),
    "sgd_lr_list": ("SGD", {"learning_rate": "LR_LIST", "momentum": 0.9}),
    "momentum": ("Momentum", {"learning_rate": 0.05, "momentum": 0.9}),
    "momentum_nesterov_wd": ("Momentum", {"learning_rate": 0.05, "momentum": 0.9,
                                          "weight_decay": 0.01, "use_nesterov": True}),
    "momentum_groups": ("Momentum", {"params": "GROUPS", "learning_rate": 0.02,
                                     "momentum": 0.9, "weight_decay": 0.02}),
    "adam": ("Adam", {"learning_rate": 0.01}),
    "adam_nesterov": ("Adam", {"learning_rate": 0.01, "use_nesterov": True}),
    "adam_amsgrad_wd": ("Adam", {"learning_rate": 0.01, "use_amsgrad": True,
                                 "weight_decay": 0.05, "eps": 1e-6}),
    "adam_schedule": ("Adam", {"learning_rate": "SCHEDULE", "beta1": 0.8, "beta2": 0.99}),
    "adam_weight_decay": ("AdamWeightDecay", {"learning_rate": 0.01, "weight_decay": 0.1}),
    "adam_weight_decay_groups": ("AdamWeightDecay", {"params": "GROUPS", "learning_rate": 0.01,
                                                     "weight_decay": 0.05}),
    "adam_weight_decay_cell": ("AdamWeightDecay", {"learning_rate": 0.01,
                                                   "weight_decay": "WD_CELL"}),
    "rmsprop": ("RMSProp", {"learning_rate": 0.01}),
    "rmsprop_centered": ("RMSProp", {"learning_rate": 0.01, "momentum": 0.5, "centered": True,
                                     "epsilon": 1e-6, "weight_decay": 0.01}),
    "adagrad": ("Adagrad", {"learning_rate": 0.1, "accum": 0.2, "weight_decay": 0.01}),
}


def make_data():
    rng = np.random.default_rng(1234)
    f32 = np.float32
    return {
        "x": rng.standard_normal((8, 4)).astype(f32),
        "y": rng.standard_normal((8, 3)).astype(f32),
        "fc1.weight": (rng.standard_normal((4, 16)) * 0.5).astype(f32),
        "fc1.bias": (rng.standard_normal((16,)) * 0.1).astype(f32),
        "fc2.weight": (rng.standard_normal((16, 3)) * 0.3).astype(f32),
        "norm.gamma": (1 + rng.standard_normal((3,)) * 0.1).astype(f32),
        "norm.beta": (rng.standard_normal((3,)) * 0.1).astype(f32),
    }


PARAM_NAMES = ["fc1.weight", "fc1.bias", "fc2.weight", "norm.gamma", "norm.beta"]


def make_net(ms, data):
    """``(relu(x @ W1 + b1) @ W2) * gamma + beta`` with the given Parameter names."""
    nn, ops = ms.nn, ms.ops

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.params = [ms.Parameter(ms.Tensor(data[n]), name=n) for n in PARAM_NAMES]
            for i, p in enumerate(self.params):
                self.insert_param_to_cell(f"p{i}", p)

        def construct(self, x):
            w1, b1, w2, gamma, beta = self.params
            return ops.matmul(ops.relu(ops.matmul(x, w1) + b1), w2) * gamma + beta

    return MLP()


def make_optimizer(ms, net, name):
    nn = ms.nn
    cls_name, kwargs = CONFIGS[name]
    kwargs = dict(kwargs)
    params = net.trainable_params()
    if kwargs.pop("params", None) == "GROUPS":
        weights = [p for p in params if "weight" in p.name]
        others = [p for p in params if "weight" not in p.name]
        params = [{"params": weights, "lr": 0.05, "weight_decay": 0.01},
                  {"params": others},
                  {"order_params": net.trainable_params()}]
    if kwargs.get("learning_rate") == "SCHEDULE":
        kwargs["learning_rate"] = nn.ExponentialDecayLR(0.02, 0.8, 2)
    if kwargs.get("learning_rate") == "LR_LIST":
        kwargs["learning_rate"] = nn.cosine_decay_lr(0.01, 0.1, STEPS, 1, 3)
    if kwargs.get("weight_decay") == "WD_CELL":
        kwargs["weight_decay"] = nn.WarmUpLR(0.1, 3)
    return getattr(nn, cls_name)(params, **kwargs)


def train(ms, data, name):
    """``(losses, final params by name, sorted optimizer Parameter names)``."""
    net = make_net(ms, data)
    opt = make_optimizer(ms, net, name)
    x, y = ms.Tensor(data["x"]), ms.Tensor(data["y"])

    def forward(x, y):
        out = net(x)
        return ((out - y) ** 2).mean(), out

    grad_fn = ms.value_and_grad(forward, None, opt.parameters, has_aux=True)
    losses = []
    for _ in range(STEPS):
        (loss, _), grads = grad_fn(x, y)
        opt(grads)
        losses.append(float(loss.asnumpy()))
    final = {p.name: p.asnumpy().tolist() for p in net.trainable_params()}
    names = sorted(p.name for p in opt.get_parameters())
    return losses, final, names


def main():
    import mindspore as ms
    data = make_data()
    cases = {}
    for name in CONFIGS:
        losses, final, names = train(ms, data, name)
        cases[name] = {"losses": losses, "params": final, "opt_param_names": names}
        print(name, losses)
    out = {"mindspore": ms.__version__, "steps": STEPS,
           "data": {k: v.tolist() for k, v in data.items()}, "cases": cases}
    with open(os.path.join(HERE, "optim.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
