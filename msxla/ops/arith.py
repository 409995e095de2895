"""Op rows: binary arithmetic (add, sub, mul, div, pow, floor/trunc division, ...) and operators.

dtypes follow MindSpore 2.10's implicit type conversion (``mstype.result_type``):
``add``/``sub`` reject a bool result (``bool + bool``), while ``subtract``
takes its ``alpha`` into the promotion (``subtract(bool, bool)`` is int64);
true division gives float32 for integers; Mul and Div promote as
``mstype.mul_result_type`` says; ``float_power`` computes in float64
(complex128 for complex inputs).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._elementwise import ALL, FLOAT, INT, NUM, REAL, binary, float_of
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports, tensor_method


@op(dtype=binary("Add", ALL, result=NUM), operators=("__add__", "__radd__", "__iadd__"),
    prim="Add", primitive=(True, PrimDef("TensorAdd")))
def add(input, other):
    """``input + other`` with MindSpore's type promotion and broadcasting."""
    return jnp.add(input, other)


@op(dtype=binary("Sub", ALL, result=NUM), operators=("__sub__", "__rsub__", "__isub__"),
    prim="Sub", primitive=True)
def sub(input, other):
    """``input - other``."""
    return jnp.subtract(input, other)


@op(dtype=mstype.mul_result_type, method="mul", operators=("__mul__", "__rmul__", "__imul__"),
    prim="Mul", primitive=True)
def mul(input, other):
    """``input * other``."""
    return jnp.multiply(input, other)


def _div(input, other, rounding_mode):
    if rounding_mode is None:
        if not jnp.issubdtype(input.dtype, jnp.inexact):
            input, other = input.astype(jnp.float32), other.astype(jnp.float32)
        return jnp.true_divide(input, other)
    if rounding_mode not in ("floor", "trunc"):
        raise ValueError(f"For 'Div', rounding_mode must be None, 'floor' or 'trunc', "
                         f"but got {rounding_mode!r}.")
    if input.dtype == jnp.bool_:
        return _div(input.astype(jnp.int8), other.astype(jnp.int8), rounding_mode) != 0
    if rounding_mode == "floor":
        return _floor_divide(input, other)
    return _trunc_div(input, other)


@op(dtype=mstype.mul_result_type, method="div",
    operators=("__truediv__", "__rtruediv__", "__itruediv__"),
    prim="Div", static=("rounding_mode",), primitive="Div")
def div(input, other, *, rounding_mode=None):
    """``input / other``; ``rounding_mode`` is None (true division: integers give float32),
    'floor' or 'trunc' (these keep the promoted dtype)."""
    return _div(input, other, rounding_mode)


@op(dtype=mstype.mul_result_type, method="divide", prim="Div", static=("rounding_mode",))
def divide(input, other, *, rounding_mode=None):
    """Alias of ``div``."""
    return _div(input, other, rounding_mode)


@op(dtype=lambda key: float_of(mstype.mul_result_type(key)), prim="Div")
def true_divide(dividend, divisor):
    """``dividend / divisor`` (integers give float32)."""
    return jnp.true_divide(dividend, divisor)


def _on_bools(fn, x, y):
    """``fn`` on bool inputs, computed as int8 and given back as bool (as MindSpore does)."""
    if x.dtype == jnp.bool_:
        return fn(x.astype(jnp.int8), y.astype(jnp.int8)) != 0
    return fn(x, y)


def _by_zero(q, x, y):
    """Integer division by zero as MindSpore's CPU kernels give it: the dtype's
    largest value for a positive dividend, its smallest for a negative one, 0 for 0
    (XLA alone gives -1)."""
    if not jnp.issubdtype(q.dtype, jnp.integer):
        return q
    info = jnp.iinfo(q.dtype)
    x = x.astype(q.dtype)
    limit = jnp.where(x > 0, info.max, jnp.where(x < 0, info.min, 0)).astype(q.dtype)
    return jnp.where(y == 0, limit, q)


def _floor_divide(x, y):
    if jnp.iscomplexobj(x):  # MindSpore: the floor of the quotient's real part
        return jnp.floor(jnp.real(x / y)).astype(x.dtype)
    return _by_zero(jnp.floor_divide(x, y), x, y)


def _remainder(x, y):
    """``x % y`` with the sign of ``y``; by an integer zero, ``x`` (as MindSpore gives)."""
    r = jnp.remainder(x, y)
    if jnp.issubdtype(r.dtype, jnp.integer):
        return jnp.where(y == 0, x.astype(r.dtype), r)
    return r


@op(dtype="promote", method="floor_divide",
    operators=("__floordiv__", "__rfloordiv__", "__ifloordiv__"), prim="FloorDiv", primitive=True)
def floor_divide(input, other):
    """``input // other`` (rounds toward negative infinity)."""
    return _on_bools(_floor_divide, input, other)


@op(dtype="promote", prim="FloorDiv")
def floor_div(x, y):
    """Alias of ``floor_divide``."""
    return _on_bools(_floor_divide, x, y)


@op(dtype=binary("FloorMod", REAL), method="remainder",
    operators=("__mod__", "__rmod__", "__imod__"), prim="FloorMod", primitive=True)
def remainder(input, other):
    """``input % other`` with the sign of ``other`` (Python's convention)."""
    return _on_bools(_remainder, input, other)


@op(dtype=binary("FloorMod", REAL), prim="FloorMod")
def floor_mod(x, y):
    """Alias of ``remainder``."""
    return _on_bools(_remainder, x, y)


def _trunc_div(x, y):
    if jnp.issubdtype(x.dtype, jnp.integer):
        return _by_zero(jax.lax.div(*jnp.broadcast_arrays(x, y)), x, y)
    return jnp.trunc(jnp.true_divide(x, y)).astype(jnp.result_type(x, y))


def _trunc_mod(x, y):
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jax.lax.rem(*jnp.broadcast_arrays(x, y))
    return jnp.fmod(x, y)


@op(dtype=binary("TruncateDiv", REAL), prim="TruncateDiv", primitive=True)
def truncate_div(x, y):
    """Division rounded toward zero."""
    return _on_bools(_trunc_div, x, y)


@op(dtype=binary("TruncateMod", REAL, result=(INT, FLOAT)), prim="TruncateMod",
    primitive=("TruncateMod", "Mod"))
def truncate_mod(x, y):
    """The remainder of ``truncate_div``: it has the sign of ``x`` (C's ``%``)."""
    return _trunc_mod(x, y)


@op(dtype="promote", method="pow", operators=("__pow__", "__rpow__", "__ipow__"), prim="Pow",
    primitive=True)
def pow(input, exponent):  # noqa: A001 - MindSpore's name
    """``input ** exponent``."""
    return _on_bools(jnp.power, input, exponent)


def _float_power_dtype(t, key):
    return mstype.complex128 if mstype.category(t) == 3 else mstype.float64


@op(dtype=binary("FloatPower", ALL, out=_float_power_dtype), prim="FloatPower")
def float_power(input, exponent):
    """``input ** exponent`` computed in float64 (complex128 for complex inputs)."""
    return jnp.power(input, exponent)


@op(dtype=binary("Maximum", ALL), method="maximum", prim="Maximum", primitive=True)
def maximum(input, other):
    """Elementwise maximum (NaN propagates)."""
    return jnp.maximum(input, other)


@op(dtype=binary("Minimum", REAL), method="minimum", prim="Minimum", primitive=True)
def minimum(input, other):
    """Elementwise minimum (NaN propagates)."""
    return jnp.minimum(input, other)


_FMINMAX = dict(allow=REAL, scalars=REAL, result=(INT, FLOAT))


@op(dtype=binary("Fmax", **_FMINMAX), method="fmax", prim="Fmax", primitive=True)
def fmax(input, other):
    """Elementwise maximum ignoring NaN (NaN only where both are NaN)."""
    return jnp.fmax(input, other)


@op(dtype=binary("Fmin", **_FMINMAX), method="fmin", prim="Fmin", primitive=True)
def fmin(input, other):
    """Elementwise minimum ignoring NaN."""
    return jnp.fmin(input, other)


@op(method="neg", operators=("__neg__",), prim="Neg", primitive=True)
def neg(input):
    """``-input``."""
    return jnp.negative(input)


@op(dtype=binary("Sub", ALL), method="subtract", prim="Sub")
def subtract(input, other, *, alpha=1):
    """``input - alpha * other``; ``alpha`` takes part in the type promotion."""
    return jnp.subtract(input, jnp.multiply(alpha, other))


@op(dtype=mstype.mul_result_type, prim="Mul")
def multiply(input, other):
    """Alias of ``mul``."""
    return jnp.multiply(input, other)


@tensor_method("add")
def _tensor_add(self, other, *, alpha=1):
    """``Tensor.add(other, *, alpha=1)``: ``self + alpha * other``."""
    return add(self, other if _is_one(alpha) else mul(other, alpha))


@tensor_method("sub")
def _tensor_sub(self, other, *, alpha=1):
    """``Tensor.sub(other, *, alpha=1)``: ``self - alpha * other``."""
    return sub(self, other) if _is_one(alpha) else subtract(self, other, alpha=alpha)


def _is_one(alpha):
    return type(alpha) is int and alpha == 1


@tensor_method("true_divide")
def _tensor_true_divide(self, other):
    """``Tensor.true_divide(other)``."""
    return true_divide(self, other)


@tensor_method("multiply")
def _tensor_multiply(self, value):
    """``Tensor.multiply(value)``."""
    return multiply(self, value)


@tensor_method("float_power")
def _tensor_float_power(self, other):
    """``Tensor.float_power(other)``."""
    return float_power(self, other)


@composite(public=False, primitive=PrimDef("SquaredDifference"))
def _squared_difference(x, y):
    """``(x - y) ** 2``."""
    d = sub(x, y)
    return mul(d, d)



__all__ = exports(__name__)
