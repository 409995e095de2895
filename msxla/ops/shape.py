"""Op rows: shape manipulation (reshape, transpose, concat, split, tile, ...)."""
__all__ = []
