"""Op rows: order statistics and differences (``quantile``, ``nanquantile``,
``nanmedian``, ``msort``, ``aminmax``, ``top_k``, ``histc``, ``diff``) and the
``Tensor.ptp`` method.

``quantile`` interpolates linearly between the two nearest ranks (numpy's
default, MindSpore's documented rule; its CPU build has no kernel for it).
``nanmedian`` returns the lower middle value of the non-NaN elements and its
index, as MindSpore does. ``histc`` counts into ``bins`` equal bins over
``[min, max]`` (the data's own range when
``min == max``), the last bin closed.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._shape_util import norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports, tensor_method

_FLOAT = (mstype.float16, mstype.float32, mstype.float64)
_REAL = tuple(t for t in mstype.all_types if 0 < mstype.category(t) < 3)


def _q(q):
    return jnp.asarray(q, jnp.float32 if not hasattr(q, "dtype") else q.dtype)


@op(static=("axis", "keepdims"), dtype_args=("input",), method="quantile", prim="Quantile",
    dtypes=_FLOAT)
def quantile(input, q, axis=None, keepdims=False):  # noqa: A002
    """The ``q``-th quantiles (``q`` in [0, 1]) along ``axis`` (all elements when None),
    linearly interpolated; a Tensor ``q`` adds a leading axis."""
    return jnp.quantile(input, _q(q).astype(input.dtype), axis=axis,
                        keepdims=keepdims).astype(input.dtype)


@op(static=("axis", "keepdims"), dtype_args=("input",), method="nanquantile",
    prim="Quantile", dtypes=_FLOAT)
def nanquantile(input, q, axis=None, keepdims=False):  # noqa: A002
    """``quantile`` ignoring NaN."""
    return jnp.nanquantile(input, _q(q).astype(input.dtype), axis=axis,
                           keepdims=keepdims).astype(input.dtype)


@op(static=("axis", "keepdims"), method="nanmedian", prim="Median", dtypes=_FLOAT,
    differentiable=False)
def nanmedian(input, axis=-1, keepdims=False):  # noqa: A002
    """``(values, indices)``: the lower median of the non-NaN values along ``axis`` and
    where it is."""
    ax = norm_axis(axis, input.ndim, "axis")
    x = input if input.ndim else input.reshape(1)
    order = jnp.argsort(x, axis=ax)  # NaN sorts last
    count = jnp.sum(~jnp.isnan(x), axis=ax, keepdims=True)
    k = jnp.maximum((count - 1) // 2, 0)
    idx = jnp.take_along_axis(order, k, axis=ax)
    values = jnp.take_along_axis(x, idx, axis=ax)
    if not keepdims:
        values, idx = jnp.squeeze(values, ax), jnp.squeeze(idx, ax)
    return values, idx.astype(jnp.int64)


@op(method="msort", prim="Sort", dtypes=_REAL)
def msort(input):  # noqa: A002
    """``input`` sorted along its first axis."""
    return jnp.sort(input, axis=0)


@op(static=("axis", "keepdims"), method="aminmax", prim="AMinMax", dtypes=_REAL)
def aminmax(input, *, axis=0, keepdims=False):  # noqa: A002
    """``(min, max)`` along ``axis``."""
    ax = norm_axis(axis, input.ndim, "axis")
    return (jnp.min(input, axis=ax, keepdims=keepdims),
            jnp.max(input, axis=ax, keepdims=keepdims))


@composite(method="top_k")
def top_k(input_x, k, sorted=True):  # noqa: A002 - MindSpore's name
    """``(values, indices)`` of the ``k`` largest elements of the last axis (``topk``)."""
    from msxla.ops.sorting import topk
    return topk(input_x, k, None, True, sorted)


@op(static=("bins", "min", "max"), method="histc", prim="Histogram", differentiable=False,
    dtypes=_FLOAT,
    primitive=PrimDef("Histogram", init=(("bins", 100), ("min", 0.0), ("max", 0.0)),
                      call=lambda p, x: histc(x, p.bins, p.min, p.max)))
def histc(input, bins=100, min=0.0, max=0.0):  # noqa: A002 - MindSpore's names
    """Counts of ``input`` in ``bins`` equal bins over ``[min, max]`` (the data's own
    range when ``min == max``); values outside are not counted."""
    x = input.reshape(-1)
    lo, hi = (jnp.min(x), jnp.max(x)) if min == max else (min, max)
    lo, hi = jnp.asarray(lo, x.dtype), jnp.asarray(hi, x.dtype)
    hi = jnp.where(hi == lo, hi + 1, hi)
    pos = jnp.floor((x - lo) / (hi - lo) * bins).astype(jnp.int32)
    pos = jnp.where(x == hi, bins - 1, pos)
    inside = (x >= lo) & (x <= hi)
    counts = jnp.zeros(bins, x.dtype).at[jnp.where(inside, pos, bins)].add(1, mode="drop")
    return counts


@op(static=("n", "axis"), dtype_args=("x", "prepend", "append"), dtype="promote",
    method="diff", prim="Diff")
def diff(x, n=1, axis=-1, prepend=None, append=None):
    """``x[i+1] - x[i]`` along ``axis`` (``!=`` for bool), after joining ``prepend`` and
    ``append``; MindSpore supports ``n=1`` only."""
    if n != 1:
        raise RuntimeError(f"For 'diff', 'n' must be 1, but got {n}")
    ax = norm_axis(axis, x.ndim, "axis")
    parts = [p for p in (prepend, x, append) if p is not None]
    y = jnp.concatenate(parts, axis=ax) if len(parts) > 1 else x
    a = jnp.take(y, jnp.arange(1, y.shape[ax]), axis=ax)
    b = jnp.take(y, jnp.arange(0, y.shape[ax] - 1), axis=ax)
    return a != b if y.dtype == jnp.bool_ else a - b


@tensor_method("ptp")
def _ptp(self, axis=None, keepdims=False):
    """The range ``max - min`` along ``axis`` (all elements when None)."""
    from msxla.ops.reduction import amax, amin
    return amax(self, axis, keepdims) - amin(self, axis, keepdims)


__all__ = exports(__name__)
