"""``mindspore.ops._grad.grad_base``: the bprop registries.

MindSpore keeps each Primitive's backward rule here::

    @bprop_getters.register(MyPrim)          # a Primitive class, or its name
    def get_bprop_my_prim(self):             # self: the Primitive instance
        def bprop(x, y, out, dout):          # the inputs, the output, its cotangent
            return dout * y, dout * x        # one gradient per input
        return bprop

``bprops`` holds bprop functions themselves (no getter). In msxla a
registration is honoured by every Primitive *call*: a Primitive instance whose
class (or a base class, or its name) has an entry runs as
``autodiff.custom_bprop.call_with_bprop(its call, the bprop, args)``, so grad,
GradOperation, value_and_grad and vjp use the registered rule in PyNative and
inside jit. Ops reached as functions (``ops.mul``), Tensor methods or
operators are not Primitive calls and keep msxla's own derivative.

The Taylor registries are kept for scripts that register into them; msxla's
higher-order derivatives are jax's and do not read them.
"""
from __future__ import annotations

from msxla.ops._register_for_op import Registry

__all__ = ["BpropRegistry", "TaylorFpropRegistry", "bprop_getters", "bprops",
           "taylor_fprop_getters", "taylor_fprops", "get_bprop_fn", "get_taylor_fprop_fn",
           "registered_bprop"]


class BpropRegistry(Registry):
    """Bprop getters (or bprops) by Primitive class and name.

    Registering a class also registers its name, as in MindSpore, so an instance of
    a class with the same name (``ops.Mul`` and ``ops.operations.Mul``) finds it."""

    def register(self, prim):
        def deco(fn):
            self._store(prim, fn)
            if isinstance(prim, type):
                self[prim.__name__] = fn
            return fn

        return deco


class TaylorFpropRegistry(BpropRegistry):
    """Taylor forward rules by Primitive class and name (kept, not used by msxla)."""


bprop_getters = BpropRegistry()
bprops = BpropRegistry()
taylor_fprop_getters = TaylorFpropRegistry()
taylor_fprops = TaylorFpropRegistry()


def get_bprop_fn(prim, get_closure=False):
    """The bprop for ``prim`` (a Primitive instance or name), or None.

    A getter registered in ``bprop_getters`` is called with ``prim`` (unless
    ``get_closure``, which returns the getter itself); ``bprops`` entries are
    returned as they are."""
    out = bprop_getters.get(prim, None)
    if out is None:
        return bprops.get(prim, None)
    if get_closure:
        return out
    return out(prim)


def get_taylor_fprop_fn(prim):
    """The Taylor rule for ``prim``, or None."""
    out = taylor_fprop_getters.get(prim, None)
    if out:
        return out(prim)
    return taylor_fprops.get(prim, None)


def registered_bprop(prim):
    """The bprop a Primitive call must use, or None (fast while nothing is registered)."""
    if not (bprop_getters.data or bprops.data):
        return None
    return get_bprop_fn(prim)
