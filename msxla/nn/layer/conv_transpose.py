"""Conv1dTranspose and Conv3dTranspose (channels first).

``Conv1dTranspose`` is MindSpore's: a ``Conv2dTranspose`` over (N, C, 1, L) with
the 4-D weight (C_in, C_out / group, 1, k) and padding (0, 0, p, p).
``Conv3dTranspose`` holds the weight (C_in, C_out / group, kD, kH, kW) and runs
``ops.conv3d_transpose``; its output is (D - 1) * stride - padding + dilation *
(k - 1) + 1 + output_padding per dimension in 'pad' mode, D * stride in 'same'
mode, as in MindSpore.
"""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.nn._checkparam import check_non_negative_int, check_value_type
from msxla.nn.layer.conv import Conv2dTranspose, _Conv, _check_group, _expand

__all__ = ["Conv1dTranspose", "Conv3dTranspose"]


class Conv1dTranspose(Conv2dTranspose):
    """1-D transposed convolution of (N, C_in, L)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=mstype.float32):
        for what, value in (("kernel_size", kernel_size), ("stride", stride),
                            ("padding", padding), ("dilation", dilation)):
            check_value_type(what, value, [int], "Conv1dTranspose")
        check_non_negative_int(padding, "padding", "Conv1dTranspose")
        _check_group(in_channels, out_channels, group)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         (0, 0, padding, padding), 0, (1, dilation), group, has_bias,
                         weight_init, bias_init, dtype=dtype)

    def construct(self, x):
        if x.ndim != 3:
            raise ValueError(f"For 'Conv1dTranspose', the dimension of input must be 3, but got "
                             f"{x.ndim}.")
        return super().construct(x.expand_dims(2)).squeeze(2)


class Conv3dTranspose(_Conv):
    """3-D transposed convolution of (N, C_in, D, H, W)."""

    _prim = "Conv3DTranspose"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW", dtype=mstype.float32):
        check_value_type("padding", padding, (int, tuple), "Conv3dTranspose")
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For 'Conv3dTranspose', the 'padding size' must be int and must = "
                             f"6, but got '{len(padding)}' with type 'int'.")
        _check_group(in_channels, out_channels, group, detail=False)
        super().__init__(in_channels, out_channels, _expand(3, kernel_size), _expand(3, stride),
                         pad_mode, padding, _expand(3, dilation), group, has_bias, weight_init,
                         bias_init, data_format, transposed=True, dtype=dtype)
        self.output_padding = _expand(3, output_padding)

    def _check_input(self, x):
        if x.ndim != 5:
            raise ValueError(f"For primitive[Conv3DTranspose], the x shape size must be equal to "
                             f"5, but got {x.ndim}.")
        if x.shape[1] != self.in_channels:
            raise ValueError(f"For 'Conv3DTranspose', the input channel (second dim of input) "
                             f"must be equal to 'in_channels' {self.in_channels}, but got "
                             f"{x.shape[1]}.")

    def construct(self, x):
        self._check_input(x)
        out = ops.conv3d_transpose(x, self.weight, self.pad_mode.lower(), self.padding,
                                   self.stride, self.dilation, self.group, self.output_padding)
        if self.has_bias:
            out = out + self.bias.reshape(1, -1, 1, 1, 1)
        return out
