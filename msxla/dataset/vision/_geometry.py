"""Vision transforms that move pixels: resize, crops, pads, flips, rotations."""
from __future__ import annotations

import math
import numbers

import numpy as np
from PIL import Image

from msxla.dataset.core.random_state import rng
from msxla.dataset.transforms.transforms import TensorOperation
from msxla.dataset.vision import _image as im
from msxla.dataset.vision.utils import Border, Inter


def _prob(prob):
    if not isinstance(prob, numbers.Number) or not 0 <= prob <= 1:
        raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
    return float(prob)


class Resize(TensorOperation):
    """Resize to ``size`` (h, w); an int sets the shorter side, keeping the aspect ratio."""

    def __init__(self, size, interpolation=Inter.BILINEAR):
        if isinstance(size, numbers.Integral):
            im.size_pair(size)
        else:
            size = im.size_pair(size)
        self.size, self.interpolation = size, Inter(interpolation)

    def _target(self, h, w):
        if not isinstance(self.size, numbers.Integral):
            return self.size
        s = self.size
        return (s, int(w * s / h)) if h <= w else (int(h * s / w), s)

    def _apply(self, img):
        return im.resize(img, self._target(*im.hw_of(img)), self.interpolation)


class Crop(TensorOperation):
    """The region of ``size`` at ``coordinates`` (top, left)."""

    def __init__(self, coordinates, size):
        self.top, self.left = (int(c) for c in coordinates)
        self.size = im.size_pair(size)

    def _apply(self, img):
        h, w = im.hw_of(img)
        ch, cw = self.size
        if self.top + ch > h or self.left + cw > w:
            raise RuntimeError(f"Crop: the crop box ({self.top}, {self.left}, {ch}, {cw}) "
                               f"exceeds the image size ({h}, {w}).")
        return im.crop(img, self.top, self.left, ch, cw)


class CenterCrop(TensorOperation):
    """The central region of ``size``; a smaller image is zero-padded around first."""

    def __init__(self, size):
        self.size = im.size_pair(size)

    def _apply(self, img):
        h, w = im.hw_of(img)
        ch, cw = self.size
        if ch > h or cw > w:
            ph, pw = max(0, ch - h), max(0, cw - w)
            img = im.pad(img, (pw - pw // 2, ph - ph // 2, pw // 2, ph // 2))
            h, w = im.hw_of(img)
        return im.crop(img, (h - ch) // 2, (w - cw) // 2, ch, cw)


class Pad(TensorOperation):
    """Pad the borders: ``padding`` int, (left/right, top/bottom) or (left, top, right, bottom)."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = im.padding4(padding)
        self.fill_value, self.padding_mode = fill_value, Border(padding_mode)

    def _apply(self, img):
        return im.pad(img, self.padding, self.fill_value, self.padding_mode)


class RandomCrop(TensorOperation):
    """A random region of ``size``, after optional padding."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = im.size_pair(size)
        self.padding = None if padding is None else im.padding4(padding)
        self.pad_if_needed, self.fill_value = pad_if_needed, fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        if self.padding is not None:
            img = im.pad(img, self.padding, self.fill_value, self.padding_mode)
        h, w = im.hw_of(img)
        ch, cw = self.size
        if self.pad_if_needed and (h < ch or w < cw):
            ph, pw = max(0, ch - h), max(0, cw - w)
            img = im.pad(img, (pw, ph, pw, ph), self.fill_value, self.padding_mode)
            h, w = im.hw_of(img)
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCrop: Shape is incorrect. The crop size ({ch}, {cw}) is "
                               f"larger than the (padded) image ({h}, {w}); set pad_if_needed "
                               f"or padding.")
        g = rng()
        top = int(g.integers(0, h - ch + 1))
        left = int(g.integers(0, w - cw + 1))
        return im.crop(img, top, left, ch, cw)


def _range(value, name):
    v = tuple(float(x) for x in value)
    if len(v) != 2 or v[0] > v[1] or v[0] < 0:
        raise ValueError(f"{name} should be a (min, max) pair with 0 <= min <= max.")
    return v


class RandomResizedCrop(TensorOperation):
    """A random region (area fraction in ``scale``, aspect ratio in ``ratio``) resized
    to ``size``."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        self.size = im.size_pair(size)
        self.scale, self.ratio = _range(scale, "scale"), _range(ratio, "ratio")
        self.interpolation, self.max_attempts = Inter(interpolation), int(max_attempts)

    def _box(self, h, w):
        g = rng()
        area = h * w
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            target = area * g.uniform(*self.scale)
            aspect = math.exp(g.uniform(*log_ratio))
            cw = int(round(math.sqrt(target * aspect)))
            ch = int(round(math.sqrt(target / aspect)))
            if 0 < cw <= w and 0 < ch <= h:
                return int(g.integers(0, h - ch + 1)), int(g.integers(0, w - cw + 1)), ch, cw
        in_ratio = w / h
        if in_ratio < self.ratio[0]:
            cw, ch = w, int(round(w / self.ratio[0]))
        elif in_ratio > self.ratio[1]:
            ch, cw = h, int(round(h * self.ratio[1]))
        else:
            cw, ch = w, h
        return (h - ch) // 2, (w - cw) // 2, ch, cw

    def _apply(self, img):
        top, left, ch, cw = self._box(*im.hw_of(img))
        return im.resize(im.crop(img, top, left, ch, cw), self.size, self.interpolation)


class ResizedCrop(TensorOperation):
    """Crop (top, left, height, width), then resize to ``size``."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        self.box = (int(top), int(left), int(height), int(width))
        self.size, self.interpolation = im.size_pair(size), Inter(interpolation)

    def _apply(self, img):
        return im.resize(im.crop(img, *self.box), self.size, self.interpolation)


def _flip(img, axis):
    if im.is_pil(img):
        return img.transpose(Image.FLIP_LEFT_RIGHT if axis == 1 else Image.FLIP_TOP_BOTTOM)
    arr = im.check_image(img, "Flip")
    return np.flip(arr, axis=axis).copy()


class HorizontalFlip(TensorOperation):
    """Mirror left-right."""

    def _apply(self, img):
        return _flip(img, 1)


class VerticalFlip(TensorOperation):
    """Mirror top-bottom."""

    def _apply(self, img):
        return _flip(img, 0)


class RandomHorizontalFlip(TensorOperation):
    """Mirror left-right with probability ``prob``."""

    def __init__(self, prob=0.5):
        self.prob = _prob(prob)

    def _apply(self, img):
        return _flip(img, 1) if rng().random() < self.prob else img


class RandomVerticalFlip(TensorOperation):
    """Mirror top-bottom with probability ``prob``."""

    def __init__(self, prob=0.5):
        self.prob = _prob(prob)

    def _apply(self, img):
        return _flip(img, 0) if rng().random() < self.prob else img


_ROTATE_FILTERS = {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR,
                   Inter.BICUBIC: Image.BICUBIC}


def _rotate(img, degrees, resample, expand, center, fill_value):
    if resample not in _ROTATE_FILTERS:
        raise ValueError(f"Rotate supports NEAREST, BILINEAR and BICUBIC, not {resample}.")
    pil = img if im.is_pil(img) else im.to_pil(im.check_image(img, "Rotate"))
    fill = fill_value if isinstance(fill_value, numbers.Number) or pil.mode != "RGB" \
        else tuple(fill_value)
    out = pil.rotate(degrees, _ROTATE_FILTERS[resample], expand=expand, center=center,
                     fillcolor=fill)
    return im.like(out, img)


class Rotate(TensorOperation):
    """Rotate counter-clockwise by ``degrees``."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        self.degrees, self.resample = float(degrees), Inter(resample)
        self.expand, self.center, self.fill_value = expand, center, fill_value

    def _apply(self, img):
        return _rotate(img, self.degrees, self.resample, self.expand, self.center,
                       self.fill_value)


class RandomRotation(TensorOperation):
    """Rotate by an angle drawn from ``degrees`` (d: [-d, d]; (a, b): [a, b])."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("degrees should be non-negative when it is a single number.")
            degrees = (-float(degrees), float(degrees))
        self.degrees = _range(degrees, "degrees") if min(degrees) >= 0 else tuple(degrees)
        self.resample, self.expand = Inter(resample), expand
        self.center, self.fill_value = center, fill_value

    def _apply(self, img):
        angle = rng().uniform(*self.degrees)
        return _rotate(img, angle, self.resample, self.expand, self.center, self.fill_value)


class RandomCropDecodeResize(RandomResizedCrop):
    """``Decode`` then ``RandomResizedCrop`` in one step (encoded bytes in, RGB HWC out)."""

    def __call__(self, data):
        from msxla.dataset.vision._convert import decode
        if isinstance(data, (bytes, bytearray)):
            return self._apply(decode(data))
        return super().__call__(data)

    def _apply(self, data):
        from msxla.dataset.vision._convert import decode
        arr = np.asarray(data)
        if arr.ndim == 1 or arr.dtype.kind == "S":
            data = decode(arr)
        return super()._apply(data)
