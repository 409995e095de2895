"""The training workloads of ``train_model.py``, written against the MindSpore API.

Both frameworks import this file (msxla as ``ms`` in ``train_model.py``, MindSpore
in ``mindspore_train_model.py``), so the networks, data and optimizer are the
same code:

- ``mlp``: Dense 784-512-512-10 with ReLU, batch 64 (about 5 ms of arithmetic per
  training step on one CPU core: the step's compute dominates its dispatch cost);
- ``mlp_small``: Dense 32-64-10 with ReLU, batch 32 (microseconds of arithmetic: the
  per-step dispatch and host work dominate, which is what sink mode removes);
- ``lenet``: LeNet-5 on 1x32x32 images, batch 32;

both with SoftmaxCrossEntropyWithLogits and Momentum(0.01, 0.9), over
``STEPS`` distinct batches of fixed random data.
"""
from __future__ import annotations

import time

import numpy as np

STEPS = 100
WORKLOADS = {"mlp": {"batch": 64, "shape": (784,)}, "mlp_small": {"batch": 32, "shape": (32,)},
             "lenet": {"batch": 32, "shape": (1, 32, 32)}}


def make_net(ms, name):
    nn = ms.nn
    if name == "mlp":
        return nn.SequentialCell([nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
                                  nn.Dense(512, 10)])
    if name == "mlp_small":
        return nn.SequentialCell([nn.Dense(32, 64), nn.ReLU(), nn.Dense(64, 10)])

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(400, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2, 2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.flatten(x)
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))
    return LeNet5()


def make_batches(name, steps=STEPS, seed=0):
    spec = WORKLOADS[name]
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((steps * spec["batch"],) + spec["shape"]).astype(np.float32)
    y = rng.integers(0, 10, steps * spec["batch"]).astype(np.int32)
    return x, y


def make_model(ms, name, jit_level=None):
    net = make_net(ms, name)
    if jit_level:
        net.set_jit_config(ms.JitConfig(jit_level=jit_level))
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = ms.nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    return ms.train.Model(net, loss, opt), net


def timed(fn):
    """``(wall seconds, process CPU seconds)`` of ``fn()``."""
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def run_rounds(variants, rounds):
    """Best-of-``rounds`` time of every variant's ``run()``, interleaved so background load
    hits every variant alike; ``{name: (wall, cpu)}``."""
    best = {name: [float("inf"), float("inf")] for name in variants}
    names = list(variants)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            wall, cpu = timed(variants[name])
            best[name][0] = min(best[name][0], wall)
            best[name][1] = min(best[name][1], cpu)
    return {name: tuple(v) for name, v in best.items()}
