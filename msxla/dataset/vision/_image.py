"""Image plumbing shared by the vision transforms: numpy <-> Pillow, resizing,
padding, argument checks.

Images are HWC (or HW) numpy arrays, or PIL images; a transform returns the
kind it was given. Resampling goes through Pillow for both: MindSpore
resamples PIL images with Pillow (so those results agree) and numpy images
with OpenCV (so resampled numpy results agree within the tolerances the
tests state).
"""
from __future__ import annotations

import numbers

import numpy as np
from PIL import Image

from msxla.dataset.vision.utils import Border, Inter

PIL_FILTERS = {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR,
               Inter.BICUBIC: Image.BICUBIC, Inter.AREA: Image.BOX,
               Inter.PILCUBIC: Image.BICUBIC, Inter.ANTIALIAS: Image.LANCZOS}


def is_pil(img):
    return isinstance(img, Image.Image)


def check_image(img, who):
    """An HW/HWC numpy image (RuntimeError otherwise)."""
    arr = np.asarray(img)
    if arr.ndim not in (2, 3):
        raise RuntimeError(f"{who}: the image should be <H, W> or <H, W, C>, but got "
                           f"shape {list(arr.shape)}.")
    return arr


def size_pair(size, name="size"):
    """``size`` as (height, width): an int is a square."""
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        if size <= 0:
            raise ValueError(f"Input {name} is not within the required interval of "
                             f"[1, 2147483647].")
        return int(size), int(size)
    if isinstance(size, (list, tuple)) and len(size) in (1, 2) and all(
            isinstance(s, numbers.Integral) and s > 0 for s in size):
        return (int(size[0]), int(size[-1]))
    raise TypeError(f"{name} should be a positive int or a (height, width) pair, got {size!r}.")


def _resize_plane(plane, hw, interp):
    pil = Image.fromarray(plane)
    return np.asarray(pil.resize((hw[1], hw[0]), PIL_FILTERS[Inter(interp)]))


def resize(img, hw, interp=Inter.BILINEAR):
    """Resize to exactly (height, width)."""
    if is_pil(img):
        return img.resize((hw[1], hw[0]), PIL_FILTERS[Inter(interp)])
    arr = check_image(img, "Resize")
    if tuple(arr.shape[:2]) == tuple(hw):
        return arr.copy()
    if Inter(interp) == Inter.NEAREST:  # OpenCV's rule: source index floor(dst * scale)
        rows = np.minimum((np.arange(hw[0]) * (arr.shape[0] / hw[0])).astype(np.int64),
                          arr.shape[0] - 1)
        cols = np.minimum((np.arange(hw[1]) * (arr.shape[1] / hw[1])).astype(np.int64),
                          arr.shape[1] - 1)
        return arr[rows][:, cols]
    if arr.dtype == np.uint8 and (arr.ndim == 2 or arr.shape[2] in (1, 3, 4)):
        squeeze = arr.ndim == 3 and arr.shape[2] == 1
        out = _resize_plane(arr[:, :, 0] if squeeze else arr, hw, interp)
        return out[:, :, None] if squeeze else out
    planes = arr[:, :, None] if arr.ndim == 2 else arr
    f = planes.astype(np.float32)
    out = np.stack([_resize_plane(f[:, :, c], hw, interp) for c in range(f.shape[2])], axis=2)
    out = out.astype(arr.dtype) if arr.dtype.kind == "f" else \
        np.clip(np.rint(out), *_limits(arr.dtype)).astype(arr.dtype)
    return out[:, :, 0] if arr.ndim == 2 else out


def _limits(dtype):
    info = np.iinfo(dtype)
    return info.min, info.max


def hw_of(img):
    if is_pil(img):
        return img.size[1], img.size[0]
    return np.asarray(img).shape[:2]


def crop(img, top, left, h, w):
    if is_pil(img):
        return img.crop((left, top, left + w, top + h))
    return np.asarray(img)[top:top + h, left:left + w].copy()


def padding4(padding):
    """MindSpore's padding argument as (left, top, right, bottom)."""
    if isinstance(padding, numbers.Integral):
        return (int(padding),) * 4
    p = tuple(int(v) for v in padding)
    if len(p) == 2:
        return p[0], p[1], p[0], p[1]
    if len(p) == 4:
        return p
    raise ValueError("padding should be an int, or a sequence of 2 or 4 ints.")


def pad(img, padding, fill_value=0, mode=Border.CONSTANT):
    """Pad by (left, top, right, bottom)."""
    left, top, right, bottom = padding
    pil = is_pil(img)
    arr = np.asarray(img)
    spec = [(top, bottom), (left, right)] + [(0, 0)] * (arr.ndim - 2)
    mode = Border(mode).value
    if mode == "constant":
        if arr.ndim == 3 and not isinstance(fill_value, numbers.Number):
            out = np.stack([np.pad(arr[:, :, c], spec[:2], constant_values=fill_value[c])
                            for c in range(arr.shape[2])], axis=2)
        else:
            out = np.pad(arr, spec, constant_values=fill_value)
    else:
        out = np.pad(arr, spec, mode=mode)
    return Image.fromarray(out) if pil else out


def to_pil(arr):
    arr = np.asarray(arr)
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    return Image.fromarray(arr)


def like(out_pil, original):
    """A PIL result back to the input's kind (numpy HWC stays HWC)."""
    if is_pil(original):
        return out_pil
    out = np.asarray(out_pil)
    if np.asarray(original).ndim == 3 and out.ndim == 2:
        out = out[:, :, None]
    return out
