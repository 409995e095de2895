"""Op rows: binary math functions (atan2, hypot, fmod, xlogy, logaddexp, copysign, ldexp, ...).

dtypes follow MindSpore 2.10: ``atan2``, ``xlogy`` and ``ldexp`` give float32
for integer inputs (``xlogy`` treats Python scalars as float32 Tensors);
``hypot`` and ``xdivy`` need a float result; ``logaddexp`` takes float
Tensors only; ``copysign`` keeps the float dtype of its first input;
``heaviside`` and ``nextafter`` need two Tensors of one dtype.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._elementwise import (ALL, COMPLEX, FLOAT, FLOATS, INT, REAL, as_type, binary,
                                    float_of)
from msxla.ops.opdef import op
from msxla.ops.surface import exports


@op(dtype=binary("Atan2", ALL, out="float"), method="atan2", prim="Atan2", primitive=True)
def atan2(input, other):
    """The angle of the point ``(other, input)``: ``arctan(input / other)`` in the right
    quadrant."""
    return jnp.arctan2(input, other)


@op(dtype=binary("Atan2", ALL, out="float"), method="arctan2", prim="Atan2")
def arctan2(input, other):
    """Alias of ``atan2``."""
    return jnp.arctan2(input, other)


@op(dtype=binary("Hypot", REAL, result=(FLOAT,)), method="hypot", prim="Hypot", primitive=True)
def hypot(input, other):
    """``sqrt(input**2 + other**2)`` without overflow (the promoted dtype must be float)."""
    return jnp.hypot(input, other)


@op(dtype=binary("FloorMod", REAL), method="fmod", prim="Fmod")
def fmod(input, other):
    """The remainder of truncated division: it has the sign of ``input`` (C's ``fmod``)."""
    if input.dtype == jnp.bool_:
        return jnp.fmod(input.astype(jnp.int8), other.astype(jnp.int8)).astype(jnp.bool_)
    if jnp.issubdtype(input.dtype, jnp.integer):
        return jnp.where(other == 0, input, jnp.fmod(input, jnp.where(other == 0, 1, other)))
    return jnp.fmod(input, other)


@op(dtype=binary("Xlogy", ALL, out="float", scalar_as=mstype.float32), method="xlogy",
    prim="Xlogy", primitive=True)
def xlogy(input, other):
    """``input * log(other)`` (integers and Python scalars compute in float32)."""
    return input * jnp.log(other)


@op(dtype=binary("Xdivy", ALL, result=(FLOAT, COMPLEX)), method="xdivy", prim="Xdivy",
    primitive=True)
def xdivy(x, y):
    """``x / y``, and 0 where ``x`` is 0 (the promoted dtype must be float or complex)."""
    safe = jnp.where(x == 0, jnp.ones_like(y), y)
    return jnp.where(x == 0, jnp.zeros_like(x), x / safe)


@op(dtype=binary("LogAddExp", FLOATS, scalars=()), method="logaddexp", prim="LogAddExp")
def logaddexp(input, other):
    """``log(exp(input) + exp(other))`` without overflow (float Tensors only)."""
    return jnp.logaddexp(input, other)


@op(dtype=binary("LogAddExp2", FLOATS, scalars=()), method="logaddexp2", prim="LogAddExp2")
def logaddexp2(input, other):
    """``log2(2**input + 2**other)`` (float Tensors only)."""
    return jnp.logaddexp2(input, other)


def _copysign_dtype(t, key):
    return float_of(as_type(key[0]))


@op(dtype=binary("CopySign", (INT, FLOAT), scalars=REAL, out=_copysign_dtype),
    method="copysign", prim="CopySign")
def copysign(x, other):
    """``|x|`` with the sign of ``other`` (``-0.0`` counts as negative); keeps ``x``'s float
    dtype, integers give float32."""
    return jnp.copysign(x, other)


@op(dtype=binary("Heaviside", (INT, FLOAT), scalars=(), same=True), method="heaviside",
    prim="Heaviside", primitive=True)
def heaviside(input, values):
    """0 where ``input < 0``, ``values`` where ``input == 0``, 1 where ``input > 0``."""
    zero = jnp.zeros_like(input)
    return jnp.where(input < 0, zero, jnp.where(input > 0, jnp.ones_like(input), values))


@op(dtype=binary("NextAfter", FLOATS, scalars=(), same=True), method="nextafter",
    prim="NextAfter", differentiable=False, primitive=True)
def nextafter(input, other):
    """The next representable float after ``input`` toward ``other``."""
    return jnp.nextafter(input, other)


@op(dtype=binary("Ldexp", ALL, out="float"), method="ldexp", prim="Ldexp")
def ldexp(x, other):
    """``x * 2 ** other``."""
    return x * jnp.exp2(other)


__all__ = exports(__name__)
