"""Op rows: sums of a list of Tensors (``addn`` / ``AddN``, ``accumulate_n``).

MindSpore's AddN adds Tensors of one dtype and one shape (no promotion, no
broadcasting) and refuses anything else; ``accumulate_n`` (AccumulateNV2) is
the same sum.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._shape_util import ArgTypeError, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


def _sum_n(x, prim):
    if not isinstance(x, (tuple, list)):
        raise ArgTypeError(f"the input must be a tuple or list of Tensors, but got "
                           f"{type(x).__name__}.")
    if not x:
        raise ValueError(f"For '{prim}', the input must hold at least one Tensor.")
    arrays = [jnp.asarray(t) for t in x]
    dtypes = [a.dtype for a in arrays]
    if len(set(dtypes)) != 1:
        listed = " ".join(f"name:[element_{i}]:Tensor[{mstype.to_ms(d)}]."
                          for i, d in enumerate(dtypes))
        raise ArgTypeError(f"the input type must be same. {listed}")
    for i, a in enumerate(arrays[1:], 1):
        if a.shape != arrays[0].shape:
            raise ValueError(f"For '{prim}', input shape must be same, but got shape of "
                             f"input[{i}]: {tuple(a.shape)}, shape of input[0]: "
                             f"{tuple(arrays[0].shape)}.")
    out = arrays[0]
    for a in arrays[1:]:
        out = out + a
    return out


@op(prim="AddN", primitive=PrimDef(call=lambda prim, x: addn(x)))
def addn(x):
    """The elementwise sum of a tuple or list of Tensors of one dtype and shape."""
    return _sum_n(x, "AddN")


@op(prim="AccumulateNV2", primitive=PrimDef(call=lambda prim, x: accumulate_n(x)))
def accumulate_n(x):
    """The elementwise sum of a tuple or list of Tensors (``addn``)."""
    return _sum_n(x, "AccumulateNV2")


__all__ = exports(__name__)
