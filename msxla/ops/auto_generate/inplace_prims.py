"""In-place Primitives: ``InplaceAddExt()(x, other, alpha=1)`` adds ``alpha * other``
to ``x`` in place and returns ``x`` (``x.add_(other, alpha=alpha)``); ``InplaceSubExt``
subtracts. In a graph the write is captured like every Tensor method that mutates."""
from __future__ import annotations

from msxla.ops.primitive import Primitive

__all__ = ["InplaceAddExt", "InplaceSubExt", "inplace_add_ext_op", "inplace_sub_ext_op"]


class InplaceAddExt(Primitive):
    """``x += alpha * other`` in place; returns ``x``."""

    def __call__(self, input, other, alpha=1):  # noqa: A002 - MindSpore's argument name
        return input.add_(other, alpha=alpha)


class InplaceSubExt(Primitive):
    """``x -= alpha * other`` in place; returns ``x``."""

    def __call__(self, input, other, alpha=1):  # noqa: A002 - MindSpore's argument name
        return input.sub_(other, alpha=alpha)


inplace_add_ext_op = InplaceAddExt()
inplace_sub_ext_op = InplaceSubExt()
