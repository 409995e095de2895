"""Cells that wrap one op: ClipByNorm, Norm, OneHot, Tril, Triu, Roll, Upsample,
PixelShuffle, PixelUnshuffle, ChannelShuffle, Softmax2d and the math Cells of
MindSpore's ``nn.layer.math`` (ReduceLogSumExp, Range, Moments, MatMul, LGamma,
DiGamma).

Each keeps MindSpore's constructor, checks and output dtype; the computation is
the op row it names (``ops.pixel_shuffle``, ``ops.interpolate``, ...).
"""
from __future__ import annotations

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.nn._checkparam import check_value_type
from msxla.nn.cell import Cell

__all__ = ["ClipByNorm", "Norm", "OneHot", "Tril", "Triu", "Roll", "Upsample", "PixelShuffle",
           "PixelUnshuffle", "ChannelShuffle", "Softmax2d", "ReduceLogSumExp", "Range", "Moments",
           "MatMul", "LGamma", "DiGamma"]


class ClipByNorm(Cell):
    """``x * clip_norm / max(l2norm(x, axis), clip_norm)`` (the L2 norm over ``axis``,
    every axis when None), computed in float32 and returned in ``x``'s dtype."""

    def __init__(self, axis=None):
        super().__init__()
        self.axis = () if axis is None else axis

    def construct(self, x, clip_norm):
        x32 = x.astype(mstype.float32)
        axes = self.axis if isinstance(self.axis, (tuple, list)) else (self.axis,)
        axes = tuple(axes) if axes else tuple(range(x.ndim))
        norm = x32.square().sum(axes, keepdims=True).sqrt()
        limit = clip_norm.astype(mstype.float32) if isinstance(clip_norm, Tensor) else clip_norm
        return (x32 * limit / ops.maximum(norm, limit)).astype(x.dtype)


class Norm(Cell):
    """The L2 norm over ``axis`` (every axis when ``()``)."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        check_value_type("keep_dims", keep_dims, [bool], "Norm")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        axes = self.axis if isinstance(self.axis, (tuple, list)) else (self.axis,)
        axes = tuple(axes) if axes else tuple(range(x.ndim))
        out = x.square().sum(axes, keepdims=True).sqrt()
        return out if self.keep_dims else out.squeeze(axes)


class OneHot(Cell):
    """One-hot rows of ``depth`` along ``axis`` with ``on_value`` / ``off_value`` as ``dtype``."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        on = Tensor(self.on_value, self.dtype)
        off = Tensor(self.off_value, self.dtype)
        return ops.one_hot(indices, self.depth, on, off, self.axis)


class _Triangle(Cell):
    _fn = None

    def construct(self, x, k=0):
        return type(self)._fn(x, k)


class Tril(_Triangle):
    """The lower triangle of the last two dimensions (diagonal ``k`` and below)."""

    _fn = staticmethod(ops.tril)


class Triu(_Triangle):
    """The upper triangle of the last two dimensions (diagonal ``k`` and above)."""

    _fn = staticmethod(ops.triu)


class Roll(Cell):
    """Roll ``input_x`` by ``shift`` along ``axis`` (ints, or lists of equal length)."""

    def __init__(self, shift, axis):
        super().__init__()
        check_value_type("shift", shift, [int, tuple, list], "Roll")
        check_value_type("axis", axis, [int, tuple, list], "Roll")
        self.shift = list(shift) if isinstance(shift, (tuple, list)) else [shift]
        self.axis = list(axis) if isinstance(axis, (tuple, list)) else [axis]
        if len(self.shift) != len(self.axis):
            raise ValueError(f"For 'Roll', the shape of 'shift' and the shape of 'axis' must be "
                             f"the same, but got the length of 'shift' {len(self.shift)} and the "
                             f"length of 'axis' {len(self.axis)}.")

    def construct(self, input_x):
        return ops.roll(input_x, tuple(self.shift), tuple(self.axis))


class Upsample(Cell):
    """``ops.interpolate`` with the Cell's size, scale factor and mode."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)


class PixelShuffle(Cell):
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input):  # noqa: A002 - MindSpore's name
        return ops.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input):  # noqa: A002 - MindSpore's name
        return ops.pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    """Interleave the channels of ``groups`` groups."""

    def __init__(self, groups):
        super().__init__()
        if not isinstance(groups, int) or isinstance(groups, bool):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got "
                            f"{type(groups)}.")
        if groups < 1:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but "
                             f"got {groups}.")
        self.groups = groups

    def construct(self, x):
        return ops.channel_shuffle(x, self.groups)


class Softmax2d(Cell):
    """Softmax over the channels of (C, H, W) or (N, C, H, W)."""

    def construct(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the input must be 3D or 4D, but got "
                             f"{x.ndim}D.")
        return ops.softmax(x, -3)


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x), axis))`` (shifted by the maximum for stability)."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        check_value_type("axis", axis, [int, list, tuple], "ReduceLogSumExp")
        check_value_type("keep_dims", keep_dims, [bool], "ReduceLogSumExp")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        axes = tuple(self.axis) if isinstance(self.axis, (list, tuple)) else (self.axis,)
        axes = axes or tuple(range(x.ndim))
        peak = ops.stop_gradient(x.max(axes, keepdims=True))
        out = (x - peak).exp().sum(axes, keepdims=True).log() + peak
        return out if self.keep_dims else out.squeeze(axes)


class Range(Cell):
    """The Tensor ``arange(start, limit, delta)``: float32 for float bounds, else int32."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        dtype = mstype.float32 if data.dtype == np.float64 else mstype.int32
        self.result_tensor = Tensor(data, dtype=dtype)

    def construct(self):
        return self.result_tensor


class Moments(Cell):
    """``(mean, variance)`` over ``axis`` (float16 computes in float32)."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        axis = () if axis is None else axis
        self.axis = check_value_type("axis", axis, [int, tuple], "Moments")
        self.keep_dims = check_value_type("keep_dims", bool(keep_dims), [bool], "Moments")

    def construct(self, x):
        if x.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For 'Moments', the 'input x' should be float16 or float32, but got "
                            f"{x.dtype}.")
        x32 = x.astype(mstype.float32)
        axes = self.axis if isinstance(self.axis, tuple) else (self.axis,)
        axes = axes or tuple(range(x.ndim))
        mean = x32.mean(axes, keep_dims=True)
        var = (x32 - ops.stop_gradient(mean)).square().mean(axes, keep_dims=True)
        if not self.keep_dims:
            mean, var = mean.squeeze(axes), var.squeeze(axes)
        return mean.astype(x.dtype), var.astype(x.dtype)


class MatMul(Cell):
    """``ops.matmul`` with optional transposes of the last two dimensions."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        check_value_type("transpose_x1", transpose_x1, [bool], "MatMul")
        check_value_type("transpose_x2", transpose_x2, [bool], "MatMul")
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1 and x1.ndim > 1:
            x1 = x1.swapaxes(-1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = x2.swapaxes(-1, -2)
        return ops.matmul(x1, x2)


class LGamma(Cell):
    """``log|Gamma(x)|``."""

    def construct(self, x):
        return ops.lgamma(x)


class DiGamma(Cell):
    """The digamma function ``d/dx log Gamma(x)``."""

    def construct(self, x):
        return ops.digamma(x)
