"""Op rows: binary arithmetic (add, sub, mul, div, pow, ...) and their operators."""
from __future__ import annotations

import jax.numpy as jnp

from msxla.ops.opdef import op
from msxla.ops.primitive import make_primitive

__all__ = ["add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum", "minimum",
           "neg", "Add", "Sub", "Mul", "Div", "RealDiv", "FloorDiv", "FloorMod", "Pow", "Maximum",
           "Minimum", "Neg"]


@op(dtype="promote", method="add", operators=("__add__", "__radd__", "__iadd__"), prim="Add")
def add(input, other):
    """``input + other`` with MindSpore's type promotion and broadcasting."""
    return jnp.add(input, other)


@op(dtype="promote", method="sub", operators=("__sub__", "__rsub__", "__isub__"), prim="Sub")
def sub(input, other):
    """``input - other``."""
    return jnp.subtract(input, other)


@op(dtype="promote", method="mul", operators=("__mul__", "__rmul__", "__imul__"), prim="Mul")
def mul(input, other):
    """``input * other``."""
    return jnp.multiply(input, other)


@op(dtype="float", method="div", operators=("__truediv__", "__rtruediv__", "__itruediv__"),
    prim="Div", static=("rounding_mode",))
def div(input, other, *, rounding_mode=None):
    """``input / other``; ``rounding_mode`` is None (true division), 'floor' or 'trunc'."""
    if rounding_mode is None:
        return jnp.true_divide(input, other)
    if rounding_mode == "floor":
        return jnp.floor_divide(input, other)
    if rounding_mode == "trunc":
        q = jnp.true_divide(input, other)
        return jnp.trunc(q).astype(jnp.result_type(input, other))
    raise ValueError(f"For 'div', rounding_mode must be None, 'floor' or 'trunc', "
                     f"but got {rounding_mode!r}.")


@op(dtype="promote", method="floor_divide",
    operators=("__floordiv__", "__rfloordiv__", "__ifloordiv__"), prim="FloorDiv")
def floor_divide(input, other):
    """``input // other`` (rounds toward negative infinity)."""
    return jnp.floor_divide(input, other)


@op(dtype="promote", method="remainder", operators=("__mod__", "__rmod__", "__imod__"),
    prim="FloorMod")
def remainder(input, other):
    """``input % other`` with the sign of ``other`` (Python's convention)."""
    return jnp.remainder(input, other)


@op(dtype="promote", method="pow", operators=("__pow__", "__rpow__", "__ipow__"), prim="Pow")
def pow(input, exponent):  # noqa: A001 - MindSpore's name
    """``input ** exponent``."""
    return jnp.power(input, exponent)


@op(dtype="promote", method="maximum", prim="Maximum")
def maximum(input, other):
    """Elementwise maximum (NaN propagates)."""
    return jnp.maximum(input, other)


@op(dtype="promote", method="minimum", prim="Minimum")
def minimum(input, other):
    """Elementwise minimum (NaN propagates)."""
    return jnp.minimum(input, other)


@op(method="neg", operators=("__neg__",), prim="Neg")
def neg(input):
    """``-input``."""
    return jnp.negative(input)


Add = make_primitive("Add", add)
Sub = make_primitive("Sub", sub)
Mul = make_primitive("Mul", mul)
Div = make_primitive("Div", div)
RealDiv = make_primitive("RealDiv", div)
FloorDiv = make_primitive("FloorDiv", floor_divide)
FloorMod = make_primitive("FloorMod", remainder)
Pow = make_primitive("Pow", pow)
Maximum = make_primitive("Maximum", maximum)
Minimum = make_primitive("Minimum", minimum)
Neg = make_primitive("Neg", neg)
