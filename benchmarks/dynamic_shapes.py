"""dynamic=1 versus dynamic=0: 20 calls over 10 distinct batch sizes, one run.

An MLP (3 -> 64 -> 64 -> 10) is called with batch sizes cycling through 10
values twice. Reports total wall time and the counts of captures, lowerings
and XLA compiles for each setting. Run: ``.venv/bin/python benchmarks/dynamic_shapes.py``.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

BATCHES = [3, 5, 8, 13, 21, 34, 55, 89, 144, 233]


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        shapes = [(3, 64), (64, 64), (64, 10)]
        self.ws = nn.CellList()
        self.w = [Parameter(Tensor(rng.standard_normal(s).astype(np.float32) * 0.1),
                            name=f"w{i}") for i, s in enumerate(shapes)]
        for i, p in enumerate(self.w):
            self.insert_param_to_cell(f"w{i}", p)

    def construct(self, x):
        for p in self.w[:-1]:
            x = ops.relu(ops.matmul(x, p))
        return ops.matmul(x, self.w[-1])


def run(dynamic, capture_mode):
    net = MLP()
    g = ms.jit(net, capture_mode=capture_mode, dynamic=dynamic)
    rng = np.random.default_rng(1)
    inputs = [Tensor(rng.standard_normal((b, 3)).astype(np.float32)) for b in BATCHES * 2]
    start = time.perf_counter()
    for x in inputs:
        g(x).asnumpy()
    total = time.perf_counter() - start
    return {"dynamic": dynamic, "capture_mode": capture_mode, "total_s": round(total, 3),
            **g.stats.as_dict()}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--capture-mode", default="trace")
    args = parser.parse_args()
    rows = [run(d, args.capture_mode) for d in (0, 1)]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| dynamic | total s (20 calls) | captures | lowerings | compiles |\n"
          "|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dynamic']} | {r['total_s']} | {r['captures']} | {r['lowerings']} | "
              f"{r['compiles']} |")


if __name__ == "__main__":
    main()
