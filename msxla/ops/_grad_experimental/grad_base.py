"""``mindspore.ops._grad_experimental.grad_base``: the registries of
``mindspore.ops._grad.grad_base`` under MindSpore's second path."""
from msxla.ops._grad.grad_base import (BpropRegistry, TaylorFpropRegistry,  # noqa: F401
                                       bprop_getters, bprops, get_bprop_fn,
                                       get_taylor_fprop_fn, taylor_fprop_getters,
                                       taylor_fprops)

__all__ = ["BpropRegistry", "TaylorFpropRegistry", "bprop_getters", "bprops",
           "taylor_fprop_getters", "taylor_fprops", "get_bprop_fn", "get_taylor_fprop_fn"]
