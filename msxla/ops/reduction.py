"""Op rows: reductions (sum, mean, prod, amax/amin, max/min, argmax/argmin, all/any,
count_nonzero, logsumexp) and the ``Reduce*`` / ``Arg*`` Primitive classes.

Output dtypes follow MindSpore 2.10: ``sum`` and ``prod`` of bool and integer
inputs give int64, ``mean`` keeps integer dtypes (truncating), ``argmax``
gives int64 while ``argmin`` gives int32, ``max``/``min`` return
``(values, indices)``. The ``Reduce*`` primitives keep the input's dtype.
Axes are static arguments; ``axis=()`` or ``None`` reduces every axis.
"""
from __future__ import annotations

import builtins
import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


_ALL = tuple(mstype.all_types)
_REAL = tuple(t for t in mstype.all_types if mstype.category(t) < 3)
_FLOAT = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def reduce_axes(axis, ndim, what="axis"):
    """Static ``axis`` (None, int, sequence) as a tuple of non-negative axes, or None for all.

    Raises MindSpore's ValueError for an axis outside ``[-ndim, ndim)`` or repeated."""
    if axis is None:
        return None
    if isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
        axis = (axis,)
    if not isinstance(axis, tuple):
        raise TypeError(f"the '{what}' must be an int, a tuple or a list of ints, "
                        f"but got {type(axis).__name__}.")
    if not axis:
        return None
    n = builtins.max(ndim, 1)
    out = []
    for a in axis:
        if isinstance(a, bool) or not isinstance(a, numbers.Integral):
            raise TypeError(f"each element of '{what}' must be an int, but got "
                            f"{type(a).__name__}.")
        if not -n <= a < n:
            raise ValueError(f"the '{what}' value must be in [{-n},{n}), but got {a}.")
        a = int(a) % n
        if a in out:
            raise ValueError(f"{what}={a} appears multiple times in the list of dims.")
        out.append(a)
    return tuple(out) if ndim else ()


def one_axis(axis, ndim, what="axis"):
    """A single static int axis, normalised (a 0-d input accepts 0 and -1)."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"the '{what}' must be an int, but got {type(axis).__name__}.")
    n = builtins.max(ndim, 1)
    if not -n <= axis < n:
        raise ValueError(f"the '{what}' must be in [{-n},{n}), but got {axis}.")
    return int(axis) % n


def _np(dtype):
    return None if dtype is None else mstype.to_ms(dtype).np_dtype


def _widen_int(x):
    """sum/prod accumulate bool and integer inputs in int64 (MindSpore's output dtype)."""
    return x.astype(jnp.int64) if x.dtype.kind in "biu" else x


def _axis_arg(axis):
    if isinstance(axis, Tensor):
        arr = axis.asnumpy()
        return int(arr) if arr.ndim == 0 else tuple(int(a) for a in arr.reshape(-1))
    return axis


def _reduce_prim(name, target, keep_dtype=False):
    """``name(keep_dims=False)(x, axis=())``: the row ``target`` (looked up when called)
    over ``axis``; ``keep_dtype`` keeps the input's dtype (ReduceSum, ReduceProd)."""
    def call(prim, x, axis=()):
        fn = globals()[target]
        axis = _axis_arg(axis)
        if getattr(prim, "skip_mode", False) and axis in ((), []):
            return x
        if keep_dtype:
            return fn(x, axis, prim.keep_dims, dtype=x.dtype if isinstance(x, Tensor) else None)
        return fn(x, axis, prim.keep_dims)
    init = (("keep_dims", False),) + ((("skip_mode", False),) if name == "ReduceSum" else ())
    return PrimDef(name, init=init, call=call, doc=f"``{name}(keep_dims=False)(x, axis=())``.")


@op(static=("dim", "keepdim", "dtype"), method=None, prim="ReduceSum", dtypes=_ALL,
    primitive=_reduce_prim("ReduceSum", "sum", keep_dtype=True))
def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001 - MindSpore's name
    """Sum over ``dim`` (all axes when None); bool and integer inputs sum to int64."""
    axes = reduce_axes(dim, input.ndim, "dim")
    if dtype is not None:
        target = _np(dtype)
        if target == np.bool_:
            return jnp.any(input, axis=axes, keepdims=keepdim)
        return jnp.sum(input.astype(target), axis=axes, keepdims=keepdim, dtype=target)
    x = _widen_int(input)
    return jnp.sum(x, axis=axes, keepdims=keepdim, dtype=x.dtype)


@op(static=("axis", "keep_dims"), prim="ReduceMean", dtypes=_REAL,
    primitive=_reduce_prim("ReduceMean", "mean"))
def mean(x, axis=None, keep_dims=False):
    """Mean over ``axis``; integer inputs keep their dtype (the mean is truncated)."""
    if x.dtype == np.bool_:
        raise TypeError("unsupported reduce operation for bool.")
    axes = reduce_axes(axis, x.ndim)
    if x.dtype.kind in "iu":
        out = jnp.mean(x.astype(jnp.float64), axis=axes, keepdims=keep_dims)
        return jnp.trunc(out).astype(x.dtype)
    return jnp.mean(x, axis=axes, keepdims=keep_dims)


@op(static=("axis", "keep_dims", "dtype"), prim="ReduceProd", dtypes=_ALL,
    primitive=_reduce_prim("ReduceProd", "prod", keep_dtype=True))
def prod(input, axis=None, keep_dims=False, dtype=None):
    """Product over ``axis``; bool and integer inputs multiply to int64."""
    axes = reduce_axes(axis, input.ndim)
    x = input.astype(_np(dtype)) if dtype is not None else _widen_int(input)
    if x.dtype == np.bool_:
        return jnp.all(x, axis=axes, keepdims=keep_dims)
    return jnp.prod(x, axis=axes, keepdims=keep_dims, dtype=x.dtype)


def _masked(input, initial, where, largest, name):
    """``input`` with masked-out entries and values beyond ``initial`` replaced."""
    if where is not None:
        if initial is None:
            raise ValueError("initial value must be provided for where masks")
        input = jnp.where(jnp.broadcast_to(where, input.shape), input,
                          jnp.asarray(initial, input.dtype))
    if initial is not None:
        bound = jnp.asarray(initial, input.dtype)
        input = jnp.maximum(input, bound) if largest else jnp.minimum(input, bound)
    return input


def _extreme(input, axis, keepdims, initial, where, largest):
    if input.dtype == np.bool_:
        raise TypeError("Reduce does not support this kernel data type: Bool.")
    axes = reduce_axes(axis, input.ndim)
    x = _masked(input, initial, where, largest, "ReduceMax" if largest else "ReduceMin")
    f = jnp.max if largest else jnp.min
    return f(x, axis=axes, keepdims=keepdims)


@op(static=("axis", "keepdims"), prim="ReduceMax", method="amax", dtypes=_REAL[1:],
    primitive=_reduce_prim("ReduceMax", "amax"))
def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum over ``axis``; ``where`` masks entries out (``initial`` is then required)."""
    return _extreme(input, axis, keepdims, initial, where, True)


@op(static=("axis", "keepdims"), prim="ReduceMin", method="amin", dtypes=_REAL[1:],
    primitive=_reduce_prim("ReduceMin", "amin"))
def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum over ``axis``; ``where`` masks entries out (``initial`` is then required)."""
    return _extreme(input, axis, keepdims, initial, where, False)


def _with_index(input, axis, keepdims, initial, where, largest, name):
    if input.dtype == np.bool_:
        raise TypeError("Reduce does not support this kernel data type: Bool.")
    if axis is not None and not (isinstance(axis, numbers.Integral)
                                 and not isinstance(axis, bool)):
        raise TypeError(f"'axis' must be int, but got {type(axis)}")
    x = _masked(input, initial, where, largest, name)
    f, argf = (jnp.max, jnp.argmax) if largest else (jnp.min, jnp.argmin)
    if axis is None:  # MindSpore: the index of a whole-tensor max is 0
        return f(x), jnp.zeros((), jnp.int64)
    ax = one_axis(axis, input.ndim)
    if input.ndim == 0:
        return x, jnp.zeros((), jnp.int64)
    values = (_extreme_along(x, ax, keepdims, largest)
              if jnp.issubdtype(x.dtype, jnp.floating) else f(x, axis=ax, keepdims=keepdims))
    return values, argf(x, axis=ax, keepdims=keepdims).astype(jnp.int64)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3))
def _extreme_along(x, ax, keepdims, largest):
    """The max (min) along ``ax``, whose derivative goes to the first extreme only
    (MindSpore's ArgMaxWithValue), not split over ties as jnp.max's is."""
    return (jnp.max if largest else jnp.min)(x, axis=ax, keepdims=keepdims)


@_extreme_along.defjvp
def _extreme_along_jvp(ax, keepdims, largest, primals, tangents):
    (x,), (dx,) = primals, tangents
    index = (jnp.argmax if largest else jnp.argmin)(x, axis=ax, keepdims=True)
    dv = jnp.take_along_axis(dx, index, axis=ax)
    return _extreme_along(x, ax, keepdims, largest), dv if keepdims else jnp.squeeze(dv, ax)


def _with_value(largest):
    def call(prim, x):
        values, index = (max if largest else min)(x, prim.axis, prim.keep_dims)
        return index, values
    name = "ArgMaxWithValue" if largest else "ArgMinWithValue"
    return PrimDef(name, init=(("axis", 0), ("keep_dims", False)), call=call,
                   doc=f"``(index, values)`` of the {'max' if largest else 'min'}imum along "
                       "``axis``.")


@op(static=("axis", "keepdims"), prim="Max", dtypes=_REAL[1:],
    primitive=_with_value(True))
def max(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001
    """``(values, indices)`` of the maximum along ``axis`` (indices are 0 for ``axis=None``)."""
    return _with_index(input, axis, keepdims, initial, where, True, "max")


@op(static=("axis", "keepdims"), prim="Min", dtypes=_REAL[1:],
    primitive=_with_value(False))
def min(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001
    """``(values, indices)`` of the minimum along ``axis`` (indices are 0 for ``axis=None``)."""
    return _with_index(input, axis, keepdims, initial, where, False, "min")


def _arg(input, axis, keepdims, largest, out_dtype):
    f = jnp.argmax if largest else jnp.argmin
    if input.dtype == np.bool_:
        input = input.astype(jnp.int8)
    if axis is None:  # MindSpore ignores keepdims here
        return f(input.reshape(-1)).astype(out_dtype)
    ax = one_axis(axis, input.ndim)
    if input.ndim == 0:
        return jnp.zeros((), out_dtype)
    return f(input, axis=ax, keepdims=keepdims).astype(out_dtype)


def _argprim(largest):
    def call(prim, x):
        out = (argmax if largest else argmin)(x, prim.axis, False)
        dtype = mstype.to_ms(prim.output_type)
        return out if out.dtype is dtype else out.astype(dtype)
    return call


@op(static=("dim", "keepdim"), prim="Argmax", dtypes=_REAL,
    primitive=PrimDef(init=(("axis", -1), ("output_type", mstype.int32)), call=_argprim(True)))
def argmax(input, dim=None, keepdim=False):
    """Index (int64) of the first maximum along ``dim``, or of the flattened input."""
    return _arg(input, dim, keepdim, True, jnp.int64)


@op(static=("axis", "keepdims"), prim="Argmin", dtypes=_REAL,
    primitive=PrimDef(init=(("axis", -1), ("output_type", mstype.int32)), call=_argprim(False)))
def argmin(input, axis=None, keepdims=False):
    """Index (int32, as MindSpore 2.10) of the first minimum along ``axis``."""
    return _arg(input, axis, keepdims, False, jnp.int32)


@op(static=("axis", "keep_dims"), prim="ReduceAll", dtypes=_ALL,
    primitive=_reduce_prim("ReduceAll", "all"))
def all(input, axis=None, keep_dims=False):  # noqa: A001
    """Logical AND over ``axis`` (non-zero counts as True); the result is bool."""
    return jnp.all(input != 0, axis=reduce_axes(axis, input.ndim), keepdims=keep_dims)


@op(static=("axis", "keep_dims"), prim="ReduceAny", dtypes=_ALL,
    primitive=_reduce_prim("ReduceAny", "any"))
def any(input, axis=None, keep_dims=False):  # noqa: A001
    """Logical OR over ``axis`` (non-zero counts as True); the result is bool."""
    return jnp.any(input != 0, axis=reduce_axes(axis, input.ndim), keepdims=keep_dims)


@op(static=("axis", "keep_dims", "dtype"), prim="CountNonZero", differentiable=False,
    dtypes=_ALL)
def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """Number of non-zero entries over ``axis`` (all axes for ``()``), as ``dtype``."""
    axes = reduce_axes(axis, x.ndim)
    return jnp.sum(x != 0, axis=axes, keepdims=keep_dims).astype(_np(dtype))


@op(static=("dim", "keepdim"), prim="LogSumExp", dtypes=_FLOAT[:3])
def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input)))`` over ``dim``, computed stably."""
    if input.dtype.kind in "biu":
        input = input.astype(jnp.float32)
    axes = reduce_axes(dim, input.ndim, "dim")
    m = jnp.max(input, axis=axes, keepdims=True)
    m = jnp.where(jnp.isfinite(m), m, jnp.zeros((), m.dtype))
    m = jax.lax.stop_gradient(m)
    out = jnp.log(jnp.sum(jnp.exp(input - m), axis=axes, keepdims=True)) + m
    if not keepdim:
        out = jnp.squeeze(out, axis=axes if axes is not None else tuple(range(input.ndim)))
    return out


@op(static=("axis", "keepdims", "dtype"), prim="NanSum", dtypes=_REAL)
def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """Sum treating NaN as zero; bool and integer inputs sum to int64."""
    axes = reduce_axes(axis, input.ndim)
    x = input.astype(_np(dtype)) if dtype is not None else _widen_int(input)
    return jnp.nansum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)


@op(static=("axis", "keepdims", "dtype"), prim="NanMean", dtypes=_FLOAT[:3])
def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mean of the non-NaN entries."""
    axes = reduce_axes(axis, input.ndim)
    x = input.astype(_np(dtype)) if dtype is not None else input
    return jnp.nanmean(x, axis=axes, keepdims=keepdims)


__all__ = exports(__name__)
