"""Pooling layers: MaxPool1d/2d, AvgPool1d/2d, AdaptiveAvgPool1d/2d, AdaptiveMaxPool2d.

``pad_mode`` is 'valid' or 'same' (TensorFlow-style windows) or 'pad'
(explicit ``padding``, with ``dilation``, ``ceil_mode`` and, for max pooling,
``return_indices``), as in MindSpore 2.10. Inputs may be batched
(N, C, ...) or unbatched (C, ...).
"""
from __future__ import annotations

from msxla import ops
from msxla.nn._checkparam import check_value_type
from msxla.nn.cell import Cell

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "LPPool1d", "LPPool2d"]


class _PoolNd(Cell):
    def __init__(self, kernel_size, stride, pad_mode, data_format="NCHW"):
        super().__init__()
        name = type(self).__name__
        check_value_type("pad_mode", pad_mode, [str], name)
        if pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{name}', the 'pad_mode' must be str and must be in "
                             f"'['VALID', 'SAME', 'PAD']', but got '{pad_mode.upper()}'.")
        self.pad_mode = pad_mode.upper()
        if data_format != "NCHW":
            raise ValueError(f"For '{name}, the 'NHWC' format only support in GPU target, but "
                             f"got device target CPU.")
        self.format = data_format
        self.kernel_size = self._int_or_tuple("kernel_size", kernel_size)
        self.stride = self._int_or_tuple("stride", stride)

    def _int_or_tuple(self, arg_name, value):
        name = type(self).__name__
        check_value_type(arg_name, value, [int, tuple], name)
        msg = (f"For '{name}', the '{arg_name}' must be an positive int number or a tuple, but "
               f"got {value}")
        if isinstance(value, int):
            if value <= 0:
                raise ValueError(msg)
            return value
        for item in value:
            if not (isinstance(item, int) and item > 0):
                raise ValueError(msg)
        return value[0] if len(value) == 1 else value

    def _unbatched(self, x, rank):
        """``(x with a batch axis, whether one was added)``."""
        if x.ndim == rank - 1:
            return x.expand_dims(0), True
        return x, False

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


def _pairs(name, value, nd):
    if isinstance(value, int):
        return (value,) * nd
    if len(value) != nd:
        raise ValueError(f"For {name}, the length of {value} must be equal to {nd}, but got "
                         f"{len(value)}.")
    return tuple(value)


def _max_padding(name, padding, nd):
    """``padding`` (an int, one value or ``nd`` values) as ``nd`` non-negative ints."""
    check_value_type("padding", padding, (int, tuple, list), name)
    values = (padding,) if isinstance(padding, int) else tuple(padding)
    if any(not isinstance(p, int) or p < 0 for p in values):
        raise ValueError(f"For '{name}', the 'padding' must be non-negative ints, but got "
                         f"{padding}.")
    if len(values) == 1:
        return values * nd
    if len(values) != nd:
        raise ValueError(f"For {name}, the length of padding must equal to {nd}, but got "
                         f"{len(values)}.")
    return values


def _check_plain(name, pad_mode, padding, dilation, return_indices, ceil_mode):
    if padding != 0 or dilation != 1 or return_indices or ceil_mode:
        raise ValueError(f"For {name}, the parameter 'padding', 'dilation', 'return_indices', "
                         f"'ceil_mode' can not be set to non-default value when pad_mode is not "
                         f"'pad', but got pad_mode:{pad_mode}.")


class MaxPool2d(_PoolNd):
    """2-D max pooling of (N, C, H, W) or (C, H, W)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.return_indices = return_indices
        self.use_pad = self.pad_mode == "PAD"
        if self.use_pad:
            self.padding = _max_padding("MaxPool2d", padding, 2)
            self._dilation = _pairs("MaxPool2d", dilation, 2)
            self._ceil = ceil_mode
        else:
            _check_plain("MaxPool2d", pad_mode, padding, dilation, return_indices, ceil_mode)
            self._pool = ops.MaxPool(kernel_size=self.kernel_size, strides=self.stride,
                                     pad_mode=self.pad_mode)

    def construct(self, x):
        x, added = self._unbatched(x, 4)
        if self.use_pad:
            out = ops.max_pool2d(x, self.kernel_size, self.stride, self.padding, self._dilation,
                                 return_indices=self.return_indices, ceil_mode=self._ceil)
        else:
            out = self._pool(x)
        if added:
            out = tuple(o.squeeze(0) for o in out) if isinstance(out, tuple) else out.squeeze(0)
        return out


class MaxPool1d(_PoolNd):
    """1-D max pooling of (N, C, L) or (C, L)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        self.kernel_size, self.stride = (1, kernel_size), (1, stride)
        self.return_indices = return_indices
        self.use_pad = self.pad_mode == "PAD"
        if self.use_pad:
            pad = _max_padding("MaxPool1d", padding, 1)[0]
            dil = dilation if isinstance(dilation, int) else tuple(dilation)[0]
            self.padding, self._dilation, self._ceil = (0, pad), (1, dil), ceil_mode
        else:
            _check_plain("MaxPool1d", pad_mode, padding, dilation, return_indices, ceil_mode)
            self._pool = ops.MaxPool(kernel_size=self.kernel_size, strides=self.stride,
                                     pad_mode=self.pad_mode)

    def construct(self, x):
        x, added = self._unbatched(x, 3)
        x = x.expand_dims(2)
        if self.use_pad:
            out = ops.max_pool2d(x, self.kernel_size, self.stride, self.padding, self._dilation,
                                 return_indices=self.return_indices, ceil_mode=self._ceil)
        else:
            out = self._pool(x)
        axes = (0, 2) if added else (2,)
        if isinstance(out, tuple):
            return tuple(o.squeeze(axes) for o in out)
        return out.squeeze(axes)


def _avg_padding(name, padding, nd):
    """MindSpore's AvgPool3D padding (6 values) for a 1-D or 2-D pooling."""
    check_value_type("padding", padding, (int, tuple, list), name)
    if isinstance(padding, int):
        return (0, 0) * (3 - nd) + (padding,) * nd * 2
    padding = tuple(padding)
    if len(padding) == nd:
        return (0, 0) * (3 - nd) + tuple(padding[i // 2] for i in range(nd * 2))
    if len(padding) == 1:
        return (0, 0) * (3 - nd) + padding * nd * 2
    raise ValueError(f"For {name}, the padding must be int or tuple/list with {nd} elements, "
                     f"but got {padding}.")


class AvgPool2d(_PoolNd):
    """2-D average pooling of (N, C, H, W) or (C, H, W)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.is_expand = (self.pad_mode == "PAD" or padding != 0 or ceil_mode
                          or not count_include_pad or divisor_override is not None)
        if self.is_expand:
            if divisor_override is not None and divisor_override <= 0:
                raise ValueError(f"For 'AvgPool2d', the 'divisor_override' must be > 0, but got "
                                 f"{divisor_override}.")
            k = (1,) + _pairs("AvgPool2d", self.kernel_size, 2)
            s = (1,) + _pairs("AvgPool2d", self.stride, 2)
            self._pool = ops.AvgPool3D(kernel_size=k, strides=s, pad_mode=pad_mode,
                                       pad=_avg_padding("AvgPool2d", padding, 2),
                                       ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                                       divisor_override=divisor_override or 0)
        else:
            self._pool = ops.AvgPool(kernel_size=self.kernel_size, strides=self.stride,
                                     pad_mode=self.pad_mode)

    def construct(self, x):
        x, added = self._unbatched(x, 4)
        out = self._pool(x.expand_dims(2)).squeeze(2) if self.is_expand else self._pool(x)
        return out.squeeze(0) if added else out


class AvgPool1d(_PoolNd):
    """1-D average pooling of (N, C, L) or (C, L)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode)
        self.is_expand_3d = (self.pad_mode == "PAD" or padding != 0 or ceil_mode
                             or not count_include_pad)
        if self.is_expand_3d:
            self._pool = ops.AvgPool3D(kernel_size=(1, 1, kernel_size), strides=(1, 1, stride),
                                       pad_mode=pad_mode,
                                       pad=_avg_padding("AvgPool1d", padding, 1),
                                       ceil_mode=ceil_mode, count_include_pad=count_include_pad)
        else:
            self.kernel_size, self.stride = (1, kernel_size), (1, stride)
            self._pool = ops.AvgPool(kernel_size=self.kernel_size, strides=self.stride,
                                     pad_mode=self.pad_mode)

    def construct(self, x):
        x, added = self._unbatched(x, 3)
        if self.is_expand_3d:
            out = self._pool(x.expand_dims(2).expand_dims(3)).squeeze((2, 3))
        else:
            if x.ndim != 3:
                raise ValueError(f"For 'AvgPool1d', the input must has 3 dim, but got {x.ndim}")
            out = self._pool(x.expand_dims(2)).squeeze(2)
        return out.squeeze(0) if added else out


def _adaptive_shape_check(shape, output_size, name):
    if len(shape) != 3:
        raise ValueError(f"For {name}, the input must has 3 dim, but got {len(shape)}.")
    if shape[2] < output_size:
        raise ValueError(f"For {name}, the input's last dimension must be greater or equal to "
                         f"output size {output_size}, but got {shape[2]}.")
    if shape[2] % output_size != 0:
        raise ValueError(f"For {name}, the input's last dimension must be divisible by output "
                         f"size {output_size}, but got {shape[2]}.")


class AdaptiveAvgPool1d(Cell):
    """Average pooling of (N, C, L) to ``output_size`` positions (L must be a multiple)."""

    def __init__(self, output_size):
        super().__init__()
        check_value_type("output_size", output_size, [int], "AdaptiveAvgPool1d")
        if output_size < 1:
            raise ValueError(f"For 'AdaptiveAvgPool1d', the 'output_size' must be >= 1, but got "
                             f"{output_size}.")
        self.output_size = output_size

    def construct(self, input):
        _adaptive_shape_check(input.shape, self.output_size, "AdaptiveAvgPool1d")
        stride = input.shape[2] // self.output_size
        kernel = input.shape[2] - (self.output_size - 1) * stride
        pool = ops.AvgPool(kernel_size=(1, kernel), strides=(1, stride))
        return pool(input.expand_dims(2)).squeeze(2)


class AdaptiveAvgPool2d(Cell):
    """Average pooling of (N, C, H, W) or (C, H, W) to ``output_size`` (None keeps a dim)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):
        return ops.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool2d(Cell):
    """Max pooling of (N, C, H, W) or (C, H, W) to ``output_size``."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def construct(self, input):
        return ops.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class LPPool1d(Cell):
    """Power-average pooling of (N, C, L) or (C, L): ``(sum of x ** p) ** (1 / p)`` over
    each window (``ops.lp_pool1d``)."""

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def construct(self, x):
        return ops.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(Cell):
    """Power-average pooling of (N, C, H, W): ``(sum of x ** p) ** (1 / p)`` over each
    window (``ops.lp_pool2d``)."""

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def construct(self, x):
        return ops.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)
