"""First call of a conv train step in a fresh process: cold cache against warm cache.

Each round starts a new, empty cache directory, runs the step in one process
(cold: everything compiled and stored) and then in a second process (warm:
executables loaded from the cache). A process builds a small conv net
(conv-BN-ReLU x2, pooling, dense), ``value_and_grad`` and Momentum, jits the
step and times its first call (capture, lowering and compile or load) and
the whole process (import included); both losses must agree (a round whose
losses differ is reported, left out of the medians, and the exit status is 1).
``--capture-mode pynative`` runs the step without jit: every op's first call
compiles it, and the cache keeps those executables too. Target: warm first
call <= half of cold. CPU time is reported beside wall time (the
machine may be shared). Run:
``.venv/bin/python benchmarks/compile_cache.py [--rounds 3] [--capture-mode ast]``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r"""
import json, sys, time, resource
t0 = time.perf_counter()
import numpy as np
import msxla as ms
from msxla import Tensor, nn, ops
ms.set_context(enable_compile_cache=True, compile_cache_path=sys.argv[1])
ms.set_seed(0)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell([
            nn.Conv2d(3, 16, 3), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dense(32, 10)])

    def construct(self, x):
        return self.body(x)


net = Net()
net.set_train()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)


def step(x, y):
    loss, grads = grad_fn(x, y)
    opt(grads)
    return loss


if sys.argv[2] != "pynative":  # PyNative: every op's first call at a shape compiles it
    step = ms.jit(step, capture_mode=sys.argv[2])


rng = np.random.default_rng(0)
x = Tensor(rng.standard_normal((8, 3, 32, 32)).astype(np.float32))
y = Tensor(rng.integers(0, 10, 8).astype(np.int32))
c0, w0 = time.process_time(), time.perf_counter()
loss = float(step(x, y).asnumpy())
first_wall, first_cpu = time.perf_counter() - w0, time.process_time() - c0
from msxla.jit import compile_cache
print(json.dumps({"loss": loss, "first_call_s": first_wall, "first_call_cpu_s": first_cpu,
                  "process_s": time.perf_counter() - t0, **compile_cache.stats()}))
"""


def run_child(script, cache, capture_mode):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, script, cache, capture_mode], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--capture-mode", default="ast",
                        help="ast, bytecode, trace, or pynative (no jit)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = {"cold": [], "warm": []}
    disagreements = []
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "step.py")
        with open(script, "w") as f:
            f.write(CHILD)
        for r in range(args.rounds):
            cache = os.path.join(tmp, f"cache{r}")
            cold = run_child(script, cache, args.capture_mode)
            warm = run_child(script, cache, args.capture_mode)
            if not abs(cold["loss"] - warm["loss"]) <= 1e-6 * max(1.0, abs(cold["loss"])):
                # kept out of the medians, reported, and the exit status says so
                disagreements.append(f"round {r}: cold loss {cold['loss']!r}, warm loss "
                                     f"{warm['loss']!r}")
                print(f"DISAGREES: {disagreements[-1]}", file=sys.stderr, flush=True)
                continue
            rows["cold"].append(cold)
            rows["warm"].append(warm)
    if not rows["cold"]:
        print("no round agreed: nothing to report", file=sys.stderr)
        return 1
    summary = {}
    for kind, runs in rows.items():
        summary[kind] = {k: statistics.median(r[k] for r in runs)
                         for k in ("first_call_s", "first_call_cpu_s", "process_s",
                                   "hits", "writes")}
    ratio = summary["warm"]["first_call_s"] / summary["cold"]["first_call_s"]
    ratio_cpu = summary["warm"]["first_call_cpu_s"] / summary["cold"]["first_call_cpu_s"]
    if args.json:
        print(json.dumps({"summary": summary, "ratio": ratio, "ratio_cpu": ratio_cpu,
                          "load": os.getloadavg(), "disagreements": disagreements}))
        return 1 if disagreements else 0
    print(f"conv train step, capture_mode={args.capture_mode}, {args.rounds} rounds "
          f"(medians), load average {os.getloadavg()[0]:.1f}")
    print("| process | first call (wall) | first call (CPU) | whole process | cache hits "
          "| cache writes |")
    print("|---|---|---|---|---|---|")
    for kind, s in summary.items():
        print(f"| {kind} | {s['first_call_s']:.2f} s | {s['first_call_cpu_s']:.2f} s | "
              f"{s['process_s']:.2f} s | {s['hits']:.0f} | {s['writes']:.0f} |")
    print(f"warm / cold first call: {ratio:.2f} (wall), {ratio_cpu:.2f} (CPU); "
          f"target <= 0.5: {'met' if max(ratio, ratio_cpu) <= 0.5 else 'not met'}")
    for line in disagreements:
        print(f"- left out, cold and warm losses differ: {line}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
