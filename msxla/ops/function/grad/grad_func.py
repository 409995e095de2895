"""``mindspore.ops.function.grad.grad_func.custom_vjp``: a function with a user-defined
backward pass.

``@custom_vjp def fn(x, y): ...`` then ``fn.defbwd(bprop)``: calling ``fn`` returns its
value, and differentiating it (grad, vjp, GradOperation, in PyNative or a graph) gives
the inputs' gradients ``bprop(*inputs, out, dout)``, as a Cell's ``bprop`` does. Without
``defbwd`` it is differentiated through ``fn`` itself.
"""
from __future__ import annotations

import functools

from msxla.autodiff.custom_bprop import call_with_bprop

__all__ = ["custom_vjp"]


class _CustomVjp:
    """``fn`` with the backward pass set by ``defbwd``."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn, self.bprop = fn, None

    def defbwd(self, bprop):
        if not callable(bprop):
            raise TypeError(f"For 'custom_vjp', the bprop must be a function, but got "
                            f"{type(bprop).__name__}.")
        self.bprop = bprop
        return bprop

    def __call__(self, *args, **kwargs):
        if self.bprop is None:
            return self.fn(*args, **kwargs)
        return call_with_bprop(self.fn, self.bprop, args, kwargs)


def custom_vjp(fn=None):
    """Decorate ``fn`` so that ``fn.defbwd(bprop)`` sets its backward pass."""
    if fn is None:
        return custom_vjp
    return _CustomVjp(fn)
