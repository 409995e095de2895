"""Op rows: random ops with set_seed semantics."""
__all__ = []
