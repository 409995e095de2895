"""``mindspore.nn.Embedding`` and ``EmbeddingLookup``: a lookup table of ``vocab_size``
rows of ``embedding_size``.

The table (Parameter ``embedding_table``) is initialised by ``embedding_table``
(default ``'normal'``, N(0, 0.01)) in float32; the row ``padding_idx`` is
zeroed at construction. Lookups are a gather (or, with ``use_one_hot``, a
one-hot matrix product), so every row, the padding row included, gets
gradients as in MindSpore. ``EmbeddingLookup`` (``param_init``, ``max_norm``)
gives zeros for ids outside ``[0, vocab_size)``, as MindSpore's kernel does, and
scales each row whose norm exceeds ``max_norm`` down to it; its sharding and
cache options (``target``, ``slice_mode``, ``manual_shapes``, ``sparse``) are
checked and kept, one device holding the whole table.
"""
from __future__ import annotations

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import initializer
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn._checkparam import check_value_type
from msxla.nn.cell import Cell

__all__ = ["Embedding", "EmbeddingLookup"]


class Embedding(Cell):
    """Rows of ``embedding_table`` at integer ids; output shape ``ids.shape + (embedding_size,)``.
    """

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = check_value_type("vocab_size", vocab_size, [int], "Embedding")
        self.embedding_size = check_value_type("embedding_size", embedding_size, [int],
                                               "Embedding")
        check_value_type("use_one_hot", use_one_hot, [bool], "Embedding")
        self.use_one_hot = use_one_hot
        self.dtype = mstype.to_ms(dtype)
        table = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if (not isinstance(padding_idx, int) or isinstance(padding_idx, bool)
                    or not 0 <= padding_idx < vocab_size):
                raise ValueError(f"For 'Embedding', the 'padding_idx' must be in range of "
                                 f"[0, {vocab_size}), but got {padding_idx} with type "
                                 f"'{type(padding_idx).__name__}'.")
            values = np.array(table.asnumpy())
            values[padding_idx] = 0
            table = Tensor(values, table.dtype)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat = ids.reshape((-1,))
        if self.use_one_hot:
            one_hot = ops.one_hot(flat, self.vocab_size, Tensor(1.0, self.dtype),
                                  Tensor(0.0, self.dtype))
            rows = ops.matmul(one_hot, self.embedding_table)
        else:
            rows = ops.gather(self.embedding_table, flat, 0)
        return rows.reshape(out_shape)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookup(Cell):
    """Rows of ``embedding_table`` at integer ids (zeros for ids out of range), each
    scaled to norm ``max_norm`` at most; output shape ``ids.shape + (embedding_size,)``."""

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", manual_shapes=None, max_norm=None, sparse=True,
                 dtype=mstype.float32):
        super().__init__()
        self.vocab_size = check_value_type("vocab_size", vocab_size, [int], "EmbeddingLookup")
        self.embedding_size = check_value_type("embedding_size", embedding_size, [int],
                                               "EmbeddingLookup")
        if target not in ("CPU", "DEVICE"):
            raise ValueError("For 'EmbeddingLookup', the 'target' must be str and must be in "
                             f"'['CPU', 'DEVICE']', but got '{target}'.")
        check_value_type("sparse", sparse, [bool], "EmbeddingLookup")
        self.target, self.slice_mode, self.manual_shapes = target, slice_mode, manual_shapes
        self.sparse = sparse
        self.max_norm = None if max_norm is None else \
            check_value_type("max_norm", max_norm, [float, int], "EmbeddingLookup")
        self.embedding_table = Parameter(
            initializer(param_init, [vocab_size, embedding_size], mstype.to_ms(dtype)),
            name="embedding_table")

    def construct(self, indices):
        flat = indices.reshape((-1,))
        valid = ops.logical_and(flat >= 0, flat < self.vocab_size)
        rows = ops.gather(self.embedding_table, ops.where(valid, flat, ops.zeros_like(flat)), 0)
        rows = rows * valid.reshape((-1, 1)).astype(rows.dtype)
        if self.max_norm is not None:
            norm = ops.sqrt((rows * rows).sum(-1, keepdims=True))
            rows = rows * (self.max_norm / ops.maximum(norm, self.max_norm))
        return rows.reshape(tuple(indices.shape) + (self.embedding_size,))
