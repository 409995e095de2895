"""Automatic differentiation in PyNative: MindSpore's grad APIs on jax's autodiff.

Every API runs the user's function once under a jax transformation
(``jax.vjp``, ``jax.jvp``, ``jax.jacfwd``/``jacrev``) with Parameter state
made functional by state frames (``_functionalize``), so the same code works
eagerly, nested (grad of grad) and inside jitted functions.
"""
from msxla.autodiff.grad import get_grad, grad, value_and_grad
from msxla.autodiff.grad_operation import GradOperation
from msxla.autodiff.jacobian import jacfwd, jacrev
from msxla.autodiff.vjp import jvp, vjp
from msxla.autodiff.vmap import vmap

__all__ = ["grad", "value_and_grad", "get_grad", "GradOperation", "vjp", "jvp", "jacfwd",
           "jacrev", "vmap"]
