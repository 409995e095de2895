"""Op rows: regression, ranking and embedding losses (mse_loss, l1_loss, smooth_l1_loss,
huber_loss, gaussian_nll_loss, soft_margin_loss, margin_ranking_loss, hinge_embedding_loss,
cosine_embedding_loss, triplet_margin_loss) and the SmoothL1Loss, SoftMarginLoss and
L2Loss primitives.

Every loss takes MindSpore's ``reduction`` ('none', 'mean' or 'sum').
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from msxla.ops._nn_util import check_reduction, reduce_loss
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


def _r(name, loss, reduction):
    check_reduction(name, reduction)
    return reduce_loss(loss, reduction)


@op(dtype="float", static=("reduction",), prim="MSELoss")
def mse_loss(input, target, reduction="mean"):
    """``(input - target) ** 2``, reduced."""
    return _r("mse_loss", jnp.square(input - target), reduction)


@op(dtype="float", static=("reduction",), prim="L1Loss")
def l1_loss(input, target, reduction="mean"):
    """``|input - target|``, reduced."""
    return _r("l1_loss", jnp.abs(input - target), reduction)


@op(dtype="float", static=("beta", "reduction"), prim="SmoothL1Loss",
    primitive=PrimDef(init=(("beta", 1.0), ("reduction", "none"))))
def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """``0.5 * d ** 2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``."""
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', 'beta' must be greater than 0, but got {beta}.")
    d = jnp.abs(input - target)
    return _r("smooth_l1_loss", jnp.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta),
              reduction)


@op(dtype="float", static=("reduction", "delta"), prim="HuberLoss")
def huber_loss(input, target, reduction="mean", delta=1.0):
    """``0.5 * d ** 2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 * delta)``."""
    if delta <= 0:
        raise ValueError(f"For 'huber_loss', 'delta' must be greater than 0, but got {delta}.")
    d = jnp.abs(input - target)
    return _r("huber_loss", jnp.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)),
              reduction)


@op(dtype="float", static=("full", "eps", "reduction"), prim="GaussianNLLLoss")
def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction="mean"):
    """``0.5 * (log(var) + (x - target) ** 2 / var)`` (+ ``0.5 * log(2 pi)`` if ``full``),
    with ``var`` clamped to at least ``eps``."""
    v = jnp.maximum(var, eps)
    loss = 0.5 * (jnp.log(v) + jnp.square(x - target) / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _r("gaussian_nll_loss", loss, reduction)


@op(dtype="float", static=("reduction",), prim="SoftMarginLoss",
    primitive=PrimDef(init=(("reduction", "mean"),)))
def soft_margin_loss(input, target, reduction="mean"):
    """``log(1 + exp(-target * input))``, reduced."""
    return _r("soft_margin_loss", jax.nn.softplus(-target * input), reduction)


@op(dtype="float", dtype_args=("input1", "input2"), static=("margin", "reduction"),
    prim="MarginRankingLoss")
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``, reduced."""
    loss = jnp.maximum(-target * (input1 - input2) + margin, 0).astype(input1.dtype)
    return _r("margin_ranking_loss", loss, reduction)


@op(dtype="float", dtype_args=("inputs",), static=("margin", "reduction"),
    prim="HingeEmbeddingLoss")
def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``inputs`` where ``targets == 1``, ``max(0, margin - inputs)`` where ``targets == -1``."""
    loss = jnp.where(targets == 1, inputs, 0) + jnp.where(targets == -1,
                                                          jnp.maximum(margin - inputs, 0), 0)
    return _r("hinge_embedding_loss", loss.astype(inputs.dtype), reduction)


@op(dtype="float", dtype_args=("input1", "input2"), static=("margin", "reduction"),
    prim="CosineEmbeddingLoss")
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos - margin)`` where ``-1``."""
    eps = 1e-12
    cos = (input1 * input2).sum(-1) / jnp.sqrt(
        (jnp.square(input1).sum(-1) + eps) * (jnp.square(input2).sum(-1) + eps))
    loss = jnp.where(target == 1, 1 - cos, jnp.maximum(cos - margin, 0))
    return _r("cosine_embedding_loss", loss.astype(input1.dtype), reduction)


def _pdist(a, b, p, eps):
    return jnp.sum(jnp.abs(a - b + eps) ** p, axis=-1) ** (1.0 / p)


@op(dtype="float", static=("margin", "p", "eps", "swap", "reduction"),
    prim="TripletMarginLoss")
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction="mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with p-norm distances (``swap``: use the
    smaller of d(a, n) and d(p, n))."""
    d_ap = _pdist(anchor, positive, p, eps)
    d_an = _pdist(anchor, negative, p, eps)
    if swap:
        d_an = jnp.minimum(d_an, _pdist(positive, negative, p, eps))
    return _r("triplet_margin_loss", jnp.maximum(d_ap - d_an + margin, 0), reduction)


@op(dtype="float", prim="L2Loss", public=False, primitive=True)
def l2_loss(input):
    """``sum(input ** 2) / 2`` (the L2Loss primitive)."""
    return jnp.sum(jnp.square(input)) / 2


__all__ = exports(__name__)
