"""Op rows: creating tensors (zeros, ones, full, fill, eye, arange, range, linspace, ...).

Shapes, sizes and the bounds of ``arange``/``range`` fix the output shape,
so they are static; a 0-d Tensor passed for one is read as a Python number.
Default dtypes follow MindSpore: float32 for zeros/ones/eye/linspace, int64
for ``full`` without ``dtype``, int64 or float32 for ``arange`` and ``range``.
"""
from __future__ import annotations

import math
import numbers

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.errors import DTypeError, user_error
from msxla.ops._shape_util import ArgTypeError, as_dtype, as_shape, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports, tensor_method


def _dt(dtype, default):
    return (default if dtype is None else as_dtype(dtype)).np_dtype


@op(static=("size", "dtype"), prim="Zeros", differentiable=False, primitive=True)
def zeros(size, dtype=None):
    """A tensor of ``size`` (int, tuple or list) filled with 0 (default dtype float32)."""
    return jnp.zeros(as_shape(size, "size"), _dt(dtype, mstype.float32))


@op(static=("shape", "dtype"), prim="Ones", differentiable=False, primitive=True)
def ones(shape, dtype=None):
    """A tensor of ``shape`` filled with 1 (default dtype float32)."""
    return jnp.ones(as_shape(shape), _dt(dtype, mstype.float32))


def _fill_v2(prim, shape, value):
    dt = value.dtype if isinstance(value, Tensor) else mstype.scalar_dtype(value)
    return fill(dt, shape, value)


@op(static=("size", "dtype"), prim="FillV2",
    primitive=PrimDef(call=_fill_v2))
def full(size, fill_value, *, dtype=None):
    """A tensor of ``size`` (tuple or list) filled with ``fill_value``; without ``dtype``
    it is int64, as MindSpore documents (``full((2,), 1.5)`` gives ``[1, 1]``)."""
    if not isinstance(size, (tuple, list)):
        raise ArgTypeError(f"'size' must be a tuple or list of ints, but got "
                        f"{type(size).__name__}.")
    return jnp.full(as_shape(size, "size"), jnp.asarray(fill_value).astype(
        _dt(dtype, mstype.int64)))


@op(static=("type", "shape"), prim="Fill", primitive=True)
def fill(type, shape, value):  # noqa: A002 - MindSpore's name
    """A tensor of ``shape`` and dtype ``type`` filled with ``value``."""
    return jnp.full(as_shape(shape), jnp.asarray(value).astype(as_dtype(type).np_dtype))


@op(static=("dtype",), prim="ZerosLike", differentiable=False,
    primitive=PrimDef(call=lambda prim, x: zeros_like(x)))
def zeros_like(input, *, dtype=None):
    """Zeros with the shape of ``input`` and its dtype (or ``dtype``)."""
    input = jnp.asarray(input)
    return jnp.zeros(input.shape, input.dtype if dtype is None else _dt(dtype, None))


@op(static=("dtype",), prim="OnesLike", differentiable=False,
    primitive=PrimDef(call=lambda prim, x: ones_like(x)))
def ones_like(input, *, dtype=None):
    """Ones with the shape of ``input`` and its dtype (or ``dtype``)."""
    input = jnp.asarray(input)
    return jnp.ones(input.shape, input.dtype if dtype is None else _dt(dtype, None))


@op(static=("dtype",), prim="FillV2")
def full_like(input, fill_value, *, dtype=None):
    """``fill_value`` with the shape of ``input`` and its dtype (or ``dtype``)."""
    out = input.dtype if dtype is None else _dt(dtype, None)
    return jnp.full(jnp.shape(input), jnp.asarray(fill_value).astype(out))


def _int_arg(v, name):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise ArgTypeError(f"'{name}' must be an int, but got {type(v).__name__}.")
    return int(v)


@op(static=("n", "m", "dtype"), prim="Eye", differentiable=False, primitive=True)
def eye(n, m=None, dtype=None):
    """An ``n`` x ``m`` matrix with ones on the main diagonal (default dtype float32)."""
    n = _int_arg(n, "n")
    m = n if m is None else _int_arg(m, "m")
    return jnp.eye(n, m, dtype=_dt(dtype, mstype.float32))


def _check_range(start, end, step, opname):
    if step == 0:
        raise ValueError(f"delta cannot be equal to zero.")
    if end < start and step > 0:
        raise ValueError(f"delta cannot be positive when limit < start.")
    if end > start and step < 0:
        raise ValueError(f"delta cannot be negative when limit > start.")
    return max(math.ceil((end - start) / step), 0)


@op(static=("start", "end", "step", "dtype"), prim="Range", differentiable=False)
def arange(start=0, end=None, step=1, *, dtype=None):
    """``start, start + step, ...`` up to (excluding) ``end``; int64 for integer bounds,
    float32 when any bound is a float, or ``dtype``."""
    if end is None:
        start, end = 0, start
    for v in (start, end, step):
        if not isinstance(v, numbers.Real):
            raise ArgTypeError(f"the bounds must be numbers or 0-d Tensors, but "
                            f"got {type(v).__name__}.")
    base = mstype.float32 if any(isinstance(v, float) for v in (start, end, step)) \
        else mstype.int64
    n = _check_range(start, end, step, "Range")
    out = (start + jnp.arange(n, dtype=jnp.float64) * step) if base is mstype.float32 else \
        start + jnp.arange(n, dtype=jnp.int64) * step
    out = out.astype(base.np_dtype)
    return out if dtype is None else out.astype(_dt(dtype, None))


@op(static=("start", "end", "step", "maxlen"), prim="Range", differentiable=False,
    primitive=PrimDef(init=(("maxlen", 1000000),),
                      call=lambda prim, s, e, d: range(s, e, d, prim.maxlen)))
def range(start, end, step, maxlen=1000000):  # noqa: A001 - MindSpore's name
    """``start, start + step, ...`` up to (excluding) ``end``; the three must share a type
    (int64 output for ints, float32 for floats) and give at most ``maxlen`` elements."""
    kinds = {isinstance(v, float) for v in (start, end, step)}
    if len(kinds) != 1:
        raise ArgTypeError(f"the dtypes of inputs must be the same, but got "
                        f"({type(start).__name__}, {type(end).__name__}, "
                        f"{type(step).__name__}).")
    n = _check_range(start, end, step, "Range")
    if n > maxlen:
        raise ValueError(f"the number of elements ({n}) exceeds maxlen {maxlen}.")
    if kinds == {True}:
        return (start + jnp.arange(n, dtype=jnp.float64) * step).astype(jnp.float32)
    return start + jnp.arange(n, dtype=jnp.int64) * step


def _space_rule(key):
    return mstype.float64 if mstype.float64 in key else mstype.float32


@op(static=("steps",), dtype=_space_rule, prim="LinSpace", primitive=True)
def linspace(start, end, steps):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive (float32 unless
    the bounds are float64 Tensors)."""
    steps = _int_arg(steps, "steps")
    if steps < 1:
        raise ValueError(f"'steps' must be positive, but got {steps}.")
    return jnp.linspace(start, end, steps)


_LOG_TYPES = (mstype.float16, mstype.float32, mstype.float64)


@op(static=("steps", "base", "dtype"), dtype=lambda key: mstype.float64, prim="LogSpace",
    primitive=PrimDef(init=(("steps", 10), ("base", 10), ("dtype", mstype.float32)),
                      call=lambda prim, s, e: logspace(s, e, prim.steps, prim.base,
                                                       dtype=prim.dtype)))
def logspace(start, end, steps, base=10, *, dtype=mstype.float32):
    """``steps`` values ``base ** t`` with ``t`` evenly spaced from ``start`` to ``end``."""
    out = as_dtype(dtype)
    if out not in _LOG_TYPES:
        raise user_error(DTypeError, f"For 'LogSpace', the 'dtype' should be one of "
                                     f"{list(_LOG_TYPES)}, but got {out!r}.")
    steps = _int_arg(steps, "steps")
    t = jnp.linspace(start, end, steps)
    return jnp.power(jnp.asarray(base, jnp.float64), t).astype(out.np_dtype)


@op(static=("N",), prim="Vander")
def vander(x, N=None):
    """The Vandermonde matrix of 1-D ``x``: columns ``x**(N-1), ..., x**0`` (integer inputs
    give int64)."""
    if x.ndim != 1:
        raise ValueError(f"the input must be 1-D, but got shape {tuple(x.shape)}.")
    if jnp.issubdtype(x.dtype, jnp.integer) or x.dtype == jnp.bool_:
        x = x.astype(jnp.int64)
    return jnp.vander(x, N)


@op(static=("dtype",), prim="ScalarToTensor", primitive=True)
def scalar_to_tensor(input_x, dtype=mstype.float32):
    """A 0-d Tensor of ``dtype`` holding the Python scalar ``input_x``."""
    return jnp.asarray(input_x).astype(as_dtype(dtype).np_dtype)


@op(prim="TupleToArray", differentiable=False,
    primitive=PrimDef(call=lambda prim, x: tuple_to_array(tuple(x))))
def tuple_to_array(input_x):
    """A 1-D Tensor from a tuple of Python numbers: int32 for ints, float32 if any float."""
    if not isinstance(input_x, tuple) or not input_x:
        raise ArgTypeError(f"the input must be a non-empty tuple of numbers, but got "
                           f"{type(input_x).__name__}.")
    values = [jnp.asarray(v) for v in input_x]
    floating = any(jnp.issubdtype(v.dtype, jnp.inexact) for v in values)
    return jnp.stack(values).astype(jnp.float32 if floating else jnp.int32)


# ------------------------------------------------------------ Tensor methods
@tensor_method("new_zeros")
def _new_zeros(self, size, dtype=None):
    return zeros(size, self.dtype if dtype is None else dtype)


@tensor_method("new_ones")
def _new_ones(self, size, dtype=None):
    return ones(size, self.dtype if dtype is None else dtype)


@tensor_method("new_full")
def _new_full(self, size, fill_value, *, dtype=None):
    return full(size, fill_value, dtype=self.dtype if dtype is None else dtype)


@tensor_method("new_empty")
def _new_empty(self, size, *, dtype=None, device=None):
    return zeros(size, self.dtype if dtype is None else dtype)



__all__ = exports(__name__)
