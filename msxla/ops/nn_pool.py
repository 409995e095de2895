"""Op rows: pooling (max/avg pool, adaptive pooling)."""
__all__ = []
