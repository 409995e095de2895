"""Shared helpers of the neural-network and random op families.

- dtype rules that reject non-float inputs the way MindSpore does.
- argument normalisers (``tuple_n``) and the loss ``reduction`` step.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.errors import DTypeError, user_error


def float_rule(opname, allowed=(mstype.float16, mstype.float32, mstype.float64,
                                mstype.bfloat16)):
    """A dtype rule: the input's own dtype, which must be one of ``allowed``."""

    def rule(key):
        for k in key:
            if isinstance(k, mstype.Type) and k not in allowed:
                names = ", ".join(str(a) for a in allowed)
                raise user_error(DTypeError, f"For '{opname}', the input must be a Tensor of "
                                             f"one of {{{names}}}, but got {k}.")
        return None

    rule.__name__ = f"float_rule_{opname}"
    return rule


def tuple_n(value, n, opname, argname):
    """An int or sequence as an n-tuple of ints (MindSpore's kernel/stride arguments)."""
    if isinstance(value, bool):
        raise TypeError(f"For '{opname}', '{argname}' must be int or tuple of int, but got bool.")
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"For '{opname}', '{argname}' must be an int or a tuple of {n} ints, "
                         f"but got {value}.")
    return value


def check_reduction(opname, reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{opname}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                         f"but got {reduction}.")


def reduce_loss(loss, reduction):
    """Apply ``reduction`` ('none', 'mean', 'sum') to an elementwise loss."""
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss

