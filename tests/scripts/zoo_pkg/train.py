"""Run as a module (python -m zoo_pkg.train --steps N): argparse and relative imports."""
import argparse

import numpy as np
import mindspore as ms
from mindspore import ops

from .config import LR

parser = argparse.ArgumentParser(description="tiny train")
parser.add_argument("--steps", type=int, default=2)
args = parser.parse_args()

w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")


def loss_fn(x):
    return ops.sum((x * w - 1.0) ** 2)


grad_fn = ms.grad(loss_fn, grad_position=None, weights=[w])
x = ms.Tensor(np.array([0.5, 1.0, 2.0], np.float32))
for _ in range(args.steps):
    (g,) = grad_fn(x)
    ops.assign_sub(w, g * LR)
print("name", __name__, "steps", args.steps, "w", w.asnumpy().round(6).tolist())
