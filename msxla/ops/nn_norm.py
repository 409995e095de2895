"""Op rows: normalisation (layer_norm, batch_norm, group_norm, ...)."""
__all__ = []
