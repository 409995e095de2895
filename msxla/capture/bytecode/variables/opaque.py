"""``Opaque``: a live Python value the graph must not depend on.

After a graph break the live state can hold values that Python computed
from a Tensor's value (``y = x.asnumpy()``, ``n = np.sum(y)``) or that exist
only at run time (an exception being handled). The next graph cannot bake
them in (they change every call) and cannot take them as inputs (they are
not Tensors). They are carried through the graph as ``Opaque`` wrappers:
storing and passing them around is free, and any operation on one (an
attribute, a call with it as an argument, arithmetic, a branch on it) is a
graph break, so it runs in Python on the real value.
"""
from __future__ import annotations

import numpy as np


class Opaque:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"<opaque {type(self.value).__name__}>"


def is_opaque_value(value) -> bool:
    """Values that cross a graph break as ``Opaque`` (not baked, not graph inputs)."""
    return isinstance(value, (np.ndarray, np.generic, BaseException))


def contains_opaque(value, depth=0) -> bool:
    """True if ``value`` is or holds (in plain containers) an ``Opaque``."""
    if isinstance(value, Opaque):
        return True
    if depth > 4:
        return False
    cls = type(value)
    if cls is tuple or cls is list:
        return any(contains_opaque(v, depth + 1) for v in value)
    if cls is dict:
        return any(contains_opaque(v, depth + 1) for v in value.values())
    return False
