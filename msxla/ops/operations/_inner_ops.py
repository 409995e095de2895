"""``mindspore.ops.operations._inner_ops``: the inner Primitives user code imports.

``TopTypeof()(x)`` is the top-level MindSpore type of ``x``, as MindSpore 2.10 gives it:
a ``TensorType`` for any Tensor (``isinstance(TopTypeof()(x), mstype.TensorType)`` is
the idiom), ``int_`` / ``float32`` / ``bool_`` for Python numbers, ``string``,
``type_none``, and the Tuple, List, Slice and Ellipsis types for those values. Types are
decided when the graph is captured, so it is the same in PyNative and under jit.
"""
from __future__ import annotations

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.primitive import Primitive

__all__ = ["TopTypeof"]

_TENSOR = mstype.TensorType()
_TUPLE, _LIST, _SLICE, _ELLIPSIS, _OTHER = (mstype._Other(n) for n in (
    "Tuple", "List", "Slice", "Ellipsis", "External"))


class TopTypeof(Primitive):
    """The top-level MindSpore type of a value (its element types are not looked at)."""

    def __call__(self, x):
        if isinstance(x, Tensor):
            return _TENSOR
        if isinstance(x, bool):
            return mstype.bool_
        if isinstance(x, int):
            return mstype.int_
        if isinstance(x, float):
            return mstype.float32
        if isinstance(x, str):
            return mstype.string
        if x is None:
            return mstype.type_none
        if x is Ellipsis:
            return _ELLIPSIS
        for cls, t in ((tuple, _TUPLE), (list, _LIST), (slice, _SLICE)):
            if isinstance(x, cls):
                return t
        return _OTHER
