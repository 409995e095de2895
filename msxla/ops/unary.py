"""Op rows: elementwise unary math (abs, exp, log, sqrt, trig, rounding, ...)."""
__all__ = []
