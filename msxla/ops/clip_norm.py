"""Composites: clipping a Tensor or a tuple of gradients by norm.

- ``clip_by_norm(x, max_norm, norm_type=2.0)`` (torch's ``clip_grad_norm_``
  without the in-place write): the ``norm_type`` norm of all of ``x`` together,
  and every Tensor scaled by ``max_norm / (norm + 1e-6)`` when that is below 1.
- ``clip_by_global_norm(x, clip_norm=1.0)``: the global L2 norm (square sums
  in float32), every Tensor scaled by ``clip_norm / max(norm, clip_norm)``.

Both are written with Tensor ops only, so they run the same inside a graph
(the "scale only when below 1" test is a ``minimum``, not a Python ``if``).
"""
from __future__ import annotations

import math
import numbers

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.arith import mul, div
from msxla.ops.surface import composite, exports


def _p_norm(t, p):
    """The ``p`` norm of all elements of ``t`` (MindSpore's ``_old_norm``, on |t|)."""
    a = t.abs()
    if p == math.inf:
        return a.max()
    return (a ** p).sum() ** (1.0 / p)


@composite()
def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale ``x`` (a Tensor, or a tuple/list of Tensors taken together) so that its
    ``norm_type`` norm is at most ``max_norm``."""
    single = isinstance(x, Tensor)
    tensors = [x] if single else list(x)
    if not tensors or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError("For 'clip_by_norm', 'x' must be a Tensor or a tuple/list of Tensors.")
    if isinstance(norm_type, str) and norm_type.lower() == "inf":
        norm_type = math.inf
    if isinstance(norm_type, bool) or not isinstance(norm_type, numbers.Real):
        raise TypeError(f"For 'clip_by_norm', 'norm_type' must be a float or int, but got "
                        f"{type(norm_type).__name__}.")
    p = float(norm_type)
    norms = [_p_norm(t, p).astype(t.dtype) for t in tensors]
    if p == math.inf:
        total = norms[0]
        for n in norms[1:]:
            total = total.maximum(n)
    else:
        total = _p_norm(_stack(norms), p).astype(norms[0].dtype)
    if error_if_nonfinite and not bool(total.isfinite()):
        raise RuntimeError(f"For clip_by_norm, the total norm of order {norm_type} from input "
                           "is non-finite.")
    coef = (max_norm / (total + 1e-6)).minimum(1.0)
    out = [mul(t, coef).astype(t.dtype) for t in tensors]
    return out[0] if single else tuple(out)


def _stack(tensors):
    from msxla.ops.shape_join import stack
    return stack(tensors)


@composite()
def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale a tuple of Tensors by ``clip_norm / max(global_norm, clip_norm)``, where
    ``global_norm`` is the L2 norm of all of them together (computed in float32)."""
    if use_norm is not None:
        raise ValueError("For '_ClipByGlobalNorm', input 'use_norm' only supports None "
                         f"currently, but got 'use_norm': {use_norm}")
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, numbers.Real) or clip_norm <= 0:
        raise ValueError(f"For 'clip_by_global_norm', the 'clip_norm' must be a number greater "
                         f"than 0.0, but got {clip_norm}.")
    tensors = tuple(x)
    sq = None
    for t in tensors:
        s = t.astype(mstype.float32).square().sum()
        sq = s if sq is None else sq + s
    limit = Tensor([clip_norm], mstype.float32)
    norm = sq.sqrt().reshape((1,)).maximum(limit)
    out = tuple(div(mul(t, limit), norm).astype(t.dtype) for t in tensors)
    return out


__all__ = exports(__name__)
