"""``mindspore.dataset.vision.transforms``: every vision transform, by its MindSpore name.

The implementations are grouped by what they do: ``_geometry.py`` (resize,
crop, pad, flip, rotate), ``_color.py`` (normalise, colour, grey),
``_convert.py`` (decode, layout, PIL/numpy), ``_tone.py`` (lookup-table tone
maps), ``_random_extra.py`` (sharpness, blur, affine, erasing, sub-policies).
"""
from msxla.dataset.vision._color import (  # noqa: F401
    AdjustBrightness, AdjustContrast, AdjustHue, AdjustSaturation, CutOut, Grayscale, Invert,
    Normalize, NormalizePad, RandomColorAdjust, RandomGrayscale, Rescale, ToType)
from msxla.dataset.vision._convert import Decode, HWC2CHW, ToNumpy, ToPIL, ToTensor  # noqa: F401
from msxla.dataset.vision._tone import (  # noqa: F401
    AutoContrast, Equalize, Posterize, RandomAutoContrast, RandomEqualize, RandomPosterize,
    RandomSolarize, Solarize)
from msxla.dataset.vision._geometry import (  # noqa: F401
    CenterCrop, Crop, HorizontalFlip, Pad, RandomCrop, RandomCropDecodeResize,
    RandomHorizontalFlip, RandomResizedCrop, RandomRotation, RandomVerticalFlip, Resize,
    ResizedCrop, Rotate, VerticalFlip)
from msxla.dataset.vision._random_extra import (  # noqa: F401
    AdjustSharpness, GaussianBlur, RandomAffine, RandomColor, RandomErasing,
    RandomSelectSubpolicy, RandomSharpness)

__all__ = ["AdjustBrightness", "AdjustContrast", "AdjustHue", "AdjustSaturation", "CutOut",
           "Grayscale", "Invert", "Normalize", "NormalizePad", "RandomColorAdjust",
           "RandomGrayscale", "Rescale", "ToType", "Decode", "HWC2CHW", "ToNumpy", "ToPIL",
           "ToTensor", "CenterCrop", "Crop", "HorizontalFlip", "Pad", "RandomCrop",
           "RandomCropDecodeResize", "RandomHorizontalFlip", "RandomResizedCrop",
           "RandomRotation", "RandomVerticalFlip", "Resize", "ResizedCrop", "Rotate",
           "VerticalFlip", "AutoContrast", "Equalize", "Posterize", "RandomAutoContrast",
           "RandomEqualize", "RandomPosterize", "RandomSolarize", "Solarize", "AdjustSharpness",
           "GaussianBlur", "RandomAffine", "RandomColor", "RandomErasing", "RandomSelectSubpolicy",
           "RandomSharpness"]
