"""Op rows: reductions and scans (sum, mean, max, argmax, cumsum, ...)."""
__all__ = []
