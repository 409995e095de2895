"""Vision transforms that remap tones through a per-channel lookup table:
``AutoContrast``, ``Equalize``, ``Posterize``, ``Solarize`` and their random
forms (``RandomAutoContrast``, ``RandomEqualize``, ``RandomPosterize``,
``RandomSolarize``).

The tables follow MindSpore's rules on uint8 images, HWC or HW:
``AutoContrast`` stretches each channel's range after dropping ``cutoff``
percent at both ends and the ``ignore`` values (in float32, as MindSpore);
``Equalize`` maps each channel through its cumulative histogram (OpenCV's
``equalizeHist``); ``Posterize`` keeps the top ``bits``; ``Solarize`` inverts
the pixels at or above a threshold (inside a ``(min, max)`` range);
``RandomSolarize`` draws its threshold from a range. PIL images are converted
to arrays and back.
"""
from __future__ import annotations

import numbers

import numpy as np
from PIL import Image

from msxla.dataset.core.random_state import rng
from msxla.dataset.transforms.transforms import TensorOperation
from msxla.dataset.vision import _image as im


def _per_channel(img, make_lut, who):
    pil = im.is_pil(img)
    arr = np.asarray(img)
    if arr.dtype != np.uint8 or arr.ndim not in (2, 3):
        raise RuntimeError(f"{who}: the image must be uint8 with shape <H, W> or <H, W, C>, "
                           f"but got {arr.dtype} {arr.shape}.")
    planes = arr[..., None] if arr.ndim == 2 else arr
    out = np.empty_like(planes)
    for c in range(planes.shape[-1]):
        hist = np.bincount(planes[..., c].ravel(), minlength=256)
        out[..., c] = make_lut(hist)[planes[..., c]]
    out = out[..., 0] if arr.ndim == 2 else out
    return Image.fromarray(out) if pil else out


def _autocontrast_lut(cutoff, ignore):
    def lut(hist):
        h = hist.astype(np.int64).copy()
        for v in ignore:
            h[v] = 0
        if cutoff:
            total = h.sum()
            for order in (range(256), range(255, -1, -1)):
                cut = total * cutoff // 100
                for i in order:
                    if cut <= 0:
                        break
                    take = min(cut, h[i])
                    h[i] -= take
                    cut -= take
        nonzero = np.flatnonzero(h)
        if len(nonzero) == 0 or nonzero[-1] <= nonzero[0]:
            return np.arange(256, dtype=np.uint8)
        lo, hi = nonzero[0], nonzero[-1]
        scale = np.float32(255.0) / np.float32(hi - lo)  # in float32, as MindSpore
        values = (np.arange(256, dtype=np.float32) * scale - np.float32(lo) * scale)
        values = values.astype(np.int64)
        return np.clip(values, 0, 255).astype(np.uint8)
    return lut


def _equalize_lut(hist):
    first = int(np.flatnonzero(hist)[0])
    total = int(hist.sum())
    if hist[first] == total:
        return np.full(256, first, np.uint8)
    scale = np.float32(255.0) / np.float32(total - hist[first])
    above = np.cumsum(hist) - hist[first]  # pixels above the darkest value, up to each value
    lut = np.rint(above.astype(np.float32) * scale)
    lut[:first + 1] = 0
    return np.clip(lut, 0, 255).astype(np.uint8)


def _check_prob(prob):
    if not isinstance(prob, numbers.Number) or not 0 <= prob <= 1:
        raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
    return float(prob)


class AutoContrast(TensorOperation):
    """Stretch each channel to [0, 255] after cutting ``cutoff`` percent of the darkest
    and lightest pixels and ignoring the values ``ignore``."""

    def __init__(self, cutoff=0.0, ignore=None):
        if not isinstance(cutoff, numbers.Number) or not 0 <= cutoff < 50:
            raise ValueError("Input cutoff is not within the required interval of [0, 50).")
        ignore = [] if ignore is None else ([ignore] if isinstance(ignore, int) else ignore)
        if any(not isinstance(v, int) or not 0 <= v <= 255 for v in ignore):
            raise ValueError("Input ignore is not within the required interval of [0, 255].")
        self.cutoff, self.ignore = cutoff, list(ignore)

    def _apply(self, img):
        return _per_channel(img, _autocontrast_lut(self.cutoff, self.ignore), "AutoContrast")


class RandomAutoContrast(AutoContrast):
    """``AutoContrast`` with probability ``prob``."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        super().__init__(cutoff, ignore)
        self.prob = _check_prob(prob)

    def _apply(self, img):
        return super()._apply(img) if rng().random() < self.prob else img


class Equalize(TensorOperation):
    """Equalize each channel's histogram."""

    def _apply(self, img):
        return _per_channel(img, _equalize_lut, "Equalize")


class RandomEqualize(Equalize):
    """``Equalize`` with probability ``prob``."""

    def __init__(self, prob=0.5):
        self.prob = _check_prob(prob)

    def _apply(self, img):
        return super()._apply(img) if rng().random() < self.prob else img


def _posterize_lut(bits):
    mask = (0xFF << (8 - bits)) & 0xFF
    return lambda hist: (np.arange(256) & mask).astype(np.uint8)


class Posterize(TensorOperation):
    """Keep the top ``bits`` (1-8) bits of every pixel."""

    def __init__(self, bits):
        if not isinstance(bits, int) or isinstance(bits, bool) or not 0 <= bits <= 8:
            raise ValueError("Input bits is not within the required interval of [0, 8].")
        self.bits = bits

    def _apply(self, img):
        return _per_channel(img, _posterize_lut(self.bits), "Posterize")


class RandomPosterize(TensorOperation):
    """``Posterize`` with ``bits`` drawn uniformly from the range ``bits``."""

    def __init__(self, bits=(8, 8)):
        bits = (bits, bits) if isinstance(bits, int) else tuple(bits)
        if len(bits) != 2 or not 1 <= bits[0] <= bits[1] <= 8:
            raise ValueError("Input bits is not within the required interval of [1, 8].")
        self.bits = bits

    def _apply(self, img):
        bits = int(rng().integers(self.bits[0], self.bits[1] + 1))
        return _per_channel(img, _posterize_lut(bits), "RandomPosterize")


def _solarize_lut(lo, hi):
    values = np.arange(256)
    return lambda hist: np.where((values >= lo) & (values <= hi), 255 - values,
                                 values).astype(np.uint8)


def _threshold(threshold):
    pair = (threshold, 255) if isinstance(threshold, numbers.Number) else tuple(threshold)
    if len(pair) == 1:
        pair = (pair[0], 255)
    if len(pair) != 2 or not 0 <= pair[0] <= pair[1] <= 255:
        raise ValueError("threshold must be a number or a (min, max) pair with "
                         "0 <= min <= max <= 255.")
    return pair


class Solarize(TensorOperation):
    """Invert the pixels at or above ``threshold`` (within ``(min, max)`` for a pair)."""

    def __init__(self, threshold):
        self.threshold = _threshold(threshold)

    def _apply(self, img):
        return _per_channel(img, _solarize_lut(*self.threshold), "Solarize")


class RandomSolarize(TensorOperation):
    """``Solarize`` at a threshold drawn uniformly from the range ``threshold`` (the
    pixels at or above it are inverted, as MindSpore 2.10 does)."""

    def __init__(self, threshold=(0, 255)):
        self.threshold = _threshold(threshold)

    def _apply(self, img):
        t = int(rng().integers(self.threshold[0], self.threshold[1] + 1))
        return _per_channel(img, _solarize_lut(t, 255), "RandomSolarize")
