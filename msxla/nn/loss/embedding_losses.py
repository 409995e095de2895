"""Margin, embedding, likelihood and overlap losses: MarginRankingLoss,
HingeEmbeddingLoss, CosineEmbeddingLoss, TripletMarginLoss, MultiMarginLoss,
MultiLabelSoftMarginLoss, MultilabelMarginLoss, GaussianNLLLoss, PoissonNLLLoss,
FocalLoss, DiceLoss and MultiClassDiceLoss.

The Cells hold MindSpore's constructor arguments and checks and call the op
rows (``ops.margin_ranking_loss``, ``ops.gaussian_nll_loss``, ...); the losses
MindSpore writes out in the Cell (CosineEmbedding, PoissonNLL, Focal, Dice)
are the same formulas over Tensor ops, reduced by ``LossBase.get_loss``.
"""
from __future__ import annotations

import math
import numbers

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.nn._checkparam import check_value_type
from msxla.nn.cell import Cell
from msxla.nn.layer.activation import get_activation
from msxla.nn.loss.loss import LossBase, _check_is_tensor

__all__ = ["MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
           "MultiMarginLoss", "MultiLabelSoftMarginLoss", "MultilabelMarginLoss",
           "GaussianNLLLoss", "PoissonNLLLoss", "FocalLoss", "DiceLoss", "MultiClassDiceLoss"]


def _reduction(reduction, name):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"For '{name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                         f"but got {reduction}.")
    return reduction


class MarginRankingLoss(LossBase):
    """``max(0, -target * (input1 - input2) + margin)``, reduced."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin, self.reduction = margin, reduction

    def construct(self, input1, input2, target):
        return ops.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``x`` where the label is 1, ``max(0, margin - x)`` where it is -1, reduced."""

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(_reduction(reduction, "HingeEmbeddingLoss"))
        check_value_type("margin", margin, [float, int], "HingeEmbeddingLoss")
        self.margin, self.reduction = margin, reduction

    def construct(self, logits, labels):
        return ops.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """``1 - cos(x1, x2)`` for label 1, ``max(0, cos(x1, x2) - margin)`` for label -1."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        check_value_type("margin", margin, [float], "CosineEmbeddingLoss")
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For 'CosineEmbeddingLoss', the 'margin' must be in range of "
                             f"[-1.0, 1.0], but got {margin} with type 'float'.")
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        for name, t in (("logits_x1", logits_x1), ("logits_x2", logits_x2), ("labels", labels)):
            _check_is_tensor(name, t, "CosineEmbeddingLoss")
        if logits_x1.shape != logits_x2.shape or logits_x1.dtype != logits_x2.dtype:
            raise TypeError("For 'CosineEmbeddingLoss', 'logits_x1' and 'logits_x2' must have "
                            "the same shape and dtype.")
        prod = (logits_x1 * logits_x2).sum((1,))
        denom = logits_x1.square().sum((1,)).sqrt() * logits_x2.square().sum((1,)).sqrt()
        cosine = prod / denom
        zeros = ops.zeros_like(cosine)
        pos = ops.select(labels == 1, 1.0 - cosine, zeros)
        neg = ops.select(labels == -1, ops.maximum(cosine - self.margin, 0.0), zeros)
        return self.get_loss(pos + neg)


class TripletMarginLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with the ``p``-norm distance."""

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.0):
        super().__init__()
        self.p, self.swap, self.eps, self.reduction, self.margin = p, swap, eps, reduction, margin

    def construct(self, x, positive, negative, margin=1.0):
        if self.margin != 1.0:
            margin = self.margin
        return ops.triplet_margin_loss(x, positive, negative, margin=margin, p=self.p,
                                       eps=self.eps, swap=self.swap, reduction=self.reduction)


class MultiMarginLoss(LossBase):
    """The multi-class hinge loss ``sum_j max(0, margin - x[y] + x[j])^p / C``."""

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__()
        self.p, self.margin, self.reduction, self.weight = p, margin, reduction, weight

    def construct(self, x, target, weight=None):
        _check_is_tensor("x", x, "MultiMarginLoss")
        _check_is_tensor("target", target, "MultiMarginLoss")
        if self.weight is not None:
            weight = self.weight
        return ops.MultiMarginLoss(self.p, self.margin, self.reduction)(x, target, weight)


class MultiLabelSoftMarginLoss(LossBase):
    """The mean over classes of the binary logistic loss of each label."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.reduction = weight, reduction

    def construct(self, x, target):
        return ops.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class MultilabelMarginLoss(LossBase):
    """The multi-label hinge loss over the target classes listed before the first -1."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = _reduction(reduction, "MultilabelMarginLoss")

    def construct(self, x, target):
        return ops.multilabel_margin_loss(x, target, self.reduction)


class GaussianNLLLoss(LossBase):
    """``0.5 * (log(max(var, eps)) + (logits - labels)^2 / max(var, eps))`` (+ constant)."""

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__()
        if not isinstance(eps, float):
            raise TypeError(f"For 'GaussianNLLLoss', the 'eps' must be 'float',  but got "
                            f"'{type(eps).__name__}'.")
        if not 0 < eps < math.inf:
            raise ValueError(f"For 'GaussianNLLLoss', the 'eps' must be in range of (0, inf), "
                             f"but got {eps}.")
        check_value_type("full", full, [bool], "GaussianNLLLoss")
        self.full, self.eps, self.reduction = full, eps, _reduction(reduction, "GaussianNLLLoss")

    def construct(self, logits, labels, var):
        for name, t in (("logits", logits), ("labels", labels), ("var", var)):
            _check_is_tensor(name, t, "GaussianNLLLoss")
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """``exp(input) - target * input`` (``log_input``) or ``input - target * log(input +
    eps)``, plus Stirling's term for ``target > 1`` with ``full``."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction=reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):  # noqa: A002 - MindSpore's name
        _check_is_tensor("input", input, "PoissonNLLLoss")
        _check_is_tensor("target", target, "PoissonNLLLoss")
        target = target.astype(input.dtype)
        if self.log_input:
            loss = input.exp() - target * input
        else:
            loss = input - target * (input + self.eps).log()
        if self.full:
            target = ops.maximum(target, self.eps)
            stirling = (target + 0.5) * target.log() - target + 0.5 * math.log(2 * math.pi)
            loss = loss + ops.select(target > 1, stirling, ops.zeros_like(stirling))
        return self.get_loss(loss)


class FocalLoss(LossBase):
    """``-(1 - p)^gamma * log(p)`` of the softmax over dimension 1, for class-index labels
    (one channel) or one-hot labels."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction=reduction)
        self.gamma = check_value_type("gamma", gamma, [float])
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got "
                             f"{weight.ndim}.")
        self.weight = weight

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, "FocalLoss")
        _check_is_tensor("labels", labels, "FocalLoss")
        if logits.ndim != labels.ndim:
            raise ValueError(f"For 'FocalLoss', the 'logits' dimension and 'labels' dimension "
                             f"must be equal, but got {logits.ndim} and {labels.ndim}.")
        if labels.dtype not in (mstype.int32, mstype.float16, mstype.float32):
            raise TypeError(f"For 'FocalLoss', the dtype of 'labels' must be int32, float16 or "
                            f"float32, but got {labels.dtype}.")
        one_channel = labels.shape[1] == 1
        if logits.ndim > 2:
            logits = logits.reshape(logits.shape[0], logits.shape[1], -1)
            labels = labels.reshape(labels.shape[0], labels.shape[1], -1)
        else:
            logits, labels = logits.expand_dims(2), labels.expand_dims(2)
        logp = ops.log_softmax(logits, 1)
        index = labels.astype(mstype.int32)
        if one_channel:
            logp = ops.gather_elements(logp, 1, index).squeeze(1)
        prob = logp.exp()
        if self.weight is not None:
            w = self.weight[None, :, None].tile((labels.shape[0], 1, labels.shape[2]))
            if one_channel:
                w = ops.gather_elements(w, 1, index).squeeze(1)
            logp = logp * w
        focal = (1.0 - prob) ** self.gamma
        loss = (-focal * logp).mean(1) if one_channel else (-focal * labels * logp).mean(-1)
        return self.get_loss(loss)


class DiceLoss(LossBase):
    """``1 - 2 * sum(x * y) / (sum(x^2) + sum(y^2) + smooth)`` over all elements."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, numbers.Real) or smooth <= 0:
            raise ValueError(f"The 'smooth' must be float and must > 0, but got '{smooth}' with "
                             f"type '{type(smooth).__name__}'.")
        self.smooth = float(smooth)

    def construct(self, logits, label):
        _check_is_tensor("logits", logits, "DiceLoss")
        _check_is_tensor("labels", label, "DiceLoss")
        if logits.shape != label.shape:
            raise ValueError(f"For 'DiceLoss', the 'logits' shape and the 'labels' shape must "
                             f"be equal, but got {logits.shape} and {label.shape}.")
        if mstype.uint8 in (logits.dtype, label.dtype):
            raise TypeError("For 'DiceLoss', the dtype of 'logits' and 'labels' can not be "
                            "uint8.")
        x, y = logits.reshape(-1), label.reshape(-1)
        inter = (x * y).sum()
        union = (x * x).sum() + (y * y).sum()
        return 1 - 2 * inter / (union + self.smooth)


class MultiClassDiceLoss(LossBase):
    """The mean over classes (dimension 1) of DiceLoss after ``activation``."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        allowed = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        if weights is not None:
            check_value_type("weights", weights, [Tensor], "MultiClassDiceLoss")
            if weights.ndim != 2:
                raise ValueError(f"For 'MultiClassDiceLoss', the dimension of 'weights' must be "
                                 f"2, but got {weights.ndim}.")
        self.weights = weights
        if ignore_indiex is not None:
            check_value_type("ignore_indiex", ignore_indiex, [int], "MultiClassDiceLoss")
        self.ignore_indiex = ignore_indiex
        if isinstance(activation, str) and activation not in allowed:
            raise ValueError(f"For 'MultiClassDiceLoss', the 'activation' must be in {allowed}, "
                             f"but got {activation}.")
        act = get_activation(activation) if isinstance(activation, str) else activation
        if act is not None and not isinstance(act, Cell):
            raise TypeError(f"For 'MultiClassDiceLoss', the 'activation' must be str or Cell, "
                            f"but got {type(act)}.")
        self.activation = act

    def construct(self, logits, label):
        if logits.shape != label.shape:
            raise ValueError(f"For 'MultiClassDiceLoss', the 'logits' shape and the 'labels' "
                             f"shape must be equal, but got {logits.shape} and {label.shape}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0
        for i in range(label.shape[1]):
            if i != self.ignore_indiex:
                loss = self.binarydiceloss(logits[:, i], label[:, i])
                if self.weights is not None:
                    loss = loss * self.weights[i]
                total = total + loss
        return total / label.shape[1]
