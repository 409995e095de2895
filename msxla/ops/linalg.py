"""Op rows: linear algebra (matmul, bmm, BatchMatMul, dot, einsum, ...)."""
__all__ = []
