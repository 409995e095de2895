"""jit levels as XLA compile options.

- O0: XLA with its fusion passes disabled: every op is its own kernel, as
  MindSpore's O0 runs kernel by kernel. (XLA still wraps each single op in a
  one-instruction "fusion" computation on CPU; nothing is fused together.)
- O1: XLA's full optimisation pipeline, fusion included.
- O2: O1; XLA has no further optimisation level that keeps results exact, so
  O2 is accepted for MindSpore compatibility and compiles like O1.
"""
from __future__ import annotations

_FUSION_PASSES = ",".join([
    "fusion", "cpu-instruction-fusion", "priority-fusion", "multi_output_fusion",
    "horizontal-loop-fusion", "horizontal-input-fusion", "fusion-merger", "sibling-fusion",
    "loop-fusion", "triton-softmax-rewriter", "reduction-splitter",
])

_OPTIONS = {
    "O0": {"xla_disable_hlo_passes": _FUSION_PASSES},
    "O1": {},
    "O2": {},
}


def compiler_options(jit_level: str) -> dict:
    """The XLA ``compiler_options`` for a jit level."""
    return dict(_OPTIONS[jit_level])
