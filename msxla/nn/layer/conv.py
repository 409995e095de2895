"""Convolution layers: Conv1d, Conv2d, Conv3d and Conv2dTranspose (channels first).

Weights are (out, in / group, *kernel) — (in, out / group, *kernel) for the
transposed convolution — and ``Conv1d`` keeps MindSpore's 4-D weight
(out, in / group, 1, k). Defaults follow MindSpore 2.10: ``pad_mode='same'``,
no bias, weight HeUniform(negative_slope=sqrt(5)) and, with ``has_bias``,
bias U(-1/sqrt(fan_in), 1/sqrt(fan_in)). ``padding`` is an int or, with
``pad_mode='pad'``, a tuple (top, bottom, left, right) (6 values in 3-D).
"""
from __future__ import annotations

import math

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import (HeUniform, Uniform, _calculate_fan_in_and_fan_out,
                                      initializer)
from msxla.common.tensor import Tensor
from msxla.common.parameter import Parameter
from msxla.nn._checkparam import (check_bool, check_non_negative_int, check_positive_int,
                                  check_value_type)
from msxla.nn.cell import Cell

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv2dTranspose"]


def _expand(n, value):
    """MindSpore's ``twice`` / 3-tuple expansion of kernel_size, stride and dilation."""
    if not isinstance(value, tuple):
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,) * n
        raise TypeError(f"When expanding an int number to tuple, input type must be integer or "
                        f"tuple[int], but got {type(value)}")
    if len(value) != n:
        raise TypeError(f"When expanding an int number to tuple, input tuple dimension must be "
                        f"{n}, but got {value}")
    for v in value:
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"When expanding an int number to tuple, the type of element in "
                            f"input tuple must be an integer, but got {type(v)}.")
    return value


class _Conv(Cell):
    """Shared arguments, checks, Parameters and ``extend_repr`` of the convolutions."""

    _prim = "Conv2D"  # the primitive MindSpore's Cell runs, named in its errors

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, data_format="NCHW",
                 transposed=False, dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.in_channels = check_positive_int(in_channels, "in_channels", name)
        self.out_channels = check_positive_int(out_channels, "out_channels", name)
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{self._prim}', the 'pad_mode' must be str and must be in "
                             f"'['valid', 'same', 'pad']', but got '{pad_mode}'.")
        self.pad_mode = pad_mode
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For '{name}', the 'format' must be str and must be in "
                             f"'['NCHW', 'NHWC', 'NCDHW']', but got '{data_format}'.")
        if data_format == "NHWC":
            raise ValueError(f"For '{name}', the \"NHWC\" format only support in GPU target, "
                             f"but got the 'format' is NHWC and the platform is CPU.")
        self.data_format = data_format
        if isinstance(padding, int) and not isinstance(padding, bool):
            check_non_negative_int(padding, "padding", name)
        elif isinstance(padding, tuple):
            for pad in padding:
                check_non_negative_int(pad, "padding item", name)
        else:
            raise TypeError(f"For '{name}', the type of 'padding' must be int or tuple(int), but "
                            f"got {type(padding).__name__}.")
        self._check_pad(pad_mode, padding)
        self.padding = padding
        self.group = check_positive_int(group, "group", name)
        for what, values in (("kernel_size", kernel_size), ("stride", stride),
                             ("dilation", dilation)):
            for v in values:
                check_positive_int(v, f"{what} item", name)
        if in_channels % group:
            raise ValueError(f"For '{name}', the attr 'in_channels' must be divisible by attr "
                             f"'group', but got 'in_channels': {in_channels} and 'group': "
                             f"{group}.")
        if out_channels % group:
            raise ValueError(f"For '{name}', the 'out_channels' must be divisible by attr "
                             f"'group', but got 'out_channels': {out_channels} and 'group': "
                             f"{group}.")
        self.has_bias = check_bool(has_bias, "has_bias", name)
        shape = ([in_channels, out_channels // group, *kernel_size] if transposed
                 else [out_channels, in_channels // group, *kernel_size])
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias_init = bias_init
        self.bias = None
        if has_bias:
            if bias_init is None:
                fan_in, _ = _calculate_fan_in_and_fan_out(shape)
                bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros"
                self.bias_init = bias_init
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")

    def _check_pad(self, pad_mode, padding):
        if pad_mode.lower() == "pad" or all(p == 0 for p in (
                padding if isinstance(padding, tuple) else (padding,))):
            return
        if self._prim == "Conv2D":
            raise ValueError(f"For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not "
                             f"'pad', but got 'pad': {padding} and 'pad_mode': {pad_mode}.")
        zeros = (0,) * (6 if self._prim == "Conv3D" else 4)
        raise ValueError(f"For '{self._prim}', the 'pad' must be zero or {zeros} when 'pad_mode' "
                         f"is not \"pad\", but got 'pad' is {padding} and 'pad_mode' is "
                         f"{pad_mode}.")

    def _check_input(self, x):
        nd = len(self.kernel_size) + 2
        if x.ndim != nd:
            raise ValueError(f"For primitive[{self._prim}], the x shape size must be equal to "
                             f"{nd}, but got {x.ndim}.")
        c_in = self.weight.shape[0 if self._prim == "Conv2DTranspose" else 1]
        if self._prim != "Conv2DTranspose" and x.shape[1] != c_in * self.group:
            raise (RuntimeError if self._prim == "Conv2D" else ValueError)(
                f"For '{self._prim}', 'C_in' of input 'x' shape divide by parameter 'group' must "
                f"be equal to 'C_in' of input 'weight' shape: {c_in}, but got 'C_in' of input "
                f"'x' shape: {x.shape[1]}, and 'group': {self.group}.")
        if self._prim == "Conv2DTranspose" and x.shape[1] != c_in:
            raise ValueError(f"For 'Conv2DTranspose', the input channel (second dim of input) "
                             f"must be equal to 'in_channels' {c_in}, but got {x.shape[1]}.")

    def _bias(self):
        return self.bias if self.has_bias else None

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}, format={self.data_format}")


def _check_group(in_channels, out_channels, group, detail=True):
    if isinstance(group, int) and group > 0 and (in_channels % group or out_channels % group):
        msg = "The argument 'group' should be divisible by 'in_channels' and 'out_channels'"
        if detail:
            msg += (f", but got group:{group}, in_channels:{in_channels}, "
                    f"out_channels:{out_channels}.")
        raise ValueError(msg)


class Conv2d(_Conv):
    """2-D convolution of (N, C_in, H, W)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=mstype.float32):
        check_positive_int(group, "group", "Conv2d")
        _check_group(in_channels, out_channels, group)
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For 'Conv2d', the size of 'padding' must be 4, but got "
                             f"{len(padding)}.")
        super().__init__(in_channels, out_channels, _expand(2, kernel_size), _expand(2, stride),
                         pad_mode, padding, _expand(2, dilation), group, has_bias, weight_init,
                         bias_init, data_format, dtype=dtype)

    def construct(self, x):
        self._check_input(x)
        return ops.conv2d(x, self.weight, self._bias(), self.stride, self.pad_mode.lower(),
                          self.padding, self.dilation, self.group)


class Conv1d(_Conv):
    """1-D convolution of (N, C_in, L); the weight is (C_out, C_in / group, 1, k)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=mstype.float32):
        for what, value in (("kernel_size", kernel_size), ("stride", stride),
                            ("padding", padding), ("dilation", dilation)):
            check_value_type(what, value, [int], "Conv1d")
        check_non_negative_int(padding, "padding", "Conv1d")
        check_positive_int(group, "group", "Conv1d")
        _check_group(in_channels, out_channels, group)
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 3:
                raise ValueError(f"For 'Conv1d', the 'weight_init_shape' must be equal to 3, but "
                                 f"got {weight_init.ndim}.")
            weight_init = weight_init.expand_dims(2)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         padding, (1, dilation), group, has_bias, weight_init, bias_init,
                         dtype=dtype)
        self.padding = (0, 0, padding, padding)

    def _check_pad(self, pad_mode, padding):
        pads = (0, 0, padding, padding) if isinstance(padding, int) else padding
        super()._check_pad(pad_mode, pads)

    def construct(self, x):
        x = x.expand_dims(2)
        self._check_input(x)
        out = ops.conv2d(x, self.weight, self._bias(), self.stride,
                         self.pad_mode.lower(), self.padding, self.dilation, self.group)
        return out.squeeze(2)


class Conv3d(_Conv):
    """3-D convolution of (N, C_in, D, H, W); ``padding`` tuples have 6 values."""

    _prim = "Conv3D"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=mstype.float32):
        _check_group(in_channels, out_channels, group, detail=False)
        check_value_type("padding", padding, (int, tuple), "Conv3d")
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For 'Conv3d', the 'padding size' must be equal to 6, but got "
                             f"{len(padding)}.")
        super().__init__(in_channels, out_channels, _expand(3, kernel_size), _expand(3, stride),
                         pad_mode, padding, _expand(3, dilation), group, has_bias, weight_init,
                         bias_init, data_format, dtype=dtype)

    def construct(self, x):
        self._check_input(x)
        return ops.conv3d(x, self.weight, self._bias(), self.stride, self.pad_mode.lower(),
                          self.padding, self.dilation, self.group)


def _deconv_length(mode, n, k, s, d, pad):
    k = k + (k - 1) * (d - 1)
    if mode == "valid":
        return n * s + k - s if k - s > 0 else n * s
    if mode == "same":
        return n * s
    return n * s - pad + k - s


class Conv2dTranspose(_Conv):
    """2-D transposed convolution; the weight is (C_in, C_out / group, kH, kW).

    The output is (H - 1) * stride + kernel - padding (pad mode), H * stride
    (same) or (H - 1) * stride + kernel (valid); ``output_padding`` then
    appends zeros at the bottom and right, as MindSpore does."""

    _prim = "Conv2DTranspose"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=mstype.float32):
        check_value_type("padding", padding, (int, tuple), "Conv2dTranspose")
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For 'Conv2dTranspose', the 'padding size' must be equal to 4, "
                             f"but got {len(padding)}.")
        check_value_type("output_padding", output_padding, (int, tuple), "Conv2dTranspose")
        if isinstance(output_padding, tuple) and len(output_padding) != 2:
            raise ValueError(f"For 'Conv2dTranspose', the 'output_padding size' must be equal "
                             f"to 2, but got {len(output_padding)}.")
        super().__init__(in_channels, out_channels, _expand(2, kernel_size), _expand(2, stride),
                         pad_mode, padding, _expand(2, dilation), group, has_bias, weight_init,
                         bias_init, transposed=True, dtype=dtype)
        self.output_padding = output_padding
        self._pads = (padding,) * 4 if isinstance(padding, int) else padding
        self._deconv = ops.Conv2DTranspose(out_channel=in_channels, kernel_size=self.kernel_size,
                                           pad_mode=pad_mode, pad=padding, stride=self.stride,
                                           dilation=self.dilation, group=group)

    def _output_padding(self):
        op = self.output_padding
        pads = op if isinstance(op, tuple) else (op, op)
        for i in (0, 1):
            if pads[i] < 0 or pads[i] >= max(self.dilation[i], self.stride[i]):
                raise ValueError(f"output_padding{'[%d]' % i if isinstance(op, tuple) else ''} "
                                 f"must be in range of [0, max(stride_{'hw'[i]}, "
                                 f"dilation_{'hw'[i]})).")
        if self.pad_mode.lower() != "pad" and any(pads):
            raise ValueError("when output_padding is not zero, pad_mode must be 'pad'")
        return pads

    def construct(self, x):
        self._check_input(x)
        n, _, h, w = x.shape
        mode = self.pad_mode.lower()
        top, bottom, left, right = self._pads
        h_out = _deconv_length(mode, h, self.kernel_size[0], self.stride[0], self.dilation[0],
                               top + bottom)
        w_out = _deconv_length(mode, w, self.kernel_size[1], self.stride[1], self.dilation[1],
                               left + right)
        out = self._deconv(x, self.weight, (n, self.out_channels, h_out, w_out))
        if self.has_bias:
            out = ops.bias_add(out, self.bias)
        if self.output_padding == 0:
            return out
        ph, pw = self._output_padding()
        return ops.pad(out, (0, pw, 0, ph))
