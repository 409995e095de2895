"""Op rows: convolutions (conv1d/2d/3d, conv_transpose) and Conv2D primitives."""
__all__ = []
