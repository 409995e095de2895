"""Write tests/golden/training.json: 5 training steps of an MLP and a small CNN in MindSpore.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_training.py``.

Each network (fixed numpy weights and data, stored in the JSON) is trained
with MindSpore 2.x's canonical PyNative loop::

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
    (loss, logits), grads = grad_fn(data, label)
    optimizer(grads)

with SGD, Momentum and Adam. The JSON holds the loss of every step and every
Parameter after the last one (BatchNorm moving statistics included).
``make_net`` and ``train`` take the framework module, so
``tests/nn/test_training_golden.py`` runs the same steps with msxla, eagerly
and with the step under ``ms.jit``.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 5
NETS = ("mlp", "cnn")
OPTIMIZERS = {
    "sgd": ("SGD", {"learning_rate": 0.1}),
    "momentum": ("Momentum", {"learning_rate": 0.05, "momentum": 0.9}),
    "adam": ("Adam", {"learning_rate": 0.01}),
}


def make_net(ms, kind):
    nn = ms.nn
    if kind == "mlp":
        return nn.SequentialCell([nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3)])
    return nn.SequentialCell([nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(),
                              nn.MaxPool2d(2, 2), nn.Flatten(), nn.Dense(36, 3)])


def make_data(ms):
    rng = np.random.default_rng(2024)
    data = {}
    for kind in NETS:
        shape = (8, 6) if kind == "mlp" else (6, 1, 6, 6)
        data[kind] = {"x": rng.standard_normal(shape).astype(np.float32),
                      "y": rng.integers(0, 3, shape[0]).astype(np.int32)}
        net = make_net(ms, kind)
        data[kind]["params"] = {
            name: (rng.uniform(0.5, 1.5, p.shape) if "variance" in name else
                   rng.standard_normal(p.shape) * 0.4).astype(np.float32)
            for name, p in net.parameters_and_names()}
    return data


def train(ms, kind, opt_name, data, jit=False):
    """``(losses, {parameter name: final value})`` of STEPS training steps."""
    net = make_net(ms, kind)
    for name, p in net.parameters_and_names():
        p.set_data(ms.Tensor(np.asarray(data["params"][name], np.float32)))
    net.set_train()
    cls, kwargs = OPTIMIZERS[opt_name]
    optimizer = getattr(ms.nn, cls)(net.trainable_params(), **kwargs)
    loss_fn = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    if jit:
        train_step = ms.jit(train_step, capture_mode="trace")
    x = ms.Tensor(np.asarray(data["x"], np.float32))
    y = ms.Tensor(np.asarray(data["y"], np.int32))
    losses = [float(train_step(x, y).asnumpy()) for _ in range(STEPS)]
    final = {name: p.asnumpy() for name, p in net.parameters_and_names()}
    return losses, final


def main():
    import mindspore as ms
    data = make_data(ms)
    cases = {}
    for kind in NETS:
        for opt_name in OPTIMIZERS:
            losses, final = train(ms, kind, opt_name, data[kind])
            cases[f"{kind}_{opt_name}"] = {"losses": losses,
                                          "params": {k: v.tolist() for k, v in final.items()}}
            print(kind, opt_name, losses)
    out = {"mindspore": ms.__version__, "steps": STEPS, "cases": cases,
           "data": {kind: {"x": d["x"].tolist(), "y": d["y"].tolist(),
                           "params": {k: v.tolist() for k, v in d["params"].items()}}
                    for kind, d in data.items()}}
    with open(os.path.join(HERE, "training.json"), "w") as fh:
        json.dump(out, fh, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
