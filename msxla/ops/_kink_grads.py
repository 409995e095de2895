"""Derivatives at the kinks of piecewise functions, as MindSpore's gradient kernels
give them.

jax differentiates ``maximum``/``clip`` by splitting a tie (0.5 at ``relu``'s 0,
``relu6``'s 0 and 6, ``clamp``'s bounds) and ``abs`` by ``x >= 0``. MindSpore's
kernels use one side: ``ReLUGrad`` is ``x > 0``, ``ReLU6Grad`` ``0 < x <= 6``,
``AbsGrad`` ``sign(x)``, ... A difference at a single point matters in training:
exact zeros are common (relu of relu, zero padding, black pixels). ``with_slope``
keeps an op's value and gives its derivative by MindSpore's rule.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


def with_slope(primal, slope, x):
    """``primal(x)``, whose derivative is ``slope(x)`` (elementwise; floats only:
    integer inputs are not differentiated)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return primal(x)

    @jax.custom_jvp
    def f(v):
        return primal(v)

    @f.defjvp
    def f_jvp(primals, tangents):
        (v,), (dv,) = primals, tangents
        return f(v), (slope(v) * dv).astype(dv.dtype)

    return f(x)
