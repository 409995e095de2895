"""Per-op eager (PyNative) dispatch cost against the same jax call, one run.

For each op, msxla's call on Tensors and the equivalent jax.numpy call on the
underlying arrays are timed interleaved (best of several rounds, process CPU
time). Target: at most 1.3x the jax call. Run:
``.venv/bin/python benchmarks/eager_dispatch.py [--json]``.
"""
from __future__ import annotations

import argparse
import json
import time

import jax
import jax.numpy as jnp
import numpy as np

from msxla import Tensor, ops


def cases():
    rng = np.random.default_rng(0)
    a_np = rng.standard_normal((2, 3)).astype(np.float32)
    b_np = rng.standard_normal((2, 3)).astype(np.float32)
    m_np = rng.standard_normal((3, 4)).astype(np.float32)
    a, b, m = Tensor(a_np), Tensor(b_np), Tensor(m_np)
    ja, jb, jm = a._data, b._data, m._data
    return [
        ("add", lambda: ops.add(a, b), lambda: jnp.add(ja, jb)),
        ("a + b", lambda: a + b, lambda: ja + jb),
        ("a * 2.0", lambda: a * 2.0, lambda: ja * 2.0),
        ("mul", lambda: ops.mul(a, b), lambda: jnp.multiply(ja, jb)),
        ("exp", lambda: ops.exp(a), lambda: jnp.exp(ja)),
        ("relu", lambda: ops.relu(a), lambda: jax.nn.relu(ja)),
        ("matmul", lambda: ops.matmul(a, m), lambda: jnp.matmul(ja, jm)),
        ("sum(axis=1)", lambda: a.sum(axis=1), lambda: jnp.sum(ja, axis=1)),
        ("reshape", lambda: a.reshape(3, 2), lambda: jnp.reshape(ja, (3, 2))),
        ("transpose", lambda: ops.transpose(a, (1, 0)), lambda: jnp.transpose(ja, (1, 0))),
    ]


def best_of(fn, rounds, n):
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - start) / n * 1e6)
    return best


def measure(rounds=5, n=2000):
    rows = []
    for name, ms_fn, jax_fn in cases():
        ms_fn(), jax_fn()
        t_jax = t_ms = float("inf")
        for _ in range(rounds):  # interleave so both see the same load
            t_jax = min(t_jax, best_of(jax_fn, 1, n))
            t_ms = min(t_ms, best_of(ms_fn, 1, n))
        rows.append({"op": name, "jax_us": round(t_jax, 2), "msxla_us": round(t_ms, 2),
                     "ratio": round(t_ms / t_jax, 2)})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = measure()
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| op | jax eager us | msxla us | ratio |\n|---|---|---|---|")
    for r in rows:
        print(f"| {r['op']} | {r['jax_us']} | {r['msxla_us']} | {r['ratio']} |")


if __name__ == "__main__":
    main()
