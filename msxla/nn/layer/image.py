"""Image-quality and image layers of ``mindspore.nn.layer.image``: ``PSNR``,
``SSIM`` and ``CentralCrop``.

``PSNR``/``SSIM`` compare two NCHW batches and give one value per image.
``SSIM`` uses a normalised Gaussian window of ``filter_size`` and
``filter_sigma`` over each channel with no padding, the constants
``(k1 * max_val)^2`` and ``(k2 * max_val)^2``, and averages the SSIM map over
the pixels and then the channels. Integer images are first scaled to [0, 1]
by their dtype's maximum, as MindSpore does.
"""
from __future__ import annotations

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.nn.cell import Cell


def _as_float(img, max_val):
    if mstype.is_float(img.dtype):
        return img, max_val
    top = float(np.iinfo(mstype.dtype_to_nptype(img.dtype)).max)
    return ops.cast(img, mstype.float32) / top, max_val / top


def _check_pair(img1, img2, who):
    if img1.ndim != 4:
        raise ValueError(f"For '{who}', the dimension of 'img1' must be 4, but got {img1.ndim}.")
    if img1.shape != img2.shape or img1.dtype != img2.dtype:
        raise TypeError(f"For '{who}', 'img1' and 'img2' must have the same shape and dtype, "
                        f"but got {img1.shape} {img1.dtype} and {img2.shape} {img2.dtype}.")


class PSNR(Cell):
    """Peak signal-to-noise ratio ``10 * log10(max_val^2 / MSE)`` of each image pair."""

    def __init__(self, max_val=1.0):
        super().__init__()
        if not isinstance(max_val, (int, float)) or isinstance(max_val, bool) or max_val <= 0:
            raise ValueError(f"For 'PSNR', 'max_val' must be a positive number, but got "
                             f"{max_val!r}.")
        self.max_val = max_val

    def construct(self, img1, img2):
        _check_pair(img1, img2, "PSNR")
        a, max_val = _as_float(img1, self.max_val)
        b, _ = _as_float(img2, self.max_val)
        mse = ops.mean(ops.square(a - b), (1, 2, 3))
        return 10 * ops.log10(max_val * max_val / mse)


def _gaussian(size, sigma):
    x = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    g = np.exp(-(x ** 2) / (2 * sigma ** 2))
    g /= g.sum()
    return np.outer(g, g).astype(np.float32)


class SSIM(Cell):
    """Structural similarity of each image pair (mean over pixels and channels)."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        if not isinstance(filter_size, int) or isinstance(filter_size, bool) or filter_size < 1:
            raise ValueError(f"For 'SSIM', 'filter_size' must be a positive int, but got "
                             f"{filter_size!r}.")
        if filter_sigma <= 0 or max_val <= 0:
            raise ValueError("For 'SSIM', 'filter_sigma' and 'max_val' must be positive.")
        self.max_val, self.filter_size, self.filter_sigma = max_val, filter_size, filter_sigma
        self.k1, self.k2 = k1, k2
        self.window = Tensor(_gaussian(filter_size, filter_sigma)[None, None])

    def construct(self, img1, img2):
        _check_pair(img1, img2, "SSIM")
        if img1.shape[2] < self.filter_size or img1.shape[3] < self.filter_size:
            raise ValueError(f"For 'SSIM', the height and width of 'img1' must be at least "
                             f"'filter_size' {self.filter_size}, but got {img1.shape}.")
        a, max_val = _as_float(img1, self.max_val)
        b, _ = _as_float(img2, self.max_val)
        n, c, h, w = a.shape
        a = ops.reshape(a, (n * c, 1, h, w))
        b = ops.reshape(b, (n * c, 1, h, w))
        window = ops.cast(self.window, a.dtype)

        def blur(x):
            return ops.conv2d(x, window)

        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        mu1, mu2 = blur(a), blur(b)
        s11 = blur(a * a) - mu1 * mu1
        s22 = blur(b * b) - mu2 * mu2
        s12 = blur(a * b) - mu1 * mu2
        ssim = ((2 * mu1 * mu2 + c1) * (2 * s12 + c2)) / ((mu1 * mu1 + mu2 * mu2 + c1)
                                                           * (s11 + s22 + c2))
        per_channel = ops.reshape(ops.mean(ssim, (1, 2, 3)), (n, c))
        return ops.mean(per_channel, -1)


class CentralCrop(Cell):
    """The central ``central_fraction`` (0, 1] of each image (CHW or NCHW)."""

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float) or not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', 'central_fraction' must be a float in (0, 1], "
                             f"but got {central_fraction!r}.")
        self.central_fraction = central_fraction

    def construct(self, image):
        if image.ndim not in (3, 4):
            raise ValueError(f"For 'CentralCrop', the dimension of 'image' must be 3 or 4, but "
                             f"got {image.ndim}.")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int(h - h * self.central_fraction) // 2
        left = int(w - w * self.central_fraction) // 2
        return image[..., top:h - top, left:w - left]


class Unfold(Cell):
    """Every ``ksizes`` window of an NCHW image as channels (``ExtractImagePatches``):
    output [N, ksize_row * ksize_col * C, out_row, out_col]."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        self.extract_image_patches = ops.ExtractImagePatches(ksizes, strides, rates,
                                                             padding.upper())

    def construct(self, input_x):
        return self.extract_image_patches(input_x)


__all__ = ["PSNR", "SSIM", "CentralCrop", "Unfold"]
