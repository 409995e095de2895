"""Op rows: bitwise ops on bool and integer Tensors (and, or, xor, invert, shifts, gcd, lcm).

dtypes follow MindSpore 2.10: float inputs are rejected; ``bool & int``
promotes like arithmetic (``bool_tensor & 3`` is int64); the shifts need both
Tensors of one integer dtype; ``gcd`` takes integer Tensors only, ``lcm`` also
Python ints. ``Tensor.bitwise_not`` inverts integers and negates bools.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._elementwise import INT, INTEGRAL, binary, unary
from msxla.ops.opdef import op
from msxla.ops.surface import exports, tensor_method


@op(dtype=binary("BitwiseAnd", INTEGRAL, scalars=INTEGRAL), method="bitwise_and",
    operators=("__and__",), prim="BitwiseAnd", differentiable=False, primitive=True)
def bitwise_and(input, other):
    """``input & other``."""
    return jnp.bitwise_and(input, other)


@op(dtype=binary("BitwiseOr", INTEGRAL, scalars=INTEGRAL), method="bitwise_or",
    operators=("__or__",), prim="BitwiseOr", differentiable=False, primitive=True)
def bitwise_or(input, other):
    """``input | other``."""
    return jnp.bitwise_or(input, other)


@op(dtype=binary("BitwiseXor", INTEGRAL, scalars=INTEGRAL), method="bitwise_xor",
    operators=("__xor__",), prim="BitwiseXor", differentiable=False, primitive=True)
def bitwise_xor(input, other):
    """``input ^ other``."""
    return jnp.bitwise_xor(input, other)


@op(dtype=unary("Invert", (INT,)), method="invert", prim="Invert", differentiable=False,
    primitive=True)
def invert(x):
    """Bitwise NOT of an integer Tensor (``-x - 1`` for signed integers)."""
    return jnp.invert(x)


@tensor_method("bitwise_not")
def _tensor_bitwise_not(self):
    """``Tensor.bitwise_not()``: bitwise NOT of integers, logical NOT of bools."""
    from msxla.ops.compare import logical_not
    if self.dtype is mstype.bool_:
        return logical_not(self)
    return invert(self)


_SHIFT = dict(allow=(INT,), scalars=INTEGRAL, same=True)


@op(dtype=binary("LeftShift", **_SHIFT), method="bitwise_left_shift", prim="LeftShift",
    differentiable=False, primitive=True)
def bitwise_left_shift(input, other):
    """``input << other``; both Tensors must share one integer dtype."""
    return jnp.left_shift(input, other)


@op(dtype=binary("RightShift", **_SHIFT), method="bitwise_right_shift", prim="RightShift",
    differentiable=False, primitive=True)
def bitwise_right_shift(input, other):
    """``input >> other`` (arithmetic shift for signed integers)."""
    return jnp.right_shift(input, other)


@op(dtype=binary("Gcd", INTEGRAL, scalars=(), result=(INT,)), method="gcd", prim="Gcd",
    differentiable=False, primitive=True)
def gcd(input, other):
    """The greatest common divisor (non-negative; ``gcd(0, 0) = 0``)."""
    return jnp.gcd(input, other)


@op(dtype=binary("Lcm", INTEGRAL, scalars=INTEGRAL, result=(INT,)), method="lcm", prim="Lcm",
    differentiable=False, primitive=True)
def lcm(input, other):
    """The least common multiple (non-negative; 0 if either input is 0)."""
    return jnp.lcm(input, other)


__all__ = exports(__name__)
