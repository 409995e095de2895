"""Loss Cells (``mindspore.nn.MSELoss``, ``CrossEntropyLoss``, ...) and ``LossBase``.

``LossBase(reduction)`` gives every loss MindSpore's ``get_loss(x, weights)``:
``weights * x`` computed in float32, then averaged ('mean'), summed ('sum')
or kept ('none'), and cast back to ``x``'s dtype. The losses call the op
rows, with MindSpore's argument checks and messages.
"""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn._checkparam import check_bool, check_value_type
from msxla.nn.cell import Cell

__all__ = ["LossBase", "L1Loss", "MSELoss", "MAELoss", "RMSELoss", "SmoothL1Loss", "HuberLoss",
           "SoftMarginLoss", "KLDivLoss", "SoftmaxCrossEntropyWithLogits", "NLLLoss",
           "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "CTCLoss"]


def _check_type_name(arg_name, dtype, valid, prim_name):
    if dtype not in valid:
        names = str(valid[0]) if len(valid) == 1 else "[" + ", ".join(repr(t) for t in valid) + "]"
        raise TypeError(f"For '{prim_name}', the '{arg_name}' should be "
                        f"{'one of ' if len(valid) > 1 else ''}{names}, but got '{dtype!r}'.")


def _check_is_tensor(param_name, value, cls_name):
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"For '{cls_name}', the '{param_name}' must be 'Tensor', but got "
                        f"'{type(value).__name__}'")


class LossBase(Cell):
    """Base class of losses: holds the reduction and provides ``get_loss``."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in ['mean', "
                             f"'sum', 'none'], but got {reduction}.")
        self.average = reduction != "sum"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        """``weights * x`` in float32, reduced as configured, in ``x``'s dtype."""
        input_dtype = x.dtype
        x = ops.cast(x, mstype.float32)
        weights = ops.cast(weights, mstype.float32)
        x = ops.mul(weights, x)
        if self.reduce and self.average:
            x = ops.mean(x, self.get_axis(x))
        if self.reduce and not self.average:
            x = ops.sum(x, self.get_axis(x))
        return ops.cast(x, input_dtype)

    def construct(self, logits, labels):
        raise NotImplementedError


class _ReductionLoss(LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.reduction = reduction


class L1Loss(_ReductionLoss):
    """``|logits - labels|``, reduced."""

    def construct(self, logits, labels):
        return ops.l1_loss(logits, labels, self.reduction)


class MSELoss(LossBase):
    """``(logits - labels) ** 2``, reduced."""

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        return self.get_loss(ops.square(logits - labels))


class MAELoss(LossBase):
    """``|logits - label|``, reduced through ``get_loss``."""

    def construct(self, logits, label):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", label, self.cls_name)
        return self.get_loss(ops.abs(logits - label))


class RMSELoss(LossBase):
    """``sqrt(mean((logits - label) ** 2))``."""

    def __init__(self):
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits, label):
        return ops.sqrt(self.MSELoss(logits, label))


class SmoothL1Loss(LossBase):
    """Quadratic below ``beta``, linear above; ``reduction`` defaults to 'none'."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = beta
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    """Quadratic below ``delta``, ``delta``-scaled linear above."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.reduction = reduction
        self.delta = delta

    def construct(self, logits, labels):
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


class SoftMarginLoss(LossBase):
    """``log(1 + exp(-labels * logits))``, reduced."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.soft_margin_loss(logits, labels, self.reduction)


class KLDivLoss(SoftMarginLoss):
    """Kullback-Leibler divergence of log-probabilities ``logits`` from ``labels``."""

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        return ops.kl_div(logits, labels, self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Softmax cross entropy of (N, C) logits against one-hot labels, or class indices
    with ``sparse=True``; ``reduction`` defaults to 'none' (one loss per sample)."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = check_bool(sparse, "sparse", "SoftmaxCrossEntropyWithLogits")
        self.reduction = reduction
        self._ce = ops.SoftmaxCrossEntropyWithLogits()
        self._sparse_ce = ops.SparseSoftmaxCrossEntropyWithLogits()

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        if self.sparse:
            if self.reduction == "mean":
                return self._sparse_ce(logits, labels)
            labels = ops.one_hot(labels, logits.shape[-1], Tensor(1.0, mstype.float32),
                                 Tensor(0.0, mstype.float32))
        x = self._ce(logits, labels)[0]
        return self.get_loss(x)


def _check_weight(name, weight):
    if weight is not None:
        check_value_type("weight", weight, [Tensor], name)
        _check_type_name("weight", weight.dtype, [mstype.float16, mstype.float32], name)


class NLLLoss(LossBase):
    """Negative log-likelihood of log-probabilities at class indices."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        check_value_type("ignore_index", ignore_index, int, "NLLLoss")
        _check_weight("NLLLoss", weight)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class CTCLoss(LossBase):
    """CTC loss of [T, N, C] (or [T, C]) log-probabilities against padded targets
    (``ops.ctc_loss``'s loss)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        if log_probs.ndim == 2:  # one unbatched sample
            loss, _ = ops.ctc_loss(log_probs.expand_dims(1), targets.reshape(1, -1),
                                   input_lengths.reshape(1), target_lengths.reshape(1),
                                   self.blank, self.reduction, self.zero_infinity)
            return loss.squeeze(0) if self.reduction == "none" else loss
        loss, _ = ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                               self.reduction, self.zero_infinity)
        return loss


class CrossEntropyLoss(LossBase):
    """Softmax cross entropy of logits (N, C, ...) against class indices (N, ...) or class
    probabilities (N, C, ...), with class ``weight``, ``ignore_index`` and
    ``label_smoothing``."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        check_value_type("ignore_index", ignore_index, int, "CrossEntropyLoss")
        check_value_type("label_smoothing", label_smoothing, float, "CrossEntropyLoss")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', the 'label_smoothing' must be in range of "
                             f"[0.0, 1.0], but got {label_smoothing} with type 'float'.")
        _check_weight("CrossEntropyLoss", weight)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def _check_inputs(self, logits, labels):
        name = "CrossEntropyLoss"
        _check_type_name("logits", logits.dtype, [mstype.float16, mstype.float32], name)
        ls, ts = tuple(logits.shape), tuple(labels.shape)
        if logits.ndim == labels.ndim:
            _check_type_name("labels", labels.dtype, [mstype.float16, mstype.float32], name)
            if ls != ts:
                raise ValueError(f"For '{name}', the shape of 'logits' should be (N, C, d_0, d_1, "
                                 f"...), and the shape of 'labels' should be (N, C, d_0, d_1, "
                                 f"...), but get 'logits' shape: {ls} and 'labels' shape: {ts}.")
        elif labels.ndim == logits.ndim - 1:
            _check_type_name("labels", labels.dtype, [mstype.int32], name)
            if logits.ndim != 1 and (ls[0],) + ls[2:] != ts:
                raise ValueError(f"For '{name}', the shape of 'logits' should be (N, C, d_0, d_1, "
                                 f"...), and the shape of 'labels' should be (N, d_0, d_1, ...), "
                                 f"but get 'logits' shape: {ls} and 'labels' shape: {ts}.")
        else:
            raise ValueError(f"For '{name}', the rank of 'logits' and 'labels' should be:\n1. "
                             f"'logits.ndim == labels.ndim' for probabilities, \n2. "
                             f"'logits.ndim - 1 == labels.ndim' for class indices, \nbut get "
                             f"'logits' rank: {logits.ndim} and 'labels' rank: {labels.ndim}.")

    def construct(self, logits, labels):
        _check_is_tensor("logits", logits, self.cls_name)
        _check_is_tensor("labels", labels, self.cls_name)
        self._check_inputs(logits, labels)
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


class BCELoss(LossBase):
    """Binary cross entropy of probabilities ``logits`` against ``labels``."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.reduction = reduction
        self.weight = weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of ``sigmoid(input)``, with ``weight`` and ``pos_weight``."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__()
        self.reduction = reduction
        if isinstance(weight, Parameter):
            raise TypeError("For 'BCEWithLogitsLoss', the 'weight' can not be a Parameter.")
        if isinstance(pos_weight, Parameter):
            raise TypeError("For 'BCEWithLogitsLoss', the 'pos_weight' can not be a Parameter.")
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, input, target):
        _check_is_tensor("input", input, self.cls_name)
        _check_is_tensor("target", target, self.cls_name)
        return ops.binary_cross_entropy_with_logits(input, target, self.weight, self.pos_weight,
                                                    self.reduction)
