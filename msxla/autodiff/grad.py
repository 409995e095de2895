"""``mindspore.grad``, ``value_and_grad`` and ``get_grad`` (PyNative, on ``jax.vjp``).

``grad(fn, grad_position, weights, has_aux, return_ids, sens_param)`` returns
a function that runs ``fn`` once under ``jax.vjp`` (see ``_functionalize``),
pulls back ones (or the user's ``sens``) and shapes the gradients the way
MindSpore does:

- one position -> a bare Tensor; several -> a tuple; ``None`` -> weights only;
- a single Parameter as ``weights`` -> a bare Tensor; a list/tuple -> a tuple;
- positions and weights together -> ``(position_grads, weight_grads)``;
- ``has_aux`` -> ``(grads, fn_outputs[1:])``; several outputs without it ->
  every output is differentiated with a cotangent of ones;
- ``return_ids`` -> each gradient paired with its position or Parameter name.

Arguments that hold no Tensor (Python numbers, None) are not inputs of the
graph: a position naming one has no gradient and is left out, as in
MindSpore. Integer Tensors are differentiated as MindSpore does, through a
float copy, and their gradient is cast back to their dtype (``x * y * 3`` at
int32, x=5, y=2: (6, 15)); bool Tensors, integer Parameters and a Parameter
with ``requires_grad=False`` get zeros of their shape and dtype.
"""
from __future__ import annotations

from msxla.autodiff._args import (check_bool, check_callable, check_positions_in_range,
                                  normalize_positions, normalize_weights, split_sens)
from msxla.autodiff._functionalize import CallPlan
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.context import is_graph_mode
from msxla.errors import user_error

__all__ = ["grad", "value_and_grad", "get_grad"]


def compute_grads(api, fn, args, kwargs, positions, weights, has_aux=False, sens_param=False):
    """Run ``fn`` and differentiate it.

    Returns ``(output, [(position, grad), ...], [weight_grad, ...])``; a
    position whose argument holds no Tensor is left out of the list."""
    check_callable(api, fn)
    sens = None
    if sens_param:
        args, kwargs, sens = split_sens(args, kwargs)
    # MindSpore's graph compiler raises IndexError here, its PyNative grad RuntimeError
    check_positions_in_range(api, positions, len(args) + len(kwargs),
                             IndexError if is_graph_mode() else RuntimeError)
    plan = CallPlan(fn, args, kwargs, positions, weights, has_aux, api, int_inputs=True)
    out, pullback = plan.vjp()
    grads = pullback(sens)
    pos = [(p, plan.gradients(grads, spec)) for p, spec in plan.position_specs]
    ws = [plan.gradients(grads, spec) for spec in plan.weight_specs]
    return out, pos, ws


class _GradSpec:
    """The checked options of one ``grad`` / ``value_and_grad``."""

    def __init__(self, api, grad_position, weights, has_aux, return_ids, sens_param):
        check_bool(api, "has_aux", has_aux)
        check_bool(api, "return_ids", return_ids)
        check_bool(api, "sens_param", sens_param)
        if grad_position is None and weights is None:
            raise user_error(ValueError, f"For '{api}', `grad_position` and `weights` can not "
                             "be None at the same time.",
                             hint="differentiate with respect to inputs (grad_position), "
                                  "Parameters (weights), or both.")
        self.api = api
        self.positions = None if grad_position is None else normalize_positions(api, grad_position)
        self.weights, self.single = (None, False) if weights is None else \
            normalize_weights(api, weights)
        self.has_aux, self.return_ids, self.sens_param = has_aux, return_ids, sens_param

    def run(self, fn, args, kwargs):
        out, pos, ws = compute_grads(self.api, fn, args, kwargs, self.positions or (),
                                     self.weights or (), self.has_aux, self.sens_param)
        return out, self.shape(pos, ws)

    def shape(self, pos, ws):
        pos_part = w_part = None
        if self.positions is not None:
            if self.return_ids:
                if self.positions == (0,) and len(pos) == 1:
                    pos_part = pos[0]
                else:
                    pos_part = tuple(pos)
            else:
                pos_part = pos[0][1] if len(pos) == 1 else tuple(g for _, g in pos)
        if self.weights is not None:
            if self.return_ids:
                named = tuple((getattr(w, "name", None), g) for w, g in zip(self.weights, ws))
                w_part = named[0] if self.single else named
            else:
                w_part = ws[0] if self.single else tuple(ws)
        if self.positions is None:
            return w_part
        if self.weights is None:
            return pos_part
        return (pos_part, w_part)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function computing the gradient of ``fn`` (``mindspore.grad``).

    Args:
        fn: a function or Cell.
        grad_position: an int or tuple of ints (inputs to differentiate), or None.
        weights: a Parameter, or a list/tuple/ParameterTuple of Parameters, or None.
        has_aux: ``fn`` returns ``(out, aux...)``; only ``out`` is differentiated
            and the result is ``(grads, (aux...))``.
        return_ids: pair each gradient with its position or Parameter name.
        sens_param: the last call argument (or ``sens=``) is the output's gradient.
    """
    spec = _GradSpec("grad", grad_position, weights, has_aux, return_ids, sens_param)

    def after_grad(*args, **kwargs):
        out, grads = spec.run(fn, args, kwargs)
        if has_aux:
            return grads, out[1:]
        return grads

    return after_grad


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False,
                   sens_param=False):
    """Like :func:`grad`, but the function returns ``(fn_outputs, grads)``."""
    spec = _GradSpec("value_and_grad", grad_position, weights, has_aux, return_ids, sens_param)

    def after_grad(*args, **kwargs):
        return spec.run(fn, args, kwargs)

    return after_grad


def get_grad(gradients, identifier):
    """The gradient paired with ``identifier`` (a position or Parameter) by ``return_ids``."""
    if isinstance(identifier, Parameter):
        key = identifier.name
    elif isinstance(identifier, int) and not isinstance(identifier, bool):
        key = identifier
    else:
        raise user_error(TypeError, "For 'get_grad', the identifier must be an int position or "
                         f"a Parameter, but got {type(identifier).__name__}.")
    found = _find(gradients, key)
    if found is None:
        raise user_error(RuntimeError, f"For 'get_grad', cannot find the gradient of {key!r} "
                         "in the gradients; they must come from grad(..., return_ids=True).")
    return found


def _find(tree, key):
    if not isinstance(tree, tuple):
        return None
    if (len(tree) == 2 and isinstance(tree[1], Tensor) and type(tree[0]) is type(key)
            and tree[0] == key):
        return tree[1]
    for item in tree:
        hit = _find(item, key)
        if hit is not None:
            return hit
    return None
