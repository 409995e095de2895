"""Op rows: comparisons, logical and bitwise ops, NaN/inf tests."""
__all__ = []
