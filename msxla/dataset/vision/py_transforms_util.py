"""``mindspore.dataset.vision.py_transforms_util``: the PIL helpers 1.x-style code calls
directly (``is_pil``, ``is_numpy``, ``adjust_brightness`` / ``contrast`` /
``saturation``, ``rotate``), on the same implementations as the transforms."""
from __future__ import annotations

import numpy as np

from msxla.dataset.vision import _color
from msxla.dataset.vision._geometry import _rotate
from msxla.dataset.vision._image import is_pil  # noqa: F401 - re-exported

__all__ = ["is_pil", "is_numpy", "adjust_brightness", "adjust_contrast", "adjust_saturation",
           "rotate"]


def is_numpy(img):
    """Is ``img`` a numpy array?"""
    return isinstance(img, np.ndarray)


def _pil(img, who):
    if not is_pil(img):
        raise TypeError(f"img should be PIL image. Got {type(img)}.")
    return img


def adjust_brightness(img, brightness_factor):
    """A PIL image's brightness times ``brightness_factor``."""
    return _color.adjust_brightness(_pil(img, "adjust_brightness"), brightness_factor)


def adjust_contrast(img, contrast_factor):
    """A PIL image's contrast times ``contrast_factor``."""
    return _color.adjust_contrast(_pil(img, "adjust_contrast"), contrast_factor)


def adjust_saturation(img, saturation_factor):
    """A PIL image's saturation times ``saturation_factor``."""
    return _color.adjust_saturation(_pil(img, "adjust_saturation"), saturation_factor)


def rotate(img, angle, resample, expand, center, fill_value):
    """A PIL image rotated counter-clockwise by ``angle`` degrees."""
    return _rotate(_pil(img, "rotate"), angle, resample, expand, center, fill_value)
