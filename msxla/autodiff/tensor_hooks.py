"""Gradient hooks on Tensors: ``Tensor.register_hook`` and ``ops.HookBackward``.

A hook is an identity in the forward pass whose backward pass calls a Python
function with the incoming gradient; a returned Tensor replaces the gradient,
``None`` keeps it. It is a ``jax.custom_vjp`` around the Tensor's array:

- ``x.register_hook(fn)`` on a Tensor computed inside a differentiated
  function rewraps ``x``'s array at once, so every later use of ``x`` flows
  its gradient through ``fn``;
- on a Tensor that is an input of ``grad`` (registered before the call), the
  hook is kept on the Tensor and applied when the grad API substitutes the
  Tensor by its primal (``CallPlan``);
- on a Parameter, the hook is kept for every later gradient, and one
  registered inside a differentiated function also rewraps the Parameter's
  value in that grad's frame, so the current gradient passes it too.

Removing a hook (``handle.remove()``) turns it off for backward passes still
to come, as in MindSpore. Under jit the backward pass runs while the graph is
captured, so the hook sees the captured gradient, not its value.
"""
from __future__ import annotations

import itertools

import jax

from msxla.common.parameter import Parameter
from msxla.common.state import current_frame, is_capturing
from msxla.common.tensor import Tensor, wrap
from msxla.errors import user_error

_ids = itertools.count()


def _check(fn):
    if not callable(fn):
        raise TypeError(f"Expected a callable hook function, but got {type(fn).__name__}.")


def _as_array(value, like, name):
    if not isinstance(value, Tensor):
        raise TypeError(f"The output type of function: {name} should be a tensor but got "
                        f"{type(value).__name__}.")
    data = value._data
    if tuple(data.shape) != tuple(like.shape):
        raise ValueError(f"The shape of the gradient returned by hook function {name} is "
                         f"{tuple(data.shape)}, but the gradient it replaces has shape "
                         f"{tuple(like.shape)}.")
    return data.astype(like.dtype)


def attach(data, backward):
    """``data`` through an identity whose cotangent is ``backward(cotangent)``."""

    @jax.custom_vjp
    def hooked(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        return (backward(g),)

    hooked.defvjp(fwd, bwd)
    return hooked(data)


class TensorHookHandle:
    """Returned by ``Tensor.register_hook``; ``remove()`` turns the hook off."""

    def __init__(self, table, key):
        self._table, self._key = table, key

    def remove(self):
        self._table.pop(self._key, None)


def _hooks_of(tensor):
    table = tensor.__dict__.get("_grad_hooks")
    if table is None:
        table = tensor.__dict__["_grad_hooks"] = {}
    return table


def _run_hook(table, key, fn, g):
    if key not in table:  # removed since it was attached
        return g
    out = fn(wrap(g))
    return g if out is None else _as_array(out, g, getattr(fn, "__name__", "hook"))


def register_hook(tensor, hook):
    """``Tensor.register_hook``: call ``hook(grad)`` when the gradient of this Tensor is
    computed; a Tensor it returns replaces the gradient."""
    _check(hook)
    if isinstance(tensor, Parameter):
        return _register_parameter_hook(tensor, hook)
    table = _hooks_of(tensor)
    key = next(_ids)
    table[key] = hook
    if isinstance(tensor._data, jax.core.Tracer):  # inside a differentiated function
        tensor._data = attach(tensor._data, lambda g: _run_hook(table, key, hook, g))
    else:
        tensor.__dict__.setdefault("_input_hooks", set()).add(key)
    return TensorHookHandle(table, key)


def _register_parameter_hook(param, hook):
    """A Parameter's hook stays on it for every later gradient; registered while a grad
    differentiates it (in the function's forward pass) it also applies to that gradient,
    as in MindSpore's PyNative. A graph holds no Python state between calls, so inside a
    jit capture it is refused, as MindSpore's graph refuses it."""
    if is_capturing():
        raise user_error(ValueError, "Register hook for Parameter inside graph is not "
                         "supported.",
                         hint=f"register the hook on Parameter '{param.name}' once, outside "
                              "the jitted function or construct.")
    table = _hooks_of(param)
    key = next(_ids)
    table[key] = hook
    param.__dict__.setdefault("_input_hooks", set()).add(key)
    frame = current_frame()
    while frame is not None:
        add = getattr(frame, "hook_leaf", None)
        if add is not None and add(param, lambda data: attach(
                data, lambda g: _run_hook(table, key, hook, g))):
            break
        frame = frame.parent
    return TensorHookHandle(table, key)


def apply_input_hooks(tensor, data):
    """``data`` (the primal substituted for ``tensor`` by a grad API) with the hooks
    registered on ``tensor`` before the call."""
    table = tensor.__dict__.get("_grad_hooks")
    keys = tensor.__dict__.get("_input_hooks")
    if not table or not keys:
        return data
    for key in [k for k in table if k in keys]:
        fn = table[key]
        data = attach(data, lambda g, key=key, fn=fn: _run_hook(table, key, fn, g))
    return data


def hooks_of(tensor):
    """The hooks registered on ``tensor``, by id (``Tensor.hooks()``)."""
    return dict(tensor.__dict__.get("_grad_hooks", {}))


def hook_backward(arrays, hook, name):
    """``ops.HookBackward``: ``hook`` receives the tuple of the inputs' gradients."""

    def backward(gs):
        out = hook(tuple(wrap(g) for g in gs))
        if out is None:
            return gs
        outs = out if isinstance(out, tuple) else (out,)
        if len(outs) != len(gs):
            raise TypeError(f"The output of function: {name} should give {len(gs)} gradients, "
                            f"but got {len(outs)}.")
        return tuple(_as_array(o, g, name) for o, g in zip(outs, gs))

    @jax.custom_vjp
    def hooked(*xs):
        return xs

    hooked.defvjp(lambda *xs: (xs, None), lambda _, gs: backward(gs))
    return hooked(*arrays)
