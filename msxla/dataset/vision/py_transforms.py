"""``mindspore.dataset.vision.py_transforms`` (MindSpore 1.x, removed in 2.0): kept as a
deprecated alias. As in 1.x, ``Decode`` gives PIL images and ``Normalize`` /
``NormalizePad`` work on the <C, H, W> float images ``ToTensor`` makes."""
import warnings

from msxla.dataset.vision import _color, _convert
from msxla.dataset.vision.transforms import (  # noqa: F401
    CenterCrop, Grayscale, HWC2CHW, Invert, Pad, RandomColorAdjust, RandomCrop,
    RandomGrayscale, RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
    RandomVerticalFlip, Resize, ToPIL, ToTensor, ToType)
from msxla.dataset.vision.utils import Border, Inter  # noqa: F401


class Decode(_convert.Decode):
    """Decode to a PIL image."""

    def __init__(self):
        super().__init__(to_pil=True)


class Normalize(_color.Normalize):
    """``(image - mean) / std`` on a <C, H, W> image."""

    def __init__(self, mean, std):
        super().__init__(mean, std, is_hwc=False)


class NormalizePad(_color.NormalizePad):
    """``Normalize`` on a <C, H, W> image plus a zero channel."""

    def __init__(self, mean, std, dtype="float32"):
        super().__init__(mean, std, dtype, is_hwc=False)


warnings.warn("mindspore.dataset.vision.py_transforms is MindSpore 1.x's module (removed in "
              "2.0); use mindspore.dataset.vision instead.", DeprecationWarning, stacklevel=2)
