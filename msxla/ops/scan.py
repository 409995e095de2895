"""Op rows: cumulative scans (cumsum, cumprod, cummax, cummin, logcumsumexp) and the
``CumSum`` / ``CumProd`` primitives with their ``exclusive`` and ``reverse`` attributes.

``cumsum`` keeps the input's dtype (bool counts as int64); ``cumprod`` of
integers gives int64; ``cummax`` returns int64 indices and ``cummin`` int32,
as MindSpore 2.10 does. On ties both pick the latest position; NaN propagates.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor, wrap
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.reduction import one_axis
from msxla.ops.surface import exports


_NUM = tuple(t for t in mstype.all_types if 0 < mstype.category(t) < 3)
_FLOAT = (mstype.float16, mstype.float32, mstype.float64)


def _np(dtype):
    return mstype.to_ms(dtype).np_dtype


def _scan_prim(product):
    def call(prim, x, axis):
        if isinstance(axis, Tensor):
            axis = int(axis)
        data = x._data if isinstance(x, Tensor) else jnp.asarray(x)
        try:
            return wrap(_scan(data, axis, bool(prim.exclusive), bool(prim.reverse), product))
        except ValueError as err:
            from msxla.errors import ShapeError, user_error
            raise user_error(ShapeError, f"For '{prim.name}', {err}") from None
    return call


@op(static=("axis", "dtype"), prim="CumSum", dtypes=_NUM,
    primitive=PrimDef(init=(("exclusive", False), ("reverse", False)), call=_scan_prim(False),
                      doc="``CumSum(exclusive=False, reverse=False)(x, axis)``."))
def cumsum(x, axis, dtype=None):
    """Cumulative sum along ``axis``, in ``dtype`` if given (else the input's dtype)."""
    if dtype is not None:
        x = x.astype(_np(dtype))
    elif x.dtype == np.bool_:
        x = x.astype(jnp.int64)
    return jnp.cumsum(x, axis=one_axis(axis, x.ndim), dtype=x.dtype) if x.ndim else x


@op(static=("dim", "dtype"), prim="CumProd", dtypes=_NUM,
    primitive=PrimDef(init=(("exclusive", False), ("reverse", False)), call=_scan_prim(True),
                      doc="``CumProd(exclusive=False, reverse=False)(x, axis)``."))
def cumprod(input, dim, dtype=None):
    """Cumulative product along ``dim``; bool and integer inputs give int64."""
    if dtype is not None:
        input = input.astype(_np(dtype))
    elif input.dtype.kind in "biu":
        input = input.astype(jnp.int64)
    return (jnp.cumprod(input, axis=one_axis(dim, input.ndim), dtype=input.dtype)
            if input.ndim else input)


def _cum_extreme(x, axis, largest, index_dtype):
    if x.dtype == np.bool_:
        raise TypeError(f"For '{'Cummax' if largest else 'Cummin'}', the input must be a "
                        "numeric Tensor, but got Bool.")
    if x.ndim == 0:
        return x, jnp.zeros((), index_dtype)
    ax = one_axis(axis, x.ndim)
    shape = [1] * x.ndim
    shape[ax] = x.shape[ax]
    idx = jnp.broadcast_to(jnp.arange(x.shape[ax]).reshape(shape), x.shape)
    floating = x.dtype.kind == "f"

    def combine(a, b):  # b comes later: it wins ties, and a NaN stays once seen
        (va, ia), (vb, ib) = a, b
        take_b = (vb >= va) if largest else (vb <= va)
        if floating:
            take_b = (take_b | jnp.isnan(vb)) & ~jnp.isnan(va)
        return jnp.where(take_b, vb, va), jnp.where(take_b, ib, ia)

    values, index = jax.lax.associative_scan(combine, (x, idx), axis=ax)
    return values, index.astype(index_dtype)


@op(static=("axis",), prim="Cummax", dtypes=_NUM)
def cummax(input, axis):
    """``(values, indices)``: the running maximum along ``axis`` and where it was reached."""
    return _cum_extreme(input, axis, True, jnp.int64)


@op(static=("axis",), prim="Cummin", dtypes=_NUM,
    primitive=PrimDef(init=(("axis", 0),), call=lambda prim, x: cummin(x, prim.axis),
                      doc="``Cummin(axis)(x)``: ``(values, indices)`` of the running minimum."))
def cummin(input, axis):
    """``(values, indices)``: the running minimum along ``axis``; indices are int32."""
    return _cum_extreme(input, axis, False, jnp.int32)


@op(static=("axis",), prim="LogCumSumExp", dtypes=_FLOAT)
def logcumsumexp(input, axis):
    """``log(cumsum(exp(input)))`` along ``axis``, computed stably."""
    if input.dtype.kind != "f":
        raise TypeError("For 'LogCumSumExp', the input must be a float Tensor, "
                        f"but got {mstype.from_np(input.dtype)}.")
    return jax.lax.cumlogsumexp(input, axis=one_axis(axis, input.ndim))


# ------------------------------------------------------------------ primitives
@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4), inline=True)
def _scan(x, axis, exclusive, reverse, product):
    ax = one_axis(axis, x.ndim)
    if reverse:
        x = jnp.flip(x, ax)
    f = jnp.cumprod if product else jnp.cumsum
    out = f(x, axis=ax, dtype=x.dtype)
    if exclusive:
        ident = jnp.ones_like if product else jnp.zeros_like
        first = ident(jax.lax.slice_in_dim(out, 0, 1, axis=ax))
        out = jnp.concatenate([first, jax.lax.slice_in_dim(out, 0, x.shape[ax] - 1, axis=ax)],
                              axis=ax)
    if reverse:
        out = jnp.flip(out, ax)
    return out


__all__ = exports(__name__)
