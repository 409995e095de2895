"""Data-parallel training steps per second at 1, 2 and 4 workers, and the bytes XLA moves.

    python benchmarks/distributed.py [--workers 1 2 4] [--steps 50] [--batch 64] [--json out.json]

Each configuration launches the workers with ``python -m msxla.launch`` on
127.0.0.1; every worker trains an MLP (784-512-512-10, Momentum) with
``TrainOneStepCell`` under ``DATA_PARALLEL`` in GRAPH_MODE on its own batch of
``--batch`` rows (weak scaling: the global batch grows with the workers). The
table gives steps per second (rank 0, after a warm-up that compiles the step),
samples per second over all workers, and per step the bytes entering
collectives in the compiled step (read from XLA's optimised HLO: all-reduce,
all-gather, reduce-scatter, all-to-all and collective-permute results).

On a CPU the workers share the machine's cores, so more workers do not make
steps faster; the point of the CPU numbers is that the collectives run and
what they cost, not scaling.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_COLLECTIVE = re.compile(r"^\s*(?:ROOT\s+)?%\S+\s=\s(.*?)\s(all-reduce|all-gather|reduce-scatter|"
                         r"all-to-all|collective-permute)(-start)?\(")
_ARRAY = re.compile(r"(pred|[su]\d+|f\d+|bf16)\[([\d,]*)\]")
_BYTES = {"pred": 1, "bf16": 2}


def collective_bytes(hlo_text: str) -> dict:
    """Bytes of every collective's result in an HLO module, by collective kind."""
    out = {}
    for line in hlo_text.splitlines():
        m = _COLLECTIVE.search(line)
        if not m:
            continue
        total = 0
        for dtype, dims in _ARRAY.findall(m.group(1)):
            size = _BYTES.get(dtype) or int(re.sub(r"\D", "", dtype)) // 8
            count = 1
            for d in filter(None, dims.split(",")):
                count *= int(d)
            total += size * count
        out[m.group(2)] = out.get(m.group(2), 0) + total
    return out


def worker(steps, batch):
    """One rank's run (under the launcher): prints ``BENCH {json}`` on rank 0."""
    import numpy as np
    import mindspore as ms
    from mindspore import Tensor, context, nn
    from mindspore.communication import get_rank, init

    init()
    context.set_context(mode=ms.GRAPH_MODE)
    context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    net = nn.SequentialCell([nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
                             nn.Dense(512, 10)])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.default_rng(get_rank())
    x = Tensor(rng.standard_normal((batch, 784)).astype(np.float32))
    y = Tensor(rng.integers(0, 10, batch).astype(np.int32))
    fn = ms.jit(lambda a, b: step(a, b))
    hlo = fn.lower(x, y).compile().as_text()
    if os.environ.get("MSXLA_BENCH_HLO") and get_rank() == 0:
        with open(os.environ["MSXLA_BENCH_HLO"], "w") as f:
            f.write(hlo)
    for _ in range(3):
        fn(x, y).asnumpy()
    start = time.perf_counter()
    for _ in range(steps):
        loss = fn(x, y)
    loss.asnumpy()
    elapsed = time.perf_counter() - start
    if get_rank() == 0:
        print("BENCH " + json.dumps({"steps_per_s": steps / elapsed,
                                     "collective_bytes": collective_bytes(hlo)}), flush=True)


def launch(workers, steps, batch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as logs:
        cmd = [sys.executable, "-m", "msxla.launch", f"--worker_num={workers}",
               f"--local_worker_num={workers}", "--master_addr=127.0.0.1",
               f"--master_port={port}", f"--log_dir={logs}", "--join=True",
               os.path.abspath(__file__), "--as-worker", f"--steps={steps}", f"--batch={batch}"]
        env = dict(os.environ, PYTHONPATH=ROOT)
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
        for line in proc.stdout.splitlines():
            if line.startswith("BENCH "):
                return json.loads(line[6:])
        raise RuntimeError(f"{workers} workers failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--json", default=None)
    p.add_argument("--as-worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.as_worker:
        worker(args.steps, args.batch)
        return 0
    rows, failed = [], False
    print(f"MLP 784-512-512-10, {args.batch} rows per worker, {os.cpu_count()} CPUs\n")
    print("| workers | steps/s | samples/s (all workers) | collective bytes per step |")
    print("|---:|---:|---:|---|", flush=True)
    for n in args.workers:   # each row printed (and saved) as soon as it is measured
        try:
            r = launch(n, args.steps, args.batch)
        except (RuntimeError, subprocess.TimeoutExpired) as err:
            print(str(err), file=sys.stderr, flush=True)
            failed = True
            rows.append({"workers": n, "failed": str(err).splitlines()[0]})
            print(f"| {n} | **FAILED** | - | - |", flush=True)
        else:
            r.update(workers=n, samples_per_s=r["steps_per_s"] * n * args.batch)
            rows.append(r)
            coll = ", ".join(f"{k} {v / 1e6:.2f} MB"
                             for k, v in sorted(r["collective_bytes"].items()))
            print(f"| {r['workers']} | {r['steps_per_s']:.1f} | {r['samples_per_s']:.0f} | "
                  f"{coll or 'none'} |", flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=1)
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
