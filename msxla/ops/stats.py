"""Op rows: statistics over axes (std, var, std_mean, var_mean, median).

``std``/``var`` take numpy's ``ddof`` (MindSpore's functional signature);
the Tensor methods' ``correction`` spelling is mapped onto it in
``reduction_methods``. ``median`` returns ``(values, indices)`` of the lower
median along one axis, as MindSpore does, and propagates NaN.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.ops.opdef import op
from msxla.ops.reduction import one_axis, reduce_axes
from msxla.ops.surface import exports


_FLOAT = (mstype.float16, mstype.float32, mstype.float64)


def _check_float(x, name):
    if x.dtype.kind not in "fc":
        raise TypeError(f"For '{name}', the input must be a float Tensor "
                        f"(float16, float32 or float64), but got {mstype.from_np(x.dtype)}.")


def _var(x, axis, ddof, keepdims, name):
    _check_float(x, name)
    axes = reduce_axes(axis, x.ndim)
    return jnp.var(x, axis=axes, ddof=int(ddof), keepdims=keepdims)


@op(static=("axis", "ddof", "keepdims"), prim="ReduceStd", dtypes=_FLOAT)
def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation over ``axis`` with ``ddof`` delta degrees of freedom."""
    return jnp.sqrt(_var(input, axis, ddof, keepdims, "std"))


@op(static=("axis", "ddof", "keepdims"), prim="Var", dtypes=_FLOAT)
def var(input, axis=None, ddof=0, keepdims=False):
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom."""
    return _var(input, axis, ddof, keepdims, "var")


@op(static=("axis", "ddof", "keepdims"), prim="ReduceStd", dtypes=_FLOAT)
def std_mean(input, axis=None, ddof=0, keepdims=False):
    """``(std, mean)`` over ``axis``."""
    v = _var(input, axis, ddof, keepdims, "std_mean")
    return jnp.sqrt(v), jnp.mean(input, axis=reduce_axes(axis, input.ndim), keepdims=keepdims)


@op(static=("axis", "ddof", "keepdims"), prim="Var", dtypes=_FLOAT)
def var_mean(input, axis=None, ddof=0, keepdims=False):
    """``(var, mean)`` over ``axis``."""
    v = _var(input, axis, ddof, keepdims, "var_mean")
    return v, jnp.mean(input, axis=reduce_axes(axis, input.ndim), keepdims=keepdims)


@op(static=("axis", "keepdims"), prim="Median",
    dtypes=(mstype.int16, mstype.int32, mstype.int64, mstype.float32, mstype.float64))
def median(input, axis=-1, keepdims=False):
    """``(values, indices)`` of the lower median along ``axis`` (NaN if the slice has one)."""
    if input.dtype == np.bool_:
        raise TypeError("For 'Median', the input must be a numeric Tensor, but got Bool.")
    if input.ndim == 0:
        return input, jnp.zeros((), jnp.int64)
    ax = one_axis(axis, input.ndim)
    n = input.shape[ax]
    order = jnp.argsort(input, axis=ax, stable=True)
    pos = (n - 1) // 2
    idx = jnp.take(order, jnp.array([pos]), axis=ax)
    values = jnp.take_along_axis(input, idx, axis=ax)
    if input.dtype.kind in "fc":
        nan = jnp.isnan(input)
        has_nan = jnp.any(nan, axis=ax, keepdims=True)
        idx = jnp.where(has_nan, jnp.argmax(nan, axis=ax, keepdims=True), idx)
        values = jnp.where(has_nan, jnp.asarray(jnp.nan, input.dtype), values)
    if not keepdims:
        values, idx = jnp.squeeze(values, ax), jnp.squeeze(idx, ax)
    return values, idx.astype(jnp.int64)


__all__ = exports(__name__)
