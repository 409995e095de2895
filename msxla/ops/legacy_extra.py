"""Op rows and Primitives older or generated MindSpore code still names:
``SplitWithSize`` and ``AddExt`` (rows here; their Primitive classes are in
``ops.auto_generate``, where MindSpore has them), ``DiagPart``,
``ScalarToArray`` / ``scalar_to_array`` and the deprecated ``identity`` Primitive.

``scalar_to_array`` follows MindSpore's documentation (a Python scalar becomes
a 0-d Tensor: float32, int64 or bool); MindSpore 2.10 itself fails on it in
PyNative and in graphs.
"""
from __future__ import annotations

import itertools

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.opdef import op
from msxla.ops.surface import composite, exports


@op(static=("split_size", "dim"), prim="SplitWithSize", public=False)
def split_with_size(input, split_size, dim=0):
    """Split ``input`` along ``dim`` into pieces of the given sizes (they must add up)."""
    sizes = [int(s) for s in split_size]
    axis = dim % input.ndim
    if sum(sizes) != input.shape[axis]:
        raise ValueError(f"For 'SplitWithSize', the sum of 'split_size' {sizes} must equal the "
                         f"size of dim {dim}, {input.shape[axis]}.")
    cuts = list(itertools.accumulate(sizes))[:-1]
    return tuple(jnp.split(input, cuts, axis=axis))


@op(dtype="promote", static=("alpha",), prim="AddExt", public=False)
def add_ext(input, other, alpha=1):
    """``input + alpha * other``."""
    return input + other * alpha if alpha != 1 else input + other


@op(prim="DiagPart", primitive=True, public=False)
def diag_part(input_x):
    """The diagonal of a rank-2k Tensor shaped (D1..Dk, D1..Dk): out[i..] = x[i.., i..]."""
    k = input_x.ndim // 2
    if input_x.ndim % 2 or input_x.shape[:k] != input_x.shape[k:]:
        raise ValueError("For 'DiagPart', the input must have rank 2k and shape "
                         f"(D1..Dk, D1..Dk), but got {tuple(input_x.shape)}.")
    n = 1
    for d in input_x.shape[:k]:
        n *= d
    return jnp.diagonal(input_x.reshape(n, n)).reshape(input_x.shape[:k])


@composite(prim="ScalarToArray", primitive=True)
def scalar_to_array(input_x):
    """A Python scalar as a 0-d Tensor (float -> float32, int -> int64, bool -> bool)."""
    if isinstance(input_x, bool):
        return Tensor(input_x, mstype.bool_)
    if isinstance(input_x, int):
        return Tensor(input_x, mstype.int64)
    if isinstance(input_x, float):
        return Tensor(input_x, mstype.float32)
    raise TypeError("For 'ScalarToArray', the input must be a Python int, float or bool, but "
                    f"got {type(input_x).__name__}.")


__all__ = exports(__name__)
