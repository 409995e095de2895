"""``mindspore.dataset.transforms.c_transforms`` (MindSpore 1.x, removed in 2.0): kept as
a deprecated alias of ``mindspore.dataset.transforms``."""
import warnings

from msxla.dataset.transforms.transforms import (  # noqa: F401
    Compose, Concatenate, Duplicate, Fill, Mask, OneHot, PadEnd, Plugin, RandomApply,
    RandomChoice, Relational, Slice, TypeCast, Unique)

warnings.warn("mindspore.dataset.transforms.c_transforms is MindSpore 1.x's module (removed "
              "in 2.0); use mindspore.dataset.transforms instead.", DeprecationWarning,
              stacklevel=2)
