"""``Conv2dBnAct`` and ``DenseBnAct`` (``mindspore.nn.layer.combined``): a Conv2d or
Dense layer, an optional batch norm and an optional activation in one Cell.

``activation`` is a name ``get_activation`` knows, a Cell, or None;
``'leakyrelu'`` uses ``alpha`` as its slope. The sub-Cells are named ``conv`` /
``dense``, ``batchnorm`` and ``activation`` as in MindSpore, so checkpoints
carry the same parameter names. ``after_fake`` (a quantization-aware training
flag) is accepted and has no effect.
"""
from __future__ import annotations

from msxla.nn.cell import Cell
from msxla.nn.layer.activation import LeakyReLU, get_activation
from msxla.nn.layer.basic import Dense
from msxla.nn.layer.conv import Conv2d
from msxla.nn.layer.normalization import BatchNorm1d, BatchNorm2d


def _activation(activation, alpha, who):
    if activation is None:
        return None
    if isinstance(activation, str):
        if activation.lower() == "leakyrelu":
            return LeakyReLU(alpha)
        return get_activation(activation)
    if isinstance(activation, Cell):
        return activation
    raise TypeError(f"For '{who}', the 'activation' must be a str, a Cell or None, but got "
                    f"{type(activation).__name__}.")


class Conv2dBnAct(Cell):
    """Conv2d, then BatchNorm2d (with ``has_bn``), then ``activation``."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros", has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                           pad_mode=pad_mode, padding=padding, dilation=dilation, group=group,
                           has_bias=has_bias, weight_init=weight_init, bias_init=bias_init)
        self.has_bn = bool(has_bn)
        self.has_act = activation is not None
        self.after_fake = after_fake
        if self.has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps=eps, momentum=momentum)
        self.activation = _activation(activation, alpha, "Conv2dBnAct")

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(Cell):
    """Dense, then BatchNorm1d (with ``has_bn``), then ``activation``."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = bool(has_bn)
        self.has_act = activation is not None
        self.after_fake = after_fake
        if self.has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps=eps, momentum=momentum)
        self.activation = _activation(activation, alpha, "DenseBnAct")

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


__all__ = ["Conv2dBnAct", "DenseBnAct"]
