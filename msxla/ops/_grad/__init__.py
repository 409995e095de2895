"""``mindspore.ops._grad``: Primitive backward rules registered by user code.

msxla's own derivatives are jax's (each op row is differentiable), so nothing is
registered here by msxla; ``grad_base.bprop_getters`` / ``bprops`` take the
rules scripts register, and Primitive calls honour them (see ``grad_base``).
"""
from msxla.ops._grad import grad_base  # noqa: F401
from msxla.ops._grad.grad_base import get_bprop_fn, get_taylor_fprop_fn

__all__ = ["get_bprop_fn", "get_taylor_fprop_fn"]
