"""``mindspore.mint.nn``: the torch-like layers. ``Dropout(p, inplace)`` and
``CrossEntropyLoss`` are here; layers MindSpore 2.10 shares with ``nn`` come
from the path index, and ``mint.nn.functional`` holds the functions."""
from msxla.mint.nn import functional  # noqa: F401
from msxla.nn.layer.basic import Dropout as _Dropout
from msxla.nn.loss import CrossEntropyLoss as _CrossEntropyLoss


class Dropout(_Dropout):
    """Zero each element with probability ``p`` while training, scaling the rest by
    ``1 / (1 - p)``; the identity in inference. ``inplace`` is accepted (msxla's
    Tensors are values, so the result is always a new Tensor)."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__(p=p)
        self.inplace = inplace


class CrossEntropyLoss(_CrossEntropyLoss):
    """Cross entropy of logits against class indices or probabilities, with
    ``weight``, ``ignore_index``, ``reduction`` and ``label_smoothing``."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction,
                         label_smoothing=label_smoothing)


__all__ = ["Dropout", "CrossEntropyLoss"]
