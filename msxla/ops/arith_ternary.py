"""Op rows: three-input arithmetic (lerp, addcmul, addcdiv).

dtypes follow MindSpore 2.10: the Tensor inputs must share one dtype (lerp:
a float dtype); the scalar or Tensor ``weight``/``value`` is cast to it, so
``addcmul`` of int32 Tensors with ``value=1.5`` multiplies by 1.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._elementwise import FLOAT, INT, NUM, describe, kind, reject
from msxla.ops.opdef import op
from msxla.ops.surface import exports


def _same_tensors(prim, key, n, allow):
    """The first ``n`` key entries must be Tensors of one dtype of the ``allow`` kinds."""
    head = key[:n]
    for k in head:
        if not isinstance(k, mstype.Type):
            reject(prim, "the inputs must be Tensors", describe(k))
        if kind(k) not in allow:
            reject(prim, f"the input dtype must be one of {{{', '.join(allow)}}}", k)
    if len(set(head)) > 1:
        reject(prim, "the input dtypes must be the same", ", ".join(str(k) for k in head))
    return head[0]


def _lerp_rule(key):
    t = _same_tensors("Lerp", key, 2, (FLOAT,))
    w = key[2] if len(key) > 2 else float
    if kind(w) != FLOAT:
        reject("Lerp", "weight must be a float or a float Tensor", describe(w))
    return t


@op(dtype=_lerp_rule, method="lerp", prim="Lerp", primitive=True)
def lerp(input, end, weight):
    """``input + weight * (end - input)``; ``weight`` is a float or a Tensor."""
    return input + weight * (end - input)


def _addc_rule(prim, allow):
    def rule(key):
        return _same_tensors(prim, key, 3, allow)
    return rule


@op(dtype=_addc_rule("Addcmul", NUM), method="addcmul", prim="Addcmul", primitive=True)
def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``."""
    return input + value * tensor1 * tensor2


@op(dtype=_addc_rule("Addcdiv", (INT, FLOAT)), method="addcdiv", prim="Addcdiv", primitive=True)
def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2`` (integer division truncates)."""
    if jnp.issubdtype(input.dtype, jnp.integer):
        return input + value * jax.lax.div(*jnp.broadcast_arrays(tensor1, tensor2))
    return input + value * tensor1 / tensor2


__all__ = exports(__name__)
