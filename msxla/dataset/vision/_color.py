"""Vision transforms that change pixel values: normalisation, colour, grey.

Colour adjustments on numpy images follow MindSpore's OpenCV arithmetic
(blend with black / the mean grey / the per-pixel grey, rounded to nearest);
on PIL images they use Pillow's ``ImageEnhance``, as MindSpore's PIL path does.
"""
from __future__ import annotations

import numbers

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from msxla.dataset.core.random_state import rng
from msxla.dataset.transforms.transforms import TensorOperation, _np_type
from msxla.dataset.vision import _image as im


def _channels(values, name):
    if isinstance(values, numbers.Number):
        values = [values]
    v = np.asarray(values, dtype=np.float32)
    if v.ndim != 1 or not 1 <= len(v) <= 4:
        raise TypeError(f"{name} should be a number or a list of 1 to 4 numbers.")
    return v


class Normalize(TensorOperation):
    """``(image - mean) / std`` per channel, as float32."""

    def __init__(self, mean, std, is_hwc=True):
        self.mean, self.std = _channels(mean, "mean"), _channels(std, "std")
        if (self.std <= 0).any():
            raise ValueError("Input std is not within the required interval of (0, 255].")
        self.is_hwc = is_hwc

    def _normalize(self, img):
        arr = im.check_image(np.asarray(img), type(self).__name__).astype(np.float32, copy=True)
        if arr.ndim == 2:
            return (arr - self.mean[0]) / self.std[0]
        shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        nc = arr.shape[2] if self.is_hwc else arr.shape[0]
        if len(self.mean) not in (1, nc):
            raise RuntimeError(f"{type(self).__name__}: mean has {len(self.mean)} values but the "
                               f"image has {nc} channels.")
        # In place on the float32 copy: the same values as (arr - mean) / std, one buffer.
        np.subtract(arr, self.mean.reshape(shape), out=arr)
        np.divide(arr, self.std.reshape(shape), out=arr)
        return arr

    def _apply(self, img):
        return self._normalize(img)


class NormalizePad(Normalize):
    """``Normalize``, then one more channel of zeros, as ``dtype``."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        super().__init__(mean, std, is_hwc)
        if dtype not in ("float32", "float16"):
            raise ValueError("dtype should be 'float32' or 'float16'.")
        self.dtype = np.dtype(dtype)

    def _apply(self, img):
        out = self._normalize(img)
        axis = 2 if self.is_hwc else 0
        if out.ndim == 2:
            out, axis = out[:, :, None], 2
        shape = list(out.shape)
        shape[axis] = 1
        return np.concatenate([out, np.zeros(shape, np.float32)], axis=axis).astype(self.dtype)


class Rescale(TensorOperation):
    """``image * rescale + shift`` as float32."""

    def __init__(self, rescale, shift):
        self.rescale, self.shift = float(rescale), float(shift)

    def _apply(self, img):
        return np.asarray(img).astype(np.float32) * np.float32(self.rescale) + \
            np.float32(self.shift)


class ToType(TensorOperation):
    """Cast the image to ``data_type``."""

    def __init__(self, data_type):
        self.data_type = _np_type(data_type)

    def _apply(self, img):
        return np.asarray(img).astype(self.data_type)


def _gray_u8(rgb):
    """OpenCV's RGB2GRAY: fixed-point weights, rounded."""
    r, g, b = (rgb[..., i].astype(np.int32) for i in range(3))
    return ((r * 4899 + g * 9617 + b * 1868 + (1 << 13)) >> 14).astype(np.uint8)


def _blend(img, other, factor):
    out = img.astype(np.float32) * np.float32(factor) + \
        np.asarray(other, np.float32) * np.float32(1 - factor)
    if img.dtype == np.uint8:
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return out.astype(img.dtype)


def _rgb(img, who):
    arr = im.check_image(img, who)
    if arr.ndim != 3 or arr.shape[2] != 3:
        raise RuntimeError(f"{who}: the image should be RGB <H, W, 3>, but got shape "
                           f"{list(arr.shape)}.")
    return arr


def adjust_brightness(img, factor):
    if im.is_pil(img):
        return ImageEnhance.Brightness(img).enhance(factor)
    arr = _rgb(img, "AdjustBrightness")
    return _blend(arr, 0, factor)


def adjust_contrast(img, factor):
    if im.is_pil(img):
        return ImageEnhance.Contrast(img).enhance(factor)
    arr = _rgb(img, "AdjustContrast")
    return _blend(arr, float(_gray_u8(arr).mean()), factor)


def adjust_saturation(img, factor):
    if im.is_pil(img):
        return ImageEnhance.Color(img).enhance(factor)
    arr = _rgb(img, "AdjustSaturation")
    return _blend(arr, _gray_u8(arr)[..., None], factor)


def adjust_hue(img, factor):
    if not -0.5 <= factor <= 0.5:
        raise ValueError("hue_factor should be in [-0.5, 0.5].")
    pil = img if im.is_pil(img) else Image.fromarray(_rgb(img, "AdjustHue"))
    mode = pil.mode
    if mode in ("L", "1", "I", "F"):
        return img
    h, s, v = pil.convert("HSV").split()
    hue = np.asarray(h, dtype=np.uint8)
    with np.errstate(over="ignore"):
        hue = (hue.astype(np.int16) + int(round(factor * 255))) % 256
    h = Image.fromarray(hue.astype(np.uint8), "L")
    out = Image.merge("HSV", (h, s, v)).convert(mode)
    return out if im.is_pil(img) else np.asarray(out)


class AdjustBrightness(TensorOperation):
    def __init__(self, brightness_factor):
        self.factor = float(brightness_factor)

    def _apply(self, img):
        return adjust_brightness(img, self.factor)


class AdjustContrast(TensorOperation):
    def __init__(self, contrast_factor):
        self.factor = float(contrast_factor)

    def _apply(self, img):
        return adjust_contrast(img, self.factor)


class AdjustSaturation(TensorOperation):
    def __init__(self, saturation_factor):
        self.factor = float(saturation_factor)

    def _apply(self, img):
        return adjust_saturation(img, self.factor)


class AdjustHue(TensorOperation):
    def __init__(self, hue_factor):
        self.factor = float(hue_factor)

    def _apply(self, img):
        return adjust_hue(img, self.factor)


def _factor_range(value, name, center=1.0, bound=None):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"{name} should be non-negative.")
        lo, hi = (max(0.0, center - value), center + value) if bound is None else (-value, value)
    else:
        lo, hi = (float(v) for v in value)
    if lo > hi or (bound is not None and not (-bound <= lo <= hi <= bound)):
        raise ValueError(f"{name} range ({lo}, {hi}) is invalid.")
    return lo, hi


class RandomColorAdjust(TensorOperation):
    """Random brightness, contrast, saturation and hue, each drawn from its range."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _factor_range(brightness, "brightness")
        self.contrast = _factor_range(contrast, "contrast")
        self.saturation = _factor_range(saturation, "saturation")
        self.hue = _factor_range(hue, "hue", 0.0, bound=0.5)

    def _apply(self, img):
        if not im.is_pil(img):
            _rgb(img, "RandomColorAdjust")
        g = rng()
        steps = [(adjust_brightness, self.brightness, 1.0),
                 (adjust_contrast, self.contrast, 1.0),
                 (adjust_saturation, self.saturation, 1.0),
                 (adjust_hue, self.hue, 0.0)]
        for k in g.permutation(4):
            fn, (lo, hi), identity = steps[k]
            if lo == hi == identity:
                continue
            img = fn(img, g.uniform(lo, hi) if lo != hi else lo)
        return img


class Grayscale(TensorOperation):
    """A PIL image in grey (``num_output_channels`` 1 or 3)."""

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):
            raise ValueError("num_output_channels should be 1 or 3.")
        self.num_output_channels = num_output_channels

    def _apply(self, img):
        if not im.is_pil(img):
            raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for "
                            f"encoded data or ToPIL() for decoded data.")
        gray = img.convert("L")
        return gray if self.num_output_channels == 1 else Image.merge("RGB", [gray] * 3)


class RandomGrayscale(TensorOperation):
    """``Grayscale`` (keeping the number of channels) with probability ``prob``."""

    def __init__(self, prob=0.1):
        self.prob = float(prob)

    def _apply(self, img):
        if rng().random() >= self.prob:
            return img
        if im.is_pil(img):
            return Grayscale(3 if img.mode == "RGB" else 1)._apply(img)
        gray = _gray_u8(_rgb(img, "RandomGrayscale"))
        return np.repeat(gray[..., None], 3, axis=2)


class Invert(TensorOperation):
    """``255 - image`` for uint8 RGB images."""

    def _apply(self, img):
        if im.is_pil(img):
            return ImageOps.invert(img)
        return (255 - _rgb(img, "Invert").astype(np.int16)).astype(np.uint8)


class CutOut(TensorOperation):
    """Zero ``num_patches`` random squares of side ``length``."""

    def __init__(self, length, num_patches=1, is_hwc=True):
        self.length, self.num_patches, self.is_hwc = int(length), int(num_patches), is_hwc

    def _apply(self, img):
        arr = np.array(im.check_image(img, "CutOut"))
        h, w = arr.shape[:2] if self.is_hwc or arr.ndim == 2 else arr.shape[1:]
        g = rng()
        for _ in range(self.num_patches):
            top = int(g.integers(0, max(1, h - self.length + 1)))
            left = int(g.integers(0, max(1, w - self.length + 1)))
            region = (slice(top, top + self.length), slice(left, left + self.length))
            if self.is_hwc or arr.ndim == 2:
                arr[region] = 0
            else:
                arr[(slice(None),) + region] = 0
        return arr
