"""The gradient-hook surface: ``ops.HookBackward`` and ``Tensor.register_hook``.

The mechanism (a ``jax.custom_vjp`` identity calling Python in the backward
pass) is ``msxla.autodiff.tensor_hooks``; this file binds it to MindSpore's
names. ``HookBackward(hook_fn)(x)`` returns ``x`` and, in the backward pass,
calls ``hook_fn((dx,))``; a Tensor it returns replaces ``dx``.
"""
from __future__ import annotations

from msxla.autodiff import tensor_hooks
from msxla.common.tensor import Tensor, wrap
from msxla.ops.primitive import REQUIRED, PrimDef
from msxla.ops.surface import composite, exports, tensor_method


def _hook_backward_call(prim, *inputs):
    if not inputs or not all(isinstance(x, Tensor) for x in inputs):
        raise TypeError("For 'HookBackward', the inputs must be Tensors.")
    name = getattr(prim.hook_fn, "__name__", "hook")
    out = tensor_hooks.hook_backward([x._data for x in inputs], prim.hook_fn, name)
    outs = tuple(wrap(o) for o in out)
    return outs[0] if len(outs) == 1 else outs


def _check_hook(prim):
    if not callable(prim.hook_fn):
        raise TypeError(f"Expected a callable hook function, but got "
                        f"{type(prim.hook_fn).__name__}.")


@composite(public=False, primitive=PrimDef("HookBackward", init=(("hook_fn", REQUIRED),
                                                                  ("cell_id", "")),
                                           call=_hook_backward_call, check=_check_hook))
def _hook_backward(*inputs):
    """Identity whose backward pass calls the Primitive's ``hook_fn`` on the gradients."""
    return inputs


@tensor_method("register_hook")
def _register_hook(self, hook):
    """Call ``hook(grad)`` when this Tensor's gradient is computed; a Tensor returned by
    ``hook`` replaces the gradient. Returns a handle whose ``remove()`` unregisters it."""
    return tensor_hooks.register_hook(self, hook)


@tensor_method("hooks")
def _hooks(self):
    return tensor_hooks.hooks_of(self)


__all__ = exports(__name__)
