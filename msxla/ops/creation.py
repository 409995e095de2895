"""Op rows: tensor creation (zeros, ones, full, arange, linspace, eye, ...)."""
__all__ = []
