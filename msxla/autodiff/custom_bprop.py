"""A user-defined backward pass: MindSpore's ``Cell.bprop`` convention on ``jax.custom_vjp``.

``call_with_bprop(fn, bprop, args, kwargs)`` returns ``fn(*args, **kwargs)``;
when it is differentiated, the gradients of its Tensor inputs are
``bprop(*inputs, out, dout)`` (one gradient per input, as a tuple) instead of
jax's. Parameters that ``fn`` reads get zero gradients, as in MindSpore (a
custom bprop only speaks for the inputs): values ``fn`` closes over are
hoisted by ``jax.closure_convert`` and their cotangent is zero. Parameters
written inside ``fn`` are written back once, with their primal values.

Outside any differentiation (no state frame, no tracer among the inputs)
``fn`` simply runs.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.core import Tracer
from jax.tree_util import tree_flatten, tree_unflatten

from msxla.autodiff._functionalize import is_tensor
from msxla.common.state import StateFrame, current_frame
from msxla.common.tensor import Tensor, wrap
from msxla.errors import user_error

__all__ = ["call_with_bprop"]


def call_with_bprop(fn, bprop, args, kwargs=None):
    """``fn(*args, **kwargs)`` whose gradient is ``bprop(*args, out, dout)``."""
    kwargs = {} if kwargs is None else dict(kwargs)
    slots = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a._data is not None]
    arrays = [args[i]._data for i in slots]
    if current_frame() is None and not any(isinstance(a, Tracer) for a in arrays):
        return fn(*args, **kwargs)
    side = {}

    def call_args(arrs):
        out = list(args)
        for i, a in zip(slots, arrs):
            out[i] = wrap(a)
        return out

    def body(*arrs):
        frame = StateFrame()
        with frame:
            out = fn(*call_args(arrs), **kwargs)
        params, written = frame.written_values()
        leaves, tree = tree_flatten(out, is_leaf=is_tensor)
        tensor_at = [isinstance(v, Tensor) for v in leaves]
        side.update(tree=tree, leaves=leaves, tensor_at=tensor_at, params=params)
        return [v._data for v in leaves if isinstance(v, Tensor)], written

    converted, consts = jax.closure_convert(body, *arrays)

    def rebuild(out_arrays):
        it = iter(out_arrays)
        leaves = [wrap(next(it)) if t else v for v, t in zip(side["leaves"], side["tensor_at"])]
        return tree_unflatten(side["tree"], leaves)

    @jax.custom_vjp
    def run(arrs, hoisted):
        return converted(*arrs, *hoisted)

    def fwd(arrs, hoisted):
        outs = converted(*arrs, *hoisted)
        return outs, (arrs, outs[0], hoisted)

    def bwd(res, cts):
        arrs, out_arrays, hoisted = res
        dout = [jnp.zeros(o.shape, o.dtype) if c.dtype == jax.dtypes.float0 else c
                for c, o in zip(cts[0], out_arrays)]
        inputs = call_args(arrs) + list(kwargs.values())
        grads = bprop(*inputs, rebuild(out_arrays), rebuild(dout))
        return _input_cotangents(grads, inputs, slots, arrs), \
            tuple(jnp.zeros_like(h) for h in hoisted)

    run.defvjp(fwd, bwd)
    out_arrays, written = run(tuple(arrays), tuple(consts))
    for p, v in zip(side["params"], written):
        p._data = v
    return rebuild(out_arrays)


def _input_cotangents(grads, inputs, slots, arrs):
    if isinstance(grads, Tensor):
        grads = (grads,)
    if not isinstance(grads, (tuple, list)):
        raise user_error(TypeError, "For 'bprop', the result must be a tuple of gradients, one "
                         f"per input, but got {type(grads).__name__}.")
    grads = list(grads)
    if len(grads) > len(inputs):  # as in MindSpore, gradients past the inputs are ignored
        grads = grads[:len(inputs)]
    if len(grads) == len(inputs):
        grads = [grads[i] for i in slots]
    elif len(grads) != len(slots):
        raise user_error(RuntimeError, f"For 'bprop', the number of gradients ({len(grads)}) "
                         f"must be at least the number of inputs ({len(inputs)}).",
                         hint="return one gradient per input of construct, in order.")
    out = []
    for g, ref in zip(grads, arrs):
        if not jnp.issubdtype(ref.dtype, jnp.inexact):
            out.append(None)
            continue
        if g is None:
            out.append(jnp.zeros(ref.shape, ref.dtype))
            continue
        arr = g._data if isinstance(g, Tensor) else jnp.asarray(g)
        if tuple(arr.shape) != tuple(ref.shape):
            arr = jnp.broadcast_to(arr, ref.shape)
        out.append(arr.astype(ref.dtype))
    return tuple(out)
