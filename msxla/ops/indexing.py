"""Op rows: gather/scatter, where, masked_fill, one_hot, topk, sort, slicing."""
__all__ = []
