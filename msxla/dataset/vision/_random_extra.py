"""Vision transforms: sharpness, colour, Gaussian blur, affine warps, random erasing
and sub-policy selection (``AdjustSharpness``, ``RandomSharpness``, ``RandomColor``,
``GaussianBlur``, ``RandomAffine``, ``RandomErasing``, ``RandomSelectSubpolicy``).

Numpy images follow MindSpore's OpenCV arithmetic: sharpness blends with the
image smoothed by ``[[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13`` (border pixels kept),
Gaussian blur uses OpenCV's kernel (sigma from the size when not given) and
mirrored borders (``reflect_101``); affine warps build MindSpore's (torchvision's)
centred inverse matrix and resample with Pillow.
"""
from __future__ import annotations

import math
import numbers

import numpy as np
from PIL import Image, ImageEnhance

from msxla.dataset.core.random_state import rng
from msxla.dataset.transforms.transforms import TensorOperation
from msxla.dataset.vision import _image as im
from msxla.dataset.vision._color import _blend, adjust_saturation
from msxla.dataset.vision.utils import Inter


def _smooth(arr):
    src = arr.astype(np.float32)
    out = src.copy()
    k = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / 13
    acc = np.zeros_like(src[1:-1, 1:-1])
    for i in range(3):
        for j in range(3):
            acc += k[i, j] * src[i:i + src.shape[0] - 2, j:j + src.shape[1] - 2]
    out[1:-1, 1:-1] = np.rint(acc) if arr.dtype == np.uint8 else acc
    return out


def adjust_sharpness(img, factor):
    if im.is_pil(img):
        return ImageEnhance.Sharpness(img).enhance(factor)
    arr = im.check_image(img, "AdjustSharpness")
    if min(arr.shape[:2]) < 3:
        return arr
    return _blend(arr, _smooth(arr), factor)


def _degree_range(degrees, name):
    lo, hi = (float(v) for v in degrees)
    if lo < 0 or lo > hi:
        raise ValueError(f"{name}: degrees should be non-negative and in increasing order, but "
                         f"got {tuple(degrees)}.")
    return lo, hi


class AdjustSharpness(TensorOperation):
    """Sharpen (factor > 1) or blur (factor < 1) an image; 1 keeps it."""

    def __init__(self, sharpness_factor):
        if sharpness_factor < 0:
            raise ValueError("sharpness_factor should be non-negative.")
        self.factor = float(sharpness_factor)

    def _apply(self, img):
        return adjust_sharpness(img, self.factor)


class RandomSharpness(TensorOperation):
    """``AdjustSharpness`` by a factor drawn from ``degrees``."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _degree_range(degrees, "RandomSharpness")

    def _apply(self, img):
        return adjust_sharpness(img, rng().uniform(*self.degrees))


class RandomColor(TensorOperation):
    """Saturation (blend with the grey image) by a factor drawn from ``degrees``."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _degree_range(degrees, "RandomColor")

    def _apply(self, img):
        return adjust_saturation(img, rng().uniform(*self.degrees))


def _gauss_kernel(size, sigma):
    if sigma <= 0:
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    x = np.arange(size, dtype=np.float64) - (size - 1) / 2
    k = np.exp(-(x * x) / (2 * sigma * sigma))
    return k / k.sum()


def _reflect101(arr, axis, pad):
    return np.pad(arr, [(pad, pad) if a == axis else (0, 0) for a in range(arr.ndim)],
                  mode="reflect")


class GaussianBlur(TensorOperation):
    """Blur with a ``kernel_size`` Gaussian (odd sizes; ``sigma`` from the size when None)."""

    def __init__(self, kernel_size, sigma=None):
        size = [kernel_size] * 2 if isinstance(kernel_size, numbers.Number) else list(kernel_size)
        if len(size) != 2 or any(s <= 0 or s % 2 == 0 for s in size):
            raise ValueError(f"GaussianBlur: kernel_size must be positive and odd, but got "
                             f"{kernel_size}.")
        if sigma is None:
            sig = [0.0, 0.0]
        else:
            sig = [sigma] * 2 if isinstance(sigma, numbers.Number) else list(sigma)
            if len(sig) == 1:
                sig = sig * 2
        self.kernel_size, self.sigma = [int(s) for s in size], [float(s) for s in sig]

    def _apply(self, img):
        pil = im.is_pil(img)
        arr = np.asarray(img) if pil else im.check_image(img, "GaussianBlur")
        out = arr.astype(np.float64)
        for axis, size, sigma in ((1, self.kernel_size[0], self.sigma[0]),
                                  (0, self.kernel_size[1], self.sigma[1])):
            k = _gauss_kernel(size, sigma)
            pad = size // 2
            padded = _reflect101(out, axis, pad)
            n = out.shape[axis]
            out = sum(k[i] * np.take(padded, np.arange(i, i + n), axis=axis) for i in range(size))
        if arr.dtype == np.uint8:
            out = np.clip(np.rint(out), 0, 255)
        out = out.astype(arr.dtype)
        return Image.fromarray(out) if pil else out


_AFFINE_FILTERS = {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR,
                   Inter.BICUBIC: Image.BICUBIC}


def _inverse_affine(center, angle, translate, scale, shear):
    """The output->input matrix of rotate(angle) * shear * scale about ``center``, then
    translate (torchvision's and MindSpore's composition)."""
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    m = [d, -b, 0.0, -c, a, 0.0]
    m = [v / scale for v in m]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty)
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty)
    m[2] += cx
    m[5] += cy
    return m


class RandomAffine(TensorOperation):
    """A random rotation (``degrees``), translation (fractions of the size), scale and
    shear (x range, or x and y ranges), resampled with ``resample``."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("degrees should be non-negative when it is a single number.")
            degrees = (-degrees, degrees)
        self.degrees = tuple(float(d) for d in degrees)
        self.translate = None if translate is None else [float(t) for t in translate]
        self.scale = (1.0, 1.0) if scale is None else tuple(float(s) for s in scale)
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Number):
            shear = (-shear, shear, 0.0, 0.0)
        elif len(shear) == 2:
            shear = (shear[0], shear[1], 0.0, 0.0)
        self.shear = tuple(float(s) for s in shear)
        self.resample = Inter(resample)
        if self.resample not in _AFFINE_FILTERS:
            raise ValueError(f"RandomAffine supports NEAREST, BILINEAR and BICUBIC, not {resample}.")
        self.fill_value = fill_value

    def _apply(self, img):
        pil = img if im.is_pil(img) else im.to_pil(im.check_image(img, "RandomAffine"))
        w, h = pil.size
        g = rng()
        angle = g.uniform(*self.degrees)
        tx = ty = 0.0
        if self.translate is not None:
            t = self.translate + [0.0] * (4 - len(self.translate))
            if len(self.translate) == 2:
                t = [-self.translate[0], self.translate[0], -self.translate[1], self.translate[1]]
            tx, ty = round(g.uniform(t[0], t[1]) * w), round(g.uniform(t[2], t[3]) * h)
        scale = g.uniform(*self.scale)
        shear = (g.uniform(self.shear[0], self.shear[1]), g.uniform(self.shear[2], self.shear[3]))
        matrix = _inverse_affine((w * 0.5, h * 0.5), angle, (tx, ty), scale, shear)
        fill = self.fill_value if isinstance(self.fill_value, numbers.Number) or \
            pil.mode != "RGB" else tuple(self.fill_value)
        out = pil.transform((w, h), Image.AFFINE, matrix, _AFFINE_FILTERS[self.resample],
                            fillcolor=fill)
        return im.like(out, img)


class RandomErasing(TensorOperation):
    """With probability ``prob``, fill a random rectangle of a CHW image (area in ``scale``
    of the image, aspect ratio in ``ratio``) with ``value`` (a number, per-channel
    numbers, or 'random' for normal noise)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 max_attempts=10):
        if not 0 <= prob <= 1:
            raise ValueError("prob should be in [0, 1].")
        self.prob, self.scale, self.ratio = float(prob), tuple(scale), tuple(ratio)
        self.value, self.inplace, self.max_attempts = value, inplace, int(max_attempts)

    def _apply(self, img):
        arr = np.asarray(img)
        g = rng()
        if g.random() >= self.prob:
            return arr
        c, h, w = arr.shape
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            area = g.uniform(*self.scale) * h * w
            aspect = math.exp(g.uniform(*log_ratio))
            eh, ew = int(round(math.sqrt(area * aspect))), int(round(math.sqrt(area / aspect)))
            if eh < h and ew < w:
                top, left = int(g.integers(0, h - eh + 1)), int(g.integers(0, w - ew + 1))
                out = arr if self.inplace else arr.copy()
                if self.value == "random":
                    fill = g.standard_normal((c, eh, ew)).astype(arr.dtype)
                else:
                    fill = np.asarray(self.value, arr.dtype).reshape(-1, 1, 1)
                out[:, top:top + eh, left:left + ew] = fill
                return out
        return arr


class RandomSelectSubpolicy(TensorOperation):
    """Pick one sub-policy (a list of ``(transform, prob)``) at random and apply each of its
    transforms with its probability, in order."""

    def __init__(self, policy):
        if not isinstance(policy, list) or not policy:
            raise TypeError("policy should be a non-empty list of sub-policies.")
        for sub in policy:
            if not isinstance(sub, list) or not sub:
                raise TypeError("each sub-policy should be a non-empty list of (op, prob).")
            for op, prob in sub:
                if not callable(op) or not 0 <= prob <= 1:
                    raise ValueError("each (op, prob) needs a callable op and prob in [0, 1].")
        self.policy = policy

    def _apply(self, img):
        g = rng()
        for op, prob in self.policy[int(g.integers(len(self.policy)))]:
            if g.random() < prob:
                img = op(img)
        return img
