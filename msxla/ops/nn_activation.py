"""Op rows: activations (relu, gelu, silu, softmax, log_softmax, ...)."""
__all__ = []
