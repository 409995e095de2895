"""Indexed reads: the common stablehlo.gather -> Gather.

The gather of one operand axis by a tensor of indices, full slices elsewhere
(an embedding lookup, ``x[idx]``, ``ops.gather``) is MindSpore's ``Gather``
with the indices clamped into range first, as StableHLO clamps them::

    gather(x, idx) on axis a  ->  Gather(x, Minimum(Maximum(idx, 0), n - 1), a, 0)

Other gather forms, and scatters, have no MindIR conversion here.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.mindir.registry import mindir_converter


def _axis(d, operand_shape, slice_sizes, idx_rank):
    """The gathered axis when the gather is a plain Gather, else None."""
    if list(d.operand_batching_dims) or len(d.start_index_map) != 1:
        return None
    a = d.start_index_map[0]
    if list(d.collapsed_slice_dims) != [a] or slice_sizes[a] != 1:
        return None
    if any(s != n for i, (s, n) in enumerate(zip(slice_sizes, operand_shape)) if i != a):
        return None
    nb = idx_rank - (1 if d.index_vector_dim < idx_rank else 0)
    expected = list(range(a)) + list(range(a + nb, nb + len(operand_shape) - 1))
    return a if list(d.offset_dims) == expected else None


@mindir_converter("stablehlo.gather")
def _gather(ctx, op):
    x, idx = ctx.inputs(op)
    d = parse.gather_dims(op)
    out_shape, _ = parse.value_type(op.results[0])
    axis = _axis(d, x.shape, parse.ints(op, "slice_sizes"), idx.rank)
    if axis is None or idx.dtype.kind not in "iu":
        raise ctx.unsupported(op, "other than the gather of one axis by a tensor of indices")
    if d.index_vector_dim < idx.rank:
        idx = ctx.reshape(idx, [n for i, n in enumerate(idx.shape) if i != d.index_vector_dim])
    b = ctx.b
    if idx.const is not None:
        idx = b.const(np.clip(idx.const, 0, x.shape[axis] - 1))
    else:
        idx = b.fn("Maximum", idx, b.const(np.zeros((), idx.dtype)))
        idx = b.fn("Minimum", idx, b.const(np.asarray(x.shape[axis] - 1, idx.dtype)))
    return [b.fn("Gather", x, idx, axis, out_shape=out_shape)]
