"""Op rows: dropout, interpolate, embedding lookup, padding and other nn ops."""
__all__ = []
