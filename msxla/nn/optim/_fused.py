"""One compiled call per optimizer step.

A built-in optimizer describes its update as a *rule*: a pure function of
jax arrays ``rule(hyper, lr, wd, step, w, g, *slots) -> (w, *slots)`` for one
Parameter. ``FusedStep`` applies the optimizer's gradient pre-processing
(weight decay, gradient centralization, loss-scale division) and the rule to
every Parameter inside a single ``jax.jit`` function, so an eager step is
one dispatch, and a step inside a captured graph inlines into it.

Arrays are computed in float32 (or the Parameter's wider dtype) and cast
back to each Parameter's and slot's dtype, as MindSpore's fused kernels do.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


def _compute_dtype(dtype):
    if jnp.issubdtype(dtype, jnp.floating) and jnp.finfo(dtype).bits >= 32:
        return dtype
    return jnp.float32


def decay(wd, w, g):
    """``g + w * wd`` (MindSpore's ``_apply_decay``)."""
    return g + w * wd.astype(w.dtype)


def centralize(g):
    """Subtract the mean over all axes but the first (only when ``shape[1] % 16 == 0``)."""
    if g.ndim < 2 or g.shape[1] % 16 != 0:
        return g
    return g - jnp.mean(g, axis=tuple(range(1, g.ndim)), keepdims=True)


def preprocess(grads, weights, wds, decay_flags, gc_flags, reciprocal_scale):
    """Weight decay, then gradient centralization, then loss-scale division."""
    out = []
    for i, g in enumerate(grads):
        if wds is not None and decay_flags[i]:
            g = decay(wds[i], weights[i], g)
        if gc_flags is not None and gc_flags[i]:
            g = centralize(g)
        if reciprocal_scale is not None:
            g = g * reciprocal_scale.astype(g.dtype)
        out.append(g)
    return out


class FusedStep:
    """The compiled step of one optimizer configuration.

    ``rule``: the per-Parameter update. ``pre``: whether to run the shared
    gradient pre-processing (False for optimizers that handle weight decay
    inside the rule, e.g. AdamWeightDecay and Lamb). ``decay_flags`` and
    ``gc_flags`` are per-Parameter booleans (static)."""

    def __init__(self, rule, *, pre, decay_flags, gc_flags, scale):
        self.rule = rule
        self.pre = pre
        self.decay_flags = tuple(bool(f) for f in decay_flags)
        self.gc_flags = None if gc_flags is None else tuple(bool(f) for f in gc_flags)
        self.scale = scale
        self._jitted = jax.jit(self._step)

    def _step(self, hyper, lrs, wds, step, weights, grads, slots, rscale):
        grads = [g.astype(w.dtype) if g.dtype != w.dtype else g for g, w in zip(grads, weights)]
        if self.pre:
            grads = preprocess(grads, weights, wds, self.decay_flags, self.gc_flags,
                               rscale if self.scale else None)
        new_w, new_slots = [], []
        for i, (w, g) in enumerate(zip(weights, grads)):
            ct = _compute_dtype(w.dtype)
            own = [s[i] for s in slots]
            wd = None if wds is None else (wds[i] if self.decay_flags[i] else None)
            res = self.rule(hyper, lrs[i], wd, step, w.astype(ct), g.astype(ct),
                            *[s.astype(ct) for s in own])
            new_w.append(res[0].astype(w.dtype))
            new_slots.append([r.astype(s.dtype) for r, s in zip(res[1:], own)])
        slots_out = tuple(tuple(new_slots[i][k] for i in range(len(weights)))
                          for k in range(len(slots)))
        return tuple(new_w), slots_out

    def __call__(self, hyper, lrs, wds, step, weights, grads, slots, rscale):
        return self._jitted(hyper, lrs, wds, step, weights, grads, slots, rscale)


_CACHE = {}


def fused_step(rule, *, pre, decay_flags, gc_flags, scale):
    """The FusedStep of this configuration, shared by every optimizer that has it
    (so a second optimizer of the same kind and shapes reuses the compiled step)."""
    key = (rule, pre, tuple(decay_flags), None if gc_flags is None else tuple(gc_flags), scale)
    step = _CACHE.get(key)
    if step is None:
        step = _CACHE[key] = FusedStep(rule, pre=pre, decay_flags=decay_flags,
                                       gc_flags=gc_flags, scale=scale)
    return step
