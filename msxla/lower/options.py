"""jit levels as XLA compile options.

- O0: each MindSpore op is its own kernel, as in MindSpore's O0 (no
  graph-kernel fusion) and in PyNative: XLA fuses the instructions of one op
  and never fuses across ops. The boundaries are optimization barriers put on
  every op's outputs while an O0 graph is captured for a GPU
  (``msxla/ops/_kernels.py``), so no compile option is needed. XLA:CPU drops
  optimization barriers before fusing and cannot run them otherwise, so on a
  CPU O0 compiles like O1. (XLA with its fusion passes disabled, O0 until
  now, ran every instruction of an op as a loop of its own: a BatchNorm
  became a dozen passes over memory, slower than PyNative and several times
  longer to compile.)
- O1: XLA's full optimisation pipeline, fusion across ops included.
- O2: O1; XLA has no further optimisation level that keeps results exact, so
  O2 is accepted for MindSpore compatibility and compiles like O1.
"""
from __future__ import annotations

_OPTIONS = {
    "O0": {},
    "O1": {},
    "O2": {},
}


def compiler_options(jit_level: str) -> dict:
    """The XLA ``compiler_options`` for a jit level."""
    return dict(_OPTIONS[jit_level])
