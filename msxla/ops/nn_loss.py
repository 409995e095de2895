"""Op rows: classification losses (cross_entropy, nll_loss, binary cross entropy, kl_div,
multi-class margin losses) and the SoftmaxCrossEntropyWithLogits,
SparseSoftmaxCrossEntropyWithLogits, NLLLoss, BinaryCrossEntropy, BCEWithLogitsLoss,
SigmoidCrossEntropyWithLogits, KLDivLoss and MultiMarginLoss primitives.

Class-index losses follow MindSpore (and PyTorch): the class axis is 1 (0 for a
single sample), ``ignore_index`` targets contribute nothing, and the 'mean'
reduction divides by the summed weights of the targets that count. Half
precision inputs are computed in float32 and cast back.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.ops._nn_util import check_reduction, reduce_loss
from msxla.ops.nn_activation import softmax
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports, set_public


def _up(x):
    return x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x


def _class_last(x):
    """Move the class axis (1, or 0 for one sample) to the end."""
    return x if x.ndim == 1 else jnp.moveaxis(x, 1, -1)


def _nll(name, logp, target, weight, ignore_index, reduction, label_smoothing):
    """(loss, total weight) of class-index targets given log-probabilities."""
    check_reduction(name, reduction)
    lp = _class_last(logp)
    c = lp.shape[-1]
    w = jnp.ones((c,), lp.dtype) if weight is None else _up(weight).astype(lp.dtype)
    keep = target != ignore_index
    safe = jnp.where(keep, target, 0).astype(jnp.int32)
    picked = jnp.take_along_axis(lp, safe[..., None], axis=-1)[..., 0]
    wt = jnp.where(keep, w[safe], 0)
    loss = jnp.where(keep, -wt * picked, 0)
    if label_smoothing:
        smooth = jnp.where(keep, -(lp * w).sum(-1), 0)
        loss = (1 - label_smoothing) * loss + label_smoothing / c * smooth
    total = wt.sum()
    if reduction == "mean":
        return loss.sum() / total, total
    return reduce_loss(loss, reduction), total


def _softmax_ce_call(prim, logits, labels):
    return cross_entropy(logits, labels, reduction="none"), softmax(logits, -1) - labels


@op(static=("ignore_index", "reduction", "label_smoothing"), prim="CrossEntropy",
    primitive=PrimDef("SoftmaxCrossEntropyWithLogits", call=_softmax_ce_call))
def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """Softmax cross entropy of logits ``input`` against class indices or probabilities."""
    x = _up(input)
    logp = jax.nn.log_softmax(x, axis=0 if x.ndim == 1 else 1)
    if jnp.issubdtype(target.dtype, jnp.floating):  # class probabilities
        check_reduction("cross_entropy", reduction)
        c = logp.shape[0 if x.ndim == 1 else 1]
        t = _up(target).astype(logp.dtype)
        if label_smoothing:
            t = t * (1 - label_smoothing) + label_smoothing / c
        lp = _class_last(logp) * _class_last(t)
        if weight is not None:
            lp = lp * _up(weight).astype(lp.dtype)
        loss = -lp.sum(-1)
        if reduction == "mean":
            out = loss.sum() / (loss.size if x.ndim > 1 else 1)
        else:
            out = reduce_loss(loss, reduction)
        return out.astype(input.dtype)
    out = _nll("cross_entropy", logp, target, weight, ignore_index, reduction,
               label_smoothing)[0]
    return out.astype(input.dtype)


@op(static=("ignore_index", "reduction", "label_smoothing"), prim="NLLLoss",
    primitive=PrimDef(init=(("reduction", "mean"), ("ignore_index", -100)),
                      call=lambda prim, logits, labels, weight: _nll_row(
                          logits, labels, weight, prim.attrs["ignore_index"],
                          prim.attrs["reduction"])))
def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """Negative log-likelihood of log-probabilities ``inputs`` at class indices ``target``;
    the row also returns the total weight (the NLLLoss primitive's second output)."""
    loss, total = _nll("nll_loss", _up(inputs), target, weight, ignore_index, reduction,
                       label_smoothing)
    return loss.astype(inputs.dtype), total.astype(inputs.dtype)


_nll_row = nll_loss


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",  # noqa: F811
             label_smoothing=0.0):
    """Negative log-likelihood of log-probabilities ``inputs`` at class indices ``target``."""
    return _nll_row(inputs, target, weight, ignore_index, reduction, label_smoothing)[0]


set_public(_nll_row, nll_loss)


def _weighted(name, loss, weight, reduction):
    check_reduction(name, reduction)
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction)


@op(dtype="float", dtype_args=("logits", "labels", "weight"), static=("reduction",),
    prim="BinaryCrossEntropy",
    primitive=PrimDef(init=(("reduction", "mean"),),
                      call=lambda prim, x, y, weight=None: binary_cross_entropy(
                          x, y, weight, prim.attrs["reduction"])))
def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """``-w * (y * log(x) + (1 - y) * log(1 - x))`` of probabilities ``logits`` (logs
    clamped at ``log(1e-12)``)."""
    x = _up(logits)
    eps = 1e-12
    loss = -(labels * jnp.log(jnp.maximum(x, eps)) + (1 - labels) *
             jnp.log(jnp.maximum(1 - x, eps)))
    return _weighted("binary_cross_entropy", loss, weight, reduction).astype(logits.dtype)


@op(dtype="float", static=("reduction",), prim="BCEWithLogitsLoss",
    primitive=(PrimDef(init=(("reduction", "mean"),),
                       call=lambda prim, x, y, weight=None, posWeight=None:
                       binary_cross_entropy_with_logits(x, y, weight, posWeight,
                                                        prim.attrs["reduction"])),
               PrimDef("SigmoidCrossEntropyWithLogits",
                       call=lambda prim, x, y: binary_cross_entropy_with_logits(
                           x, y, reduction="none"))))
def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction="mean"):
    """Sigmoid + binary cross entropy, computed stably; ``pos_weight`` scales positives."""
    x = _up(input)
    log_sig_neg = jax.nn.log_sigmoid(-x)  # log(1 - sigmoid(x))
    if pos_weight is None:
        loss = -(target * jax.nn.log_sigmoid(x) + (1 - target) * log_sig_neg)
    else:
        loss = -(pos_weight * target * jax.nn.log_sigmoid(x) + (1 - target) * log_sig_neg)
    return _weighted("binary_cross_entropy_with_logits", loss, weight,
                     reduction).astype(input.dtype)


@op(dtype="float", static=("reduction",), prim="KLDivLoss",
    primitive=PrimDef(init=(("reduction", "mean"),)))
def kl_div(logits, labels, reduction="mean"):
    """``labels * (log(labels) - logits)`` with 'none', 'mean', 'sum' or 'batchmean'."""
    loss = jax.scipy.special.xlogy(labels, labels) - labels * logits
    if reduction == "batchmean":
        return loss.sum() / (loss.shape[0] if loss.ndim else 1)
    check_reduction("kl_div", reduction)
    return reduce_loss(loss, reduction)


@op(dtype="float", dtype_args=("input", "weight"), static=("p", "margin", "reduction"),
    prim="MultiMarginLoss",
    primitive=PrimDef(init=(("p", 1), ("margin", 1.0), ("reduction", "mean")),
                      call=lambda prim, x, target, weight=None: _multi_margin_row(
                          x, target, prim.attrs["p"], prim.attrs["margin"], weight,
                          prim.attrs["reduction"])))
def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """``sum_{j != y} max(0, margin - x[y] + x[j]) ** p / C``, scaled by ``weight[y]``."""
    check_reduction("multi_margin_loss", reduction)
    if p not in (1, 2):
        raise ValueError(f"For 'multi_margin_loss', 'p' must be 1 or 2, but got {p}.")
    c = input.shape[-1]
    xy = jnp.take_along_axis(input, target[..., None].astype(jnp.int32), axis=-1)
    m = jnp.maximum(margin - xy + input, 0) ** p
    m = jnp.where(jax.nn.one_hot(target, c, dtype=bool), 0, m)
    if weight is not None:
        m = m * weight[target.astype(jnp.int32)][..., None]
    return reduce_loss(m.sum(-1) / c, reduction)


_multi_margin_row = multi_margin_loss


def multi_margin_loss(input, target, p=1, margin=1, weight=None,  # noqa: F811
                      reduction="mean"):
    """``sum_{j != y} max(0, margin - x[y] + x[j]) ** p / C``, scaled by ``weight[y]``."""
    if not isinstance(margin, int) or isinstance(margin, bool):
        raise TypeError(f"For 'multi_margin_loss', the type of 'margin' must be int, but got "
                        f"{type(margin)}.")
    return _multi_margin_row(input, target, p, margin, weight, reduction)


set_public(_multi_margin_row, multi_margin_loss)


@op(dtype="float", dtype_args=("input",), static=("reduction",), prim="MultilabelMarginLoss")
def multilabel_margin_loss(input, target, reduction="mean"):
    """Hinge loss between each target class (``target`` lists them, ended by -1) and each
    non-target class: ``sum max(0, 1 - (x[j] - x[k])) / C``."""
    check_reduction("multilabel_margin_loss", reduction)
    c = input.shape[-1]
    valid = jnp.cumprod(target >= 0, axis=-1).astype(bool)
    safe = jnp.where(valid, target, 0).astype(jnp.int32)
    is_target = (jax.nn.one_hot(safe, c, dtype=bool) & valid[..., None]).any(-2)
    xj = jnp.take_along_axis(input, safe, axis=-1)
    hinge = jnp.maximum(1 - (xj[..., :, None] - input[..., None, :]), 0)
    hinge = jnp.where(valid[..., :, None] & ~is_target[..., None, :], hinge, 0)
    return reduce_loss(hinge.sum((-1, -2)) / c, reduction)


@op(dtype="float", static=("reduction",), prim="MultilabelSoftMarginLoss")
def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """``-mean_c w * (y * log(sigmoid(x)) + (1 - y) * log(sigmoid(-x)))`` per sample."""
    check_reduction("multilabel_soft_margin_loss", reduction)
    loss = -(target * jax.nn.log_sigmoid(input) + (1 - target) * jax.nn.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss.mean(-1), reduction)


@op(dtype="float", dtype_args=("logits",), static=("is_grad",),
    prim="SparseSoftmaxCrossEntropyWithLogits", public=False,
    primitive=PrimDef(init=(("is_grad", False),)))
def sparse_softmax_cross_entropy_with_logits(logits, labels, is_grad=False):
    """Mean softmax cross entropy at class indices, or (``is_grad``) its gradient."""
    if is_grad:
        onehot = jax.nn.one_hot(labels, logits.shape[-1], dtype=logits.dtype)
        return (jax.nn.softmax(logits, axis=-1) - onehot) / logits.shape[0]
    logp = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(logp, labels[..., None].astype(jnp.int32), axis=-1)
    return -picked.mean()


__all__ = exports(__name__)
