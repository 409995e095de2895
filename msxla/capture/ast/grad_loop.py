"""Graph while loops that reverse-mode differentiation can go through.

jax cannot transpose ``lax.while_loop`` (its trip count is only known at run
time), but MindSpore differentiates through Tensor ``while`` loops, so a
``grad`` of an ast-jitted function with such a loop must work. The loop is
emitted as a ``jax.custom_vjp`` call:

- forward: the same ``while_loop``, also counting its iterations ``n``;
- backward: for ``k = n-1 ... 0`` recompute the state after ``k`` iterations
  from the initial carry and pull the cotangent back through one body step
  (``jax.vjp``), accumulating the cotangents of the values the body reads
  from outside (Parameters, other Tensors). That is O(n^2) body evaluations
  in the backward pass, no memory beyond the carry, and exact.

The body and condition are first traced to jaxprs (``jax.make_jaxpr`` inside
the capture: values they read from the enclosing graph become explicit
constants, which the custom_vjp takes as arguments). A loop whose body or
condition has effects (a staged ``print``) stays a plain ``lax.while_loop``:
recomputing it would print again in the backward pass.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import ClosedJaxpr, jaxpr_as_fun


def while_loop(cond_fn, body_fn, carry):
    """``lax.while_loop(cond_fn, body_fn, carry)`` for a tuple ``carry`` of arrays."""
    cond_j = jax.make_jaxpr(cond_fn)(carry)
    body_j = jax.make_jaxpr(body_fn)(carry)
    cond_c, cc = _explicit(cond_j)
    body_c, bc = _explicit(body_j)
    if cond_j.effects or body_j.effects or not any(_float(x) for x in carry):
        return lax.while_loop(lambda s: cond_c(s, *cc)[0], lambda s: tuple(body_c(s, *bc)),
                              carry)
    return _loop(lambda s, *c: cond_c(s, *c)[0], lambda s, *c: tuple(body_c(s, *c)),
                 carry, tuple(cc), tuple(bc))


def _explicit(closed):
    """``(fn(state, *consts) -> outputs, consts)`` with the jaxpr's constants as arguments."""
    jaxpr = closed.jaxpr
    flat = ClosedJaxpr(jaxpr.replace(invars=list(jaxpr.constvars) + list(jaxpr.invars),
                                     constvars=[]), [])
    fun = jaxpr_as_fun(flat)
    return (lambda state, *consts: fun(*consts, *state)), list(closed.consts)


def _float(x):
    return jnp.issubdtype(jnp.result_type(x), jnp.inexact)


def _zero_cotangent(x):
    return jnp.zeros_like(x) if _float(x) else np.zeros(np.shape(x), jax.dtypes.float0)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def _loop(cond_c, body_c, carry, cc, bc):
    return lax.while_loop(lambda s: cond_c(s, *cc), lambda s: body_c(s, *bc), carry)


def _loop_fwd(cond_c, body_c, carry, cc, bc):
    out, n = lax.while_loop(lambda s: cond_c(s[0], *cc),
                            lambda s: (body_c(s[0], *bc), s[1] + 1), (carry, jnp.int32(0)))
    return out, (carry, cc, bc, n)


def _loop_bwd(cond_c, body_c, res, g):
    carry0, cc, bc, n = res
    dc = [_float(x) for x in carry0]
    db = [_float(x) for x in bc]

    def pick(xs, ds):
        return [x for x, d in zip(xs, ds) if d]

    def merge(full, part, ds):
        it = iter(part)
        return tuple(next(it) if d else x for x, d in zip(full, ds))

    def step(i, acc):
        ct, ct_b = acc
        state = lax.fori_loop(0, n - 1 - i, lambda j, s: body_c(s, *bc), carry0)

        def one(fs, fb):
            return pick(body_c(merge(state, fs, dc), *merge(bc, fb, db)), dc)
        _, vjp = jax.vjp(one, pick(state, dc), pick(bc, db))
        ct_s, ct_bb = vjp(ct)
        return ct_s, [a + b for a, b in zip(ct_b, ct_bb)]

    start = (pick(g, dc), [jnp.zeros_like(b) for b in pick(bc, db)])
    ct_s, ct_b = lax.fori_loop(0, n, step, start)
    it_s, it_b = iter(ct_s), iter(ct_b)
    return (tuple(next(it_s) if d else _zero_cotangent(x) for x, d in zip(carry0, dc)),
            tuple(_zero_cotangent(x) for x in cc),
            tuple(next(it_b) if d else _zero_cotangent(x) for x, d in zip(bc, db)))


_loop.defvjp(_loop_fwd, _loop_bwd)
