"""Op rows: losses (cross_entropy, nll_loss, binary_cross_entropy, ...)."""
__all__ = []
