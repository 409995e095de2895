"""Derivatives of ``lax.max`` / ``lax.min`` that do not compare against the result.

jax before 0.11.2 routes the tangent of ``max(x, y)`` by testing ``x == max(x, y)``
bitwise. Under XLA's O1 pipeline the operand may be recomputed in another fusion
than the one that computed the result, and the two copies can round differently
(on CPU one kernel contracts ``a*b + c*d`` into an FMA one way, another kernel the
other way). Then neither operand equals the result and the gradient is silently
0 (``ops.hypot``, whose jvp compares against ``min``/``max`` of ``|x|``, ``|y|``,
lost its gradient in about a quarter of random float32 inputs). jax 0.11.2 fixed
this the same way: decide the winner by comparing the operands with each other.

Kept from the old rule, so eager values do not change: a tie gives each side
half, a NaN gives both sides 0. Integer and complex operands keep jax's rule.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from msxla._jax_compat import balanced_eq, set_jvp2

_FIXED_UPSTREAM = (0, 11, 2)


def _share(wins, x, y, ans):
    """1 where ``x`` wins, 1/2 where ``x == y``, 0 otherwise (and where either is NaN)."""
    one = lax.full_like(ans, 1)
    half = lax.full_like(ans, 0.5)
    zero = lax.full_like(ans, 0)
    return lax.select(wins(x, y), one, lax.select(lax.eq(x, y), half, zero))


def _rule(wins, first):
    """The jvp for the first (``first``) or second operand of max (``wins=lax.gt``) or min."""
    def jvp(g, ans, x, y):
        mine, other = (x, y) if first else (y, x)
        if not jnp.issubdtype(ans.dtype, jnp.floating):
            return lax.mul(g, balanced_eq(mine, ans, other))  # jax's own rule
        return lax.mul(g, _share(wins, mine, other, ans))
    return jvp


def install():
    """Replace jax's max/min jvp rules where the jax in use still has the old ones."""
    if jax.__version_info__ >= _FIXED_UPSTREAM:
        return
    for prim, wins in ((lax.max_p, lax.gt), (lax.min_p, lax.lt)):
        set_jvp2(prim, _rule(wins, True), _rule(wins, False))
