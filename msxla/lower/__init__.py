"""Lowering: captured graph -> StableHLO -> XLA executable."""
from msxla.lower.lowering import Lowered, lower  # noqa: F401
from msxla.lower.options import compiler_options  # noqa: F401
