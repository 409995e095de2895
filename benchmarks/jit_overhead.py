"""Per-call cost of a jitted ``a*b+c`` on (2,3) float32, against raw jax.jit.

Both are measured in the same run, interleaved, best of several rounds (so
background load affects both alike). Prints a Markdown table; ``--json``
prints JSON. Run: ``.venv/bin/python benchmarks/jit_overhead.py``.
"""
from __future__ import annotations

import argparse
import json
import time

import jax
import jax.numpy as jnp
import numpy as np

import msxla as ms
from msxla import Tensor


def f(a, b, c):
    return a * b + c


def per_call_us(fn, args, n):
    start = time.perf_counter()
    for _ in range(n):
        fn(*args)
    return (time.perf_counter() - start) / n * 1e6


def measure(rounds=7, n=5000):
    rng = np.random.default_rng(0)
    tensors = [Tensor(rng.standard_normal((2, 3)), ms.float32) for _ in range(3)]
    arrays = [t._data for t in tensors]
    variants = {"raw jax.jit": (jax.jit(f), arrays), "jax eager": (f, arrays),
                "msxla PyNative": (f, tensors)}
    for mode in ("trace", "ast", "bytecode"):
        for level in ("O0", "O1"):
            variants[f"msxla jit {mode} {level}"] = (
                ms.jit(f, capture_mode=mode, jit_level=level), tensors)
    best = {k: float("inf") for k in variants}
    for name, (fn, args) in variants.items():
        fn(*args)
        jax.block_until_ready(getattr(fn(*args), "_data", fn(*args)))
    for _ in range(rounds):
        for name, (fn, args) in variants.items():
            count = n if "eager" not in name and "PyNative" not in name else n // 5
            best[name] = min(best[name], per_call_us(fn, args, count))
    raw = best["raw jax.jit"]
    return [{"variant": k, "us_per_call": round(v, 2), "ratio_to_raw_jax_jit": round(v / raw, 2)}
            for k, v in best.items()]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rows = measure(args.rounds)
    if args.json:
        print(json.dumps({"device": jax.devices()[0].platform, "rows": rows}, indent=1))
        return
    print(f"a*b+c on (2,3) float32, {jax.devices()[0].platform}\n")
    print("| variant | us per call | ratio to raw jax.jit |\n|---|---|---|")
    for r in rows:
        print(f"| {r['variant']} | {r['us_per_call']} | {r['ratio_to_raw_jax_jit']} |")


if __name__ == "__main__":
    main()
