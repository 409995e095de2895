"""``mindspore.ops.linearize``: a function's output and its Jacobian-vector product
as a function of the tangent, the forward pass run once.

``linearize(fn, inputs)`` returns ``(fn(*inputs), jvp_fn)``; ``jvp_fn(v)`` is
``jvp(fn, inputs, v)[1]`` for any ``v`` (a Tensor for one input, a tuple of Tensors
otherwise), evaluated by the linear map ``jax.linearize`` keeps, so ``fn`` does not
run again.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.autodiff._args import check_callable
from msxla.autodiff._functionalize import CallPlan
from msxla.autodiff.vjp import _tangents
from msxla.common.tensor import Tensor
from msxla.errors import user_error

__all__ = ["linearize"]


def _as_tuple(api, what, value):
    if isinstance(value, Tensor):
        return (value,)
    if isinstance(value, (tuple, list)) and all(isinstance(v, Tensor) for v in value):
        return tuple(value)
    raise user_error(TypeError, f"For '{api}', the {what} must be a Tensor or a tuple of "
                     f"Tensors, but got {type(value).__name__}.")


def linearize(fn, inputs):
    """``(fn(*inputs), jvp_fn)`` with ``jvp_fn(v)`` the Jacobian of ``fn`` at ``inputs``
    applied to ``v``."""
    check_callable("linearize", fn)
    ins = _as_tuple("linearize", "inputs", inputs)
    plan = CallPlan(fn, ins, {}, tuple(range(len(ins))), (), False, "linearize")
    diff, linear, aux = jax.linearize(plan.function(), *plan.primals, has_aux=True)
    plan.write_back(aux)
    out = plan.output(diff, aux)
    zeros = [jnp.zeros(a.shape, a.dtype) for a in aux[0]]

    def jvp_fn(v):
        vs = _as_tuple("linearize", "v", v)
        if len(vs) != len(ins):
            raise user_error(ValueError, f"For 'linearize', v has invalid length: should be "
                             f"{len(ins)}, but got {len(vs)}.")
        return plan.output(linear(*_tangents(plan, vs)), (zeros, None))

    return out, jvp_fn
