"""``mindspore.ops._grad_experimental``: MindSpore's second home of bprop rules.

Its ``grad_base`` holds the very registries of ``mindspore.ops._grad.grad_base``,
so a rule registered through either path is honoured by Primitive calls.
"""
from msxla.ops._grad_experimental import grad_base  # noqa: F401
from msxla.ops._grad.grad_base import get_bprop_fn

__all__ = ["get_bprop_fn"]
