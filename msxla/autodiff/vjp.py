"""``mindspore.vjp`` and ``mindspore.jvp``: vector-Jacobian and Jacobian-vector products.

``vjp(fn, *inputs, weights=None, has_aux=False)`` runs ``fn`` now and returns
``(outputs, vjp_fn)`` (``(outputs[0], vjp_fn, aux)`` with ``has_aux``);
``vjp_fn(*v)`` returns the gradients of all inputs as a tuple, and with
``weights`` ``(input_grads, weight_grads)``. ``vjp_fn`` may be called more
than once (the forward pass is not recomputed).

``jvp(fn, inputs, v, has_aux=False)`` returns ``(outputs, jvp_out)``
(``(outputs[0], jvp_out, aux)`` with ``has_aux``), computed by ``jax.jvp`` in
one forward pass.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.tree_util import tree_flatten

from msxla.autodiff._args import check_callable, normalize_weights
from msxla.autodiff._functionalize import CallPlan, Zeros, is_tensor
from msxla.common.tensor import Tensor
from msxla.errors import user_error

__all__ = ["vjp", "jvp"]


def _check_has_aux(api, has_aux):
    if not isinstance(has_aux, bool):
        raise user_error(TypeError, f"For '{api}', the 'has_aux' must be bool type, but got "
                         f"{type(has_aux).__name__}.")


def _check_tensors(api, what, values):
    for v in values:
        if not isinstance(v, (Tensor, tuple, list)):
            raise user_error(TypeError, f"For '{api}', the {what} type must be Tensor, but got "
                             f"{type(v).__name__}.")


def _aux_of(out):
    return out[1] if len(out) == 2 else out[1:]


def vjp(fn, *inputs, weights=None, has_aux=False):
    """``(fn(*inputs), vjp_fn)``; ``vjp_fn(*v)`` pulls ``v`` back to the inputs (and weights)."""
    check_callable("vjp", fn)
    _check_tensors("vjp", "inputs", inputs)
    _check_has_aux("vjp", has_aux)
    weight_list, single = (None, False) if weights is None else normalize_weights("vjp", weights)
    plan = CallPlan(fn, inputs, {}, tuple(range(len(inputs))), weight_list or (), has_aux, "vjp",
                    int_inputs=True)  # integer inputs differentiated as grad does
    out, pullback = plan.vjp()

    def vjp_fn(*v):
        _check_tensors("vjp", "v", v)
        grads = pullback(v[0] if len(v) == 1 else v)
        ins = tuple(plan.gradients(grads, spec) for _, spec in plan.position_specs)
        if weight_list is None:
            return ins
        ws = [plan.gradients(grads, spec) for spec in plan.weight_specs]
        return ins, (ws[0] if single else tuple(ws))

    if has_aux:
        return out[0], vjp_fn, _aux_of(out)
    return out, vjp_fn


def jvp(fn, inputs, v, has_aux=False):
    """``(fn(*inputs), J @ v)`` (and the aux outputs with ``has_aux``)."""
    _check_has_aux("jvp", has_aux)
    check_callable("jvp", fn)
    if not isinstance(inputs, (Tensor, tuple, list)) or not isinstance(v, (Tensor, tuple, list)):
        raise user_error(TypeError, "For 'jvp', the inputs type must be a Tensor, tuple or list "
                         "of Tensors.")
    ins = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    vs = (v,) if isinstance(v, Tensor) else tuple(v)
    if len(ins) != len(vs):
        raise user_error(ValueError, f"For 'jvp', v has invalid length: should be {len(ins)}, "
                         f"but got {len(vs)}.")
    plan = CallPlan(fn, ins, {}, tuple(range(len(ins))), (), has_aux, "jvp")
    tangents = _tangents(plan, vs)
    f = plan.function()
    diff, tan, aux = jax.jvp(f, tuple(plan.primals), tuple(tangents), has_aux=True)
    plan.write_back(aux)
    out = plan.output(diff, aux)
    aux_arrays, _ = aux
    zeros = [jnp.zeros(a.shape, a.dtype) for a in aux_arrays]
    tan_out = plan.output(tan, (zeros, None))
    if has_aux:
        return out[0], tan_out[0], _aux_of(out)
    return out, tan_out


def _tangents(plan, vs):
    """One tangent per primal, taken from ``v`` at the matching input leaf."""
    tangents = [None] * len(plan.primals)
    for p, spec in plan.position_specs:
        specs = tree_flatten(spec, is_leaf=lambda s: isinstance(s, Zeros) or s is None)[0]
        leaves = [x for x in tree_flatten(vs[p], is_leaf=is_tensor)[0]]
        if len(leaves) != len(specs):
            raise user_error(ValueError, f"For 'jvp', v[{p}] must have the structure of "
                             f"inputs[{p}].")
        for s, t in zip(specs, leaves):
            if not isinstance(s, int):
                continue
            ref = plan.primals[s]
            arr = t._data if isinstance(t, Tensor) else jnp.asarray(t)
            if tuple(arr.shape) != tuple(ref.shape):
                raise user_error(ValueError, f"For 'jvp', the shape of v[{p}] "
                                 f"{tuple(arr.shape)} must equal the shape of inputs[{p}] "
                                 f"{tuple(ref.shape)}.")
            tangents[s] = arr.astype(ref.dtype) if arr.dtype != ref.dtype else arr
    return [jnp.zeros(r.shape, r.dtype) if t is None else t
            for t, r in zip(tangents, plan.primals)]
