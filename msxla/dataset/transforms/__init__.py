"""``mindspore.dataset.transforms``: general transforms (``transforms.py``) and
the 1.x modules ``c_transforms`` / ``py_transforms`` kept as deprecated aliases."""
from msxla.dataset.transforms.transforms import (  # noqa: F401
    Compose, RandomApply, RandomChoice, RandomOrder, TypeCast, OneHot, Fill, Duplicate,
    Concatenate, Relational, Mask, Slice, PadEnd, Unique, Plugin)
from msxla.dataset.transforms import transforms  # noqa: F401
