"""Derivatives at the kinks of piecewise functions, as MindSpore's gradient kernels
give them.

jax differentiates ``maximum``/``clip`` by splitting a tie (0.5 at ``relu``'s 0,
``relu6``'s 0 and 6, ``clamp``'s bounds) and ``abs`` by ``x >= 0``. MindSpore's
kernels use one side: ``ReLUGrad`` is ``x > 0``, ``ReLU6Grad`` ``0 < x <= 6``,
``AbsGrad`` ``sign(x)``, ... A difference at a single point matters in training:
exact zeros are common (relu of relu, zero padding, black pixels). ``kinked``
keeps an op's value and gives its derivative by MindSpore's rule.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


def kinked(slope):
    """Decorator: ``primal(x, *params)`` whose derivative in ``x`` is
    ``slope(x, *params)`` (elementwise; ``params`` are Python constants; integer
    inputs are not differentiated and call ``primal`` as it is). The custom
    derivative is made once, here, not at every call."""
    def deco(primal):
        n_params = primal.__code__.co_argcount - 1
        f = jax.custom_jvp(primal, nondiff_argnums=tuple(range(1, 1 + n_params)))

        @f.defjvp
        def f_jvp(*args):
            *params, (v,), (dv,) = args
            return f(v, *params), (slope(v, *params) * dv).astype(dv.dtype)

        def call(x, *params):
            if not jnp.issubdtype(x.dtype, jnp.floating):
                return primal(x, *params)
            return f(x, *params)
        return call
    return deco
