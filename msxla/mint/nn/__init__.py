"""``mindspore.mint.nn``: the torch-like layers. ``Dropout(p, inplace)``,
``CrossEntropyLoss``, ``GroupNorm`` (``weight`` / ``bias``) and ``SiLU(inplace)`` are here; layers MindSpore 2.10 shares with ``nn`` come
from the path index, and ``mint.nn.functional`` holds the functions."""
from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import initializer
from msxla.common.parameter import Parameter
from msxla.mint.nn import functional  # noqa: F401
from msxla.nn.cell import Cell
from msxla.nn.layer.activation import SiLU as _SiLU
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


class GroupNorm(Cell):
    """Normalise each of ``num_groups`` channel groups of (N, C, ...), then per-channel
    ``* weight + bias`` (Parameters of ones and zeros, trained when ``affine``)."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("For 'GroupNorm', the 'num_channels' must be divided by "
                             f"'num_groups', but got 'num_channels': {num_channels}, "
                             f"'num_groups': {num_groups}.")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        dtype = dtype if dtype is not None else mstype.float32
        self.weight = Parameter(initializer("ones", num_channels, dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(initializer("zeros", num_channels, dtype), name="bias",
                              requires_grad=affine)

    def construct(self, input):
        return ops.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extend_repr(self):
        return (f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
                f"eps={self.eps}, affine={self.affine}")


class SiLU(_SiLU):
    """``x * sigmoid(x)``; ``inplace`` is accepted (the result is always a new Tensor)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


__all__ = ["Dropout", "CrossEntropyLoss", "GroupNorm", "SiLU"]
