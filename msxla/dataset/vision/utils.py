"""Enums and helpers of ``mindspore.dataset.vision`` (``vision.utils``)."""
from __future__ import annotations

import enum

import numpy as np


class Inter(enum.IntEnum):
    """Interpolation modes."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    BICUBIC = 3
    AREA = 4
    PILCUBIC = 5

    LINEAR = 2
    CUBIC = 3


class Border(str, enum.Enum):
    """Padding modes (numpy's ``np.pad`` modes of the same names)."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(enum.IntEnum):
    NHWC = 0
    NCHW = 1


class ConvertMode(enum.IntEnum):
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


class AutoAugmentPolicy(str, enum.Enum):
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


class SliceMode(enum.IntEnum):
    PAD = 0
    DROP = 1


class ImageReadMode(enum.IntEnum):
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


def _shape_of(image):
    from PIL import Image
    if isinstance(image, Image.Image):
        return image.size[1], image.size[0], len(image.getbands())
    arr = np.asarray(image)
    if arr.ndim == 2:
        return arr.shape[0], arr.shape[1], 1
    if arr.ndim == 3:
        return arr.shape[0], arr.shape[1], arr.shape[2]
    raise RuntimeError(f"The image should be <H, W> or <H, W, C>, but got shape {arr.shape}.")


def get_image_num_channels(image):
    """Channels of an HWC/HW array or PIL image."""
    return _shape_of(image)[2]


def get_image_size(image):
    """``[height, width]`` of an HWC/HW array or PIL image."""
    h, w, _ = _shape_of(image)
    return [h, w]


def read_file(filename):
    """A file's bytes as a 1-D uint8 array."""
    with open(filename, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8)


def write_file(filename, data):
    with open(filename, "wb") as f:
        f.write(np.asarray(data, dtype=np.uint8).tobytes())


def read_image(filename, mode=ImageReadMode.UNCHANGED):
    """Decode an image file to an HWC uint8 array."""
    from PIL import Image
    with Image.open(filename) as im:
        if mode == ImageReadMode.GRAYSCALE:
            im = im.convert("L")
        elif mode == ImageReadMode.COLOR:
            im = im.convert("RGB")
        arr = np.asarray(im)
    return arr[:, :, None] if arr.ndim == 2 else arr


def _encode(image, fmt, **kw):
    import io
    from PIL import Image
    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise RuntimeError(f"encode_{fmt.lower()}: the image must be uint8, got {arr.dtype}.")
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, fmt, **kw)
    return np.frombuffer(buf.getvalue(), dtype=np.uint8)


def encode_jpeg(image, quality=75):
    return _encode(image, "JPEG", quality=quality)


def encode_png(image, compression_level=6):
    return _encode(image, "PNG", compress_level=compression_level)


def write_jpeg(filename, image, quality=75):
    write_file(filename, encode_jpeg(image, quality))


def write_png(filename, image, compression_level=6):
    write_file(filename, encode_png(image, compression_level))
