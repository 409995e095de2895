"""Op rows: segment reductions and sequence rearrangements.

``unsorted_segment_{sum,max,min,prod}(x, segment_ids, num_segments)`` reduce the
rows of ``x`` by segment id into ``num_segments`` rows (an empty segment holds
the reduction's identity: 0, the dtype's lowest / highest value, 1; ids outside
``[0, num_segments)`` are dropped, as XLA's scatter drops them; MindSpore's CPU
kernel raises there). ``reverse_sequence`` reverses the first ``seq_lengths[b]``
elements of every batch row, ``unique_consecutive`` and ``unique_with_pad``
collapse runs and duplicates (their output sizes depend on the values, so they
run eagerly).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import wrap
from msxla.ops._shape_util import norm_axis, op
from msxla.ops.indexing import eager_value
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports

_NUM = tuple(t for t in mstype.all_types if 0 < mstype.category(t) < 3)


def _lowest(dtype):
    return jnp.finfo(dtype).min if jnp.issubdtype(dtype, jnp.floating) else jnp.iinfo(dtype).min


def _highest(dtype):
    return jnp.finfo(dtype).max if jnp.issubdtype(dtype, jnp.floating) else jnp.iinfo(dtype).max


def _segment(kind):
    def reduce(x, segment_ids, num_segments):
        ids = jnp.asarray(segment_ids)
        if ids.ndim > x.ndim or tuple(x.shape[:ids.ndim]) != tuple(ids.shape):
            raise ValueError(f"the shape of 'segment_ids' {tuple(ids.shape)} must be a prefix of "
                             f"the shape of 'x' {tuple(x.shape)}.")
        n = int(num_segments)
        flat = x.reshape((-1,) + x.shape[ids.ndim:])
        ids = ids.reshape(-1).astype(jnp.int32)
        if kind == "sum":
            return jax.ops.segment_sum(flat, ids, n)
        if kind == "prod":  # a masked product: differentiable (jax's segment_prod is not)
            mask = ids[None, :] == jnp.arange(n)[:, None]
            mask = mask.reshape(mask.shape + (1,) * (flat.ndim - 1))
            return jnp.prod(jnp.where(mask, flat[None], jnp.ones((), flat.dtype)), axis=1,
                            dtype=flat.dtype)
        if kind == "max":
            out = jax.ops.segment_max(flat, ids, n)
            return jnp.maximum(out, jnp.asarray(_lowest(x.dtype), x.dtype))
        out = jax.ops.segment_min(flat, ids, n)
        return jnp.minimum(out, jnp.asarray(_highest(x.dtype), x.dtype))
    return reduce


@op(static=("num_segments",), dtype_args=("input_x",), prim="UnsortedSegmentSum",
    dtypes=_NUM, primitive=PrimDef(call=lambda p, x, ids, n: unsorted_segment_sum(x, ids, n)))
def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sums of the rows of ``input_x`` by segment id (empty segments: 0)."""
    return _segment("sum")(input_x, segment_ids, num_segments)


@op(static=("num_segments",), dtype_args=("x",), method="unsorted_segment_max",
    prim="UnsortedSegmentMax", dtypes=_NUM,
    primitive=PrimDef(call=lambda p, x, ids, n: unsorted_segment_max(x, ids, n)))
def unsorted_segment_max(x, segment_ids, num_segments):
    """Maxima by segment id (empty segments: the dtype's lowest value)."""
    return _segment("max")(x, segment_ids, num_segments)


@op(static=("num_segments",), dtype_args=("x",), method="unsorted_segment_min",
    prim="UnsortedSegmentMin", dtypes=_NUM,
    primitive=PrimDef(call=lambda p, x, ids, n: unsorted_segment_min(x, ids, n)))
def unsorted_segment_min(x, segment_ids, num_segments):
    """Minima by segment id (empty segments: the dtype's highest value)."""
    return _segment("min")(x, segment_ids, num_segments)


@op(static=("num_segments",), dtype_args=("x",), method="unsorted_segment_prod",
    prim="UnsortedSegmentProd", dtypes=_NUM,
    primitive=PrimDef(call=lambda p, x, ids, n: unsorted_segment_prod(x, ids, n)))
def unsorted_segment_prod(x, segment_ids, num_segments):
    """Products by segment id (empty segments: 1)."""
    return _segment("prod")(x, segment_ids, num_segments)


@op(static=("seq_dim", "batch_dim"), dtype_args=("x",), method="reverse_sequence",
    prim="ReverseSequence",
    primitive=PrimDef(init=(("seq_dim", 0), ("batch_dim", 0)),
                      call=lambda p, x, lengths: reverse_sequence(x, lengths, p.seq_dim,
                                                                  p.batch_dim)))
def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each batch
    element ``b`` (along ``batch_dim``); the rest stay in place."""
    s, b = norm_axis(seq_dim, x.ndim, "seq_dim"), norm_axis(batch_dim, x.ndim, "batch_dim")
    if s == b:
        raise ValueError(f"'seq_dim' and 'batch_dim' must differ, but both are {s}.")
    n = x.shape[s]
    pos = jnp.arange(n)
    lengths = jnp.asarray(seq_lengths).astype(jnp.int32)
    src = jnp.where(pos[None, :] < lengths[:, None], lengths[:, None] - 1 - pos[None, :],
                    pos[None, :])  # (batch, n)
    shape = [1] * x.ndim
    shape[b], shape[s] = x.shape[b], n
    order = sorted((b, s))
    index = src if order == [b, s] else src.T
    return jnp.take_along_axis(x, index.reshape(shape).astype(jnp.int32) *
                               jnp.ones(x.shape, jnp.int32), axis=s)


@composite(method="unique_consecutive", prim="UniqueConsecutive")
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The values with consecutive repeats collapsed (along ``dim``, or of the flattened
    input), with the inverse map and the run lengths when asked (computed eagerly)."""
    arr = eager_value(input, "unique_consecutive", "input")
    axis = None if dim is None else norm_axis(dim, arr.ndim, "dim")
    work = arr.reshape(-1) if axis is None else np.moveaxis(arr, axis, 0)
    if len(work) == 0:
        starts = np.zeros(0, bool)
    else:
        diff = (work[1:] != work[:-1]).reshape(len(work) - 1, -1).any(1)
        starts = np.concatenate([[True], diff])
    run = np.cumsum(starts) - 1
    values = work[starts]
    if axis is not None:
        values = np.moveaxis(values, 0, axis)
    out = [wrap(jnp.asarray(values))]
    if return_inverse:
        out.append(wrap(jnp.asarray(run.reshape(arr.shape if axis is None else (-1,))
                                    .astype(np.int64))))
    if return_counts:
        out.append(wrap(jnp.asarray(np.diff(np.append(np.flatnonzero(starts), len(work)))
                                    .astype(np.int64))))
    return out[0] if len(out) == 1 else tuple(out)


@composite(method="unique_with_pad", prim="UniqueWithPad")
def unique_with_pad(x, pad_num):
    """``(y, idx)``: the distinct values of 1-D ``x`` in order of first appearance, padded
    with ``pad_num`` to ``x``'s length, and each element's position in ``y``."""
    arr = eager_value(x, "unique_with_pad", "x")
    if arr.ndim != 1:
        raise ValueError(f"For 'UniqueWithPad', the input must be 1-D, but got rank {arr.ndim}.")
    values, first, inverse = np.unique(arr, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    y = np.full(arr.shape, pad_num, arr.dtype)
    y[:order.size] = values[order]
    return wrap(jnp.asarray(y)), wrap(jnp.asarray(rank[inverse].astype(arr.dtype)))


__all__ = exports(__name__)
