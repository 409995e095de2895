"""Primitives MindSpore has only in ``ops.auto_generate``: ``SplitWithSize()(input,
split_size, dim=0)`` and ``AddExt()(input, other, alpha=1)``, each calling its op row
(``msxla/ops/legacy_extra.py``)."""
from __future__ import annotations

from msxla.ops import legacy_extra
from msxla.ops.primitive import Primitive

__all__ = ["SplitWithSize", "AddExt"]


class SplitWithSize(Primitive):
    """Split ``input`` along ``dim`` into pieces of ``split_size``."""

    def __call__(self, input, split_size, dim=0):  # noqa: A002 - MindSpore's argument name
        return legacy_extra.split_with_size(input, tuple(split_size), dim)


class AddExt(Primitive):
    """``input + alpha * other``."""

    def __call__(self, input, other, alpha=1):  # noqa: A002 - MindSpore's argument name
        return legacy_extra.add_ext(input, other, alpha)
