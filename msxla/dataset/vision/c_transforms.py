"""``mindspore.dataset.vision.c_transforms`` (MindSpore 1.x, removed in 2.0): kept as a
deprecated alias of ``mindspore.dataset.vision``, since scripts still import it."""
import warnings

from msxla.dataset.vision.transforms import (  # noqa: F401
    AdjustBrightness, AdjustContrast, AdjustHue, AdjustSaturation, CenterCrop, Crop, CutOut,
    Decode, HorizontalFlip, HWC2CHW, Invert, Normalize, NormalizePad, Pad, RandomColorAdjust,
    RandomCrop, RandomCropDecodeResize, RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
    RandomVerticalFlip,
    Rescale, Resize, ResizedCrop, Rotate, ToType, VerticalFlip)
from msxla.dataset.vision.utils import Border, ImageBatchFormat, Inter, SliceMode  # noqa: F401

warnings.warn("mindspore.dataset.vision.c_transforms is MindSpore 1.x's module (removed in "
              "2.0); use mindspore.dataset.vision instead.", DeprecationWarning, stacklevel=2)
