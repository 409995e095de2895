"""Compile counters of jitted functions, for tests and benchmarks."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class Counters:
    """How often a jitted function captured, lowered and compiled a graph.

    ``slow_calls`` counts calls that took the slow path (new signature, failed
    guard, traced inputs); cache hits on the hot path are counted per entry."""

    captures: int = 0
    lowerings: int = 0
    compiles: int = 0
    slow_calls: int = 0

    def as_dict(self):
        return dataclasses.asdict(self)
