"""MindSpore's own jit variants on the tutorial's ``a*b+c``, timed like jit_practice.py.

Runs in MindSpore's environment, not msxla's (nothing imports this file):

    GLOG_v=3 ~/ms-oracle/bin/python benchmarks/mindspore_simple_function.py [--json]

The variants are the tutorial's rows, built exactly as the tutorial builds
them (trace through the decorator). Each is timed the way
``jit_practice.py`` times msxla: first call ("time to prepare"), then
interleaved rounds of blocks of calls, each block synchronised on its last
output (``asnumpy``); per call = best block (wall clock and process CPU
time), time to run 1000 times = mean of all timed calls x 1000.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time

import numpy as np

import mindspore
from mindspore import Tensor


def f(a, b, c):
    return a * b + c


def variants():
    jit = mindspore.jit

    @jit(capture_mode="trace", jit_level="O0")
    def trace_o0(a, b, c):
        return a * b + c

    @jit(capture_mode="trace", jit_level="O1")
    def trace_o1(a, b, c):
        return a * b + c

    @jit(capture_mode="trace", backend="GE")
    def trace_ge(a, b, c):
        return a * b + c

    rows = [("PyNative", False, "-", "-", "-", None, f)]
    for mode in ("ast", "bytecode"):
        rows += [(f"{mode} O0", True, "O0", mode, "ms_backend", False,
                  jit(f, capture_mode=mode, jit_level="O0")),
                 (f"{mode} O1", True, "O1", mode, "ms_backend", False,
                  jit(f, capture_mode=mode, jit_level="O1")),
                 (f"{mode} GE", True, "-", mode, "GE", False,
                  jit(f, capture_mode=mode, backend="GE"))]
    rows += [("trace O0", True, "O0", "trace", "ms_backend", False, trace_o0),
             ("trace O1", True, "O1", "trace", "ms_backend", False, trace_o1),
             ("trace GE", True, "-", "trace", "GE", False, trace_ge)]
    for level in ("O0", "O1"):
        rows.append((f"ast {level} fullgraph", True, level, "ast", "ms_backend", True,
                     jit(f, capture_mode="ast", jit_level=level, fullgraph=True)))
    rows.append(("ast GE fullgraph", True, "-", "ast", "GE", True,
                 jit(f, capture_mode="ast", backend="GE", fullgraph=True)))
    return rows


def block(fn, args, n):
    gc.collect()
    gc.disable()
    try:
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            out = fn(*args)
        out.asnumpy()
        return time.perf_counter() - start, time.process_time() - cpu
    finally:
        gc.enable()


def measure(rounds, calls, min_s):
    rng = np.random.default_rng(0)
    args = [Tensor(rng.standard_normal((2, 3)).astype(np.float32), mindspore.float32)
            for _ in range(3)]
    expected = args[0].asnumpy() * args[1].asnumpy() + args[2].asnumpy()
    rows = []
    for name, enable, level, mode, backend, fullgraph, fn in variants():
        start = time.perf_counter()
        out = fn(*args).asnumpy()
        prepare = time.perf_counter() - start
        if not np.allclose(out, expected, rtol=1e-5, atol=1e-6):
            raise SystemExit(f"{name}: MindSpore returned {out}, expected {expected}")
        rows.append({"variant": name, "enable_jit": enable, "jit_level": level,
                     "capture_mode": mode, "backend": backend, "fullgraph": fullgraph,
                     "prepare_s": prepare, "fn": fn, "blocks": []})
    start, r = time.perf_counter(), 0
    while r < rounds or (time.perf_counter() - start < min_s and r < 100):
        for i in range(len(rows)):
            row = rows[(r + i) % len(rows)]
            row["blocks"].append(block(row["fn"], args, calls))
        r += 1
    for row in rows:
        blocks = row.pop("blocks")
        row.pop("fn")
        row["per_call_us"] = min(w for w, _ in blocks) / calls * 1e6
        row["cpu_per_call_us"] = min(c for _, c in blocks) / calls * 1e6
        row["time_for_1000_calls_s"] = sum(w for w, _ in blocks) / (calls * len(blocks)) * 1e3
        row["timed_calls"] = calls * len(blocks)
    return rows


def machine():
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": len(os.sched_getaffinity(0)), "python": sys.version.split()[0],
            "mindspore": mindspore.__version__,
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--min-s", type=float, default=20.0)
    args = parser.parse_args()
    mindspore.set_context(device_target="CPU")
    result = {"machine": machine(), "rows": measure(args.rounds, args.calls, args.min_s)}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    m = result["machine"]
    print(f"MindSpore {m['mindspore']} on {m['cpu']}, {m['cores']} cores, python "
          f"{m['python']}, load average at start {m['load_average_at_start']}\n")
    print("| variant | enable jit | jit level | capture mode | backend | fullgraph | time to "
          "prepare | time to run 1000 times | per call | CPU per call |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in result["rows"]:
        fullgraph = "-" if r["fullgraph"] is None else str(r["fullgraph"]).lower()
        print(f"| {r['variant']} | {str(r['enable_jit']).lower()} | {r['jit_level']} | "
              f"{r['capture_mode']} | {r['backend']} | {fullgraph} | {r['prepare_s']:.2f} s | "
              f"{r['time_for_1000_calls_s']:.3f} s | {r['per_call_us']:.1f} µs | "
              f"{r['cpu_per_call_us']:.1f} µs |")


if __name__ == "__main__":
    main()
