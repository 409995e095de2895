"""Vision transforms that change an image's representation: decoding, layout,
PIL <-> numpy, tensor conversion."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image, UnidentifiedImageError

from msxla.dataset.transforms.transforms import TensorOperation, _np_type
from msxla.dataset.vision import _image as im


def decode(data, to_pil=False):
    """Encoded image bytes (1-D uint8 array or bytes) -> RGB HWC uint8 (or PIL)."""
    if isinstance(data, (bytes, bytearray)):
        raw = bytes(data)
    else:
        arr = np.asarray(data)
        if arr.dtype.kind == "S" and arr.size == 1:  # MindRecord's bytes column
            return decode(arr.ravel()[0], to_pil)
        if arr.ndim != 1:
            raise TypeError(f"The number of array dimensions of the encoded image should be 1, "
                            f"but got {arr.ndim}.")
        if arr.dtype != np.uint8:
            raise TypeError(f"The data type of the encoded image should be uint8, but got "
                            f"{arr.dtype}.")
        raw = arr.tobytes()
    try:
        pil = Image.open(io.BytesIO(raw))
        pil = pil.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as e:
        raise RuntimeError(f"Decode: image decode failed ({e}).") from None
    return pil if to_pil else np.asarray(pil)


class Decode(TensorOperation):
    """Decode JPEG/PNG/BMP/... bytes to an RGB HWC uint8 image (a PIL image with ``to_pil``)."""

    def __init__(self, to_pil=False):
        if not isinstance(to_pil, bool):
            raise TypeError("to_pil should be a bool.")
        self.to_pil = to_pil

    def __call__(self, data):
        if isinstance(data, (bytes, bytearray)):
            return decode(data, self.to_pil)
        return super().__call__(data)

    def _apply(self, data):
        return decode(data, self.to_pil)


class HWC2CHW(TensorOperation):
    """<H, W, C> -> <C, H, W> (a 2-D image is returned as it is)."""

    def _apply(self, img):
        arr = np.asarray(img)
        if arr.ndim == 2:
            return arr
        if arr.ndim != 3:
            raise RuntimeError(f"HWC2CHW: the image should be <H, W> or <H, W, C>, but got "
                               f"shape {list(arr.shape)}.")
        return np.ascontiguousarray(arr.transpose(2, 0, 1))


class ToTensor(TensorOperation):
    """A uint8 HWC image (or PIL) -> CHW ``output_type`` scaled to [0, 1]."""

    def __init__(self, output_type=np.float32):
        self.output_type = _np_type(output_type)

    def _apply(self, img):
        arr = np.asarray(img)
        if arr.ndim == 2:
            arr = arr[:, :, None]
        if arr.ndim != 3:
            raise RuntimeError(f"ToTensor: the image should be <H, W> or <H, W, C>, but got "
                               f"shape {list(arr.shape)}.")
        out = arr.transpose(2, 0, 1).astype(np.float64 if self.output_type == np.float64
                                              else np.float32)
        if arr.dtype == np.uint8:
            out = out / np.float32(255)
        return np.ascontiguousarray(out.astype(self.output_type))


class ToPIL(TensorOperation):
    """A numpy HWC/HW image -> PIL image."""

    def _apply(self, img):
        if im.is_pil(img):
            return img
        return im.to_pil(img)


class ToNumpy(TensorOperation):
    """A PIL image -> numpy HWC array."""

    def _apply(self, img):
        return np.asarray(img)
