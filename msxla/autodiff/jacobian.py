"""``mindspore.jacfwd`` and ``mindspore.jacrev``: full Jacobians by forward or reverse mode.

``jacfwd(fn, grad_position=0, has_aux=False)(*args)`` returns, for every
output Tensor ``o`` and every input at ``grad_position`` ``i``, the Jacobian
``d o / d i`` of shape ``o.shape + i.shape``, arranged as MindSpore does:

- one output and one input -> a bare Tensor;
- one input or one output -> a flat tuple (over outputs, or over inputs);
- otherwise -> a tuple per output of a tuple per input;
- with ``has_aux`` only ``fn(...)[0]`` is differentiated and the result is
  ``(jacobian, aux)`` (``aux`` bare when ``fn`` returned two values).

They run ``jax.jacfwd`` / ``jax.jacrev`` over the function made pure by a
:class:`~msxla.autodiff._functionalize.CallPlan`.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.autodiff._args import (check_callable, check_positions_in_range,
                                  normalize_positions)
from msxla.autodiff._functionalize import CallPlan, Zeros
from msxla.common.tensor import Tensor, wrap
from msxla.errors import user_error

__all__ = ["jacfwd", "jacrev"]


def jacfwd(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` by forward mode (better when outputs outnumber inputs)."""
    return _jacobian("jacfwd", jax.jacfwd, fn, grad_position, has_aux)


def jacrev(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` by reverse mode (better when inputs outnumber outputs)."""
    return _jacobian("jacrev", jax.jacrev, fn, grad_position, has_aux)


def _jacobian(api, transform, fn, grad_position, has_aux):
    if not isinstance(has_aux, bool):
        raise user_error(TypeError, f"For '{api}', the 'has_aux' must be bool type, but got "
                         f"{type(has_aux).__name__}.")
    positions = normalize_positions(api, grad_position)

    def wrapped(*args):
        check_callable(api, fn)
        check_positions_in_range(api, positions, len(args), exc=ValueError)
        for p in positions:
            if not isinstance(args[p], Tensor):
                raise user_error(TypeError, f"For '{api}', the input at grad_position {p} must "
                                 f"be a Tensor, but got {type(args[p]).__name__}.")
        plan = CallPlan(fn, args, {}, positions, (), has_aux, api)
        f = plan.function()

        def with_value(*primals):
            diff, aux = f(*primals)
            return diff, (aux, diff)

        if plan.primals:
            argnums = tuple(range(len(plan.primals)))
            jac, (aux, diff) = transform(with_value, argnums=argnums, has_aux=True)(*plan.primals)
        else:
            diff, aux = f()
            jac = [() for _ in diff]
        plan.write_back(aux)
        out = plan.output(diff, aux)
        result = _arrange(plan, jac, diff, aux[0])
        if has_aux:
            return result, (out[1] if len(out) == 2 else out[1:])
        return result

    return wrapped


def _arrange(plan, jac, diff, aux_arrays):
    side = plan._side
    rows = []
    for slot in side["first_tensors"]:
        kind, k = side["kinds"][slot]
        out_arr = diff[k] if kind == "diff" else aux_arrays[k]
        row = []
        for _, spec in plan.position_specs:
            if kind == "diff" and isinstance(spec, int):
                row.append(wrap(jac[k][spec]))
            else:
                shape = spec.shape if isinstance(spec, Zeros) else plan.primals[spec].shape
                row.append(wrap(jnp.zeros(tuple(out_arr.shape) + tuple(shape), out_arr.dtype)))
        rows.append(row)
    n_out, n_in = len(rows), len(plan.position_specs)
    if n_out == 1 and n_in == 1:
        return rows[0][0]
    if n_in == 1:
        return tuple(r[0] for r in rows)
    if n_out == 1:
        return tuple(rows[0])
    return tuple(tuple(r) for r in rows)
