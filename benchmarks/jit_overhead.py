"""Per-call cost of a jitted ``a*b+c`` on (2,3) float32, against raw jax.jit.

Kept as a short name for ``jit_practice.py --workloads simple`` (every jit
variant of the tutorial's table, raw jax.jit and jax eager, interleaved,
best of several rounds); it takes the same options. Run:
``.venv/bin/python benchmarks/jit_overhead.py [--quick] [--json]``.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from jit_practice import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["--workloads", "simple", *sys.argv[1:]]))
