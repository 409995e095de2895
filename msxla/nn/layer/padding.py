"""Padding layers: ``Pad`` and the ``ConstantPad``, ``ZeroPad``, ``ReflectionPad`` and
``ReplicationPad`` families (MindSpore's ``nn.layer.padding``).

``Pad(paddings, mode)`` takes one ``(before, after)`` pair per input dimension,
from the first, and the modes ``CONSTANT`` (zeros), ``REFLECT`` and
``SYMMETRIC``. The ``*PadNd`` layers take an int (every side) or a tuple of
``2 * N`` sizes from the last dimension backwards (``(left, right, top,
bottom, front, back)``), as torch does, and pad the last N dimensions of a
Tensor of rank N + 1 or N + 2.
"""
from __future__ import annotations

import numbers

import jax.numpy as jnp

from msxla import ops
from msxla.common.tensor import Tensor, wrap
from msxla.nn.cell import Cell

__all__ = ["Pad", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
           "ReplicationPad2d", "ReplicationPad3d"]


class Pad(Cell):
    """Pad with one ``(before, after)`` pair per dimension; mode CONSTANT, REFLECT or
    SYMMETRIC (a REFLECT that repeats the edge)."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got "
                            f"{type(paddings).__name__}.")
        for item in paddings:
            if len(item) != 2:
                raise ValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2), but "
                                 f"got {paddings}.")
        if not isinstance(mode, str) or mode.upper() not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'Pad', the 'mode' must be str and must be in '['CONSTANT', "
                             f"'REFLECT', 'SYMMETRIC']', but got '{mode}'.")
        self.paddings, self.mode = paddings, mode.upper()

    def construct(self, x):
        if len(self.paddings) > x.ndim:
            raise ValueError(f"For 'Pad', the number of padded dimensions ({len(self.paddings)}) "
                             f"is larger than the rank of the input ({x.ndim}).")
        pairs = [tuple(int(v) for v in p) for p in self.paddings]
        pairs += [(0, 0)] * (x.ndim - len(pairs))
        if self.mode == "CONSTANT":
            return wrap(jnp.pad(x._data, pairs))
        for d, (lo, hi) in enumerate(pairs):
            limit = x.shape[d] - (1 if self.mode == "REFLECT" else 0)
            if lo > limit or hi > limit:
                raise ValueError(f"For 'Pad', with mode {self.mode} each padding of dimension "
                                 f"{d} must be at most {limit}, but got {(lo, hi)}.")
        return wrap(jnp.pad(x._data, pairs, mode=self.mode.lower()))


def _sizes(cls_name, padding, n):
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        return (int(padding),) * (2 * n)
    if not isinstance(padding, tuple):
        raise TypeError(f"For '{cls_name}', the type of parameter 'padding' must be in "
                        f"[int, tuple], but got {type(padding)}")
    if len(padding) % 2 or len(padding) > 2 * n:
        raise ValueError(f"For '{cls_name}', the length of parameter 'padding' with tuple type "
                         f"must be a multiple of 2, but got {len(padding)}")
    for p in padding:
        if isinstance(p, bool) or not isinstance(p, numbers.Integral):
            raise TypeError(f"For '{cls_name}', the element of parameter 'padding' must be "
                            f"int, but got {type(p)}.")
    return tuple(int(p) for p in padding)


class _PadNd(Cell):
    """Pad the last ``_n`` dimensions by ``padding`` in ``_mode``."""

    _n, _mode = 1, "constant"

    def __init__(self, padding, value=None):
        super().__init__()
        name = type(self).__name__
        self.padding = _sizes(name, padding, self._n)
        if self._mode == "constant":
            if isinstance(value, bool) or not isinstance(value, (numbers.Real, Tensor)):
                raise TypeError(f"For '{name}', the type of parameter 'value' must be in "
                                f"[int, float], but got {type(value)}.")
            self.value = value
        if self._mode != "constant" and any(p < 0 for p in self.padding):
            raise ValueError(f"For '{name}', the padding must be non-negative, but got "
                             f"{self.padding}.")

    def construct(self, x):
        name = type(self).__name__
        if x.ndim not in (self._n + 1, self._n + 2):
            raise ValueError(f"For '{name}', the rank of the input must be {self._n + 1} or "
                             f"{self._n + 2}, but got {x.ndim}.")
        value = getattr(self, "value", None)
        if isinstance(value, Tensor):
            value = value.item()
        if self._mode == "reflect":
            for i in range(len(self.padding) // 2):
                lo, hi, size = self.padding[2 * i], self.padding[2 * i + 1], x.shape[-1 - i]
                if lo >= size or hi >= size:
                    raise ValueError(f"For 'MirrorPad', paddings must be no greater than the "
                                     f"dimension size: [{lo}], [{hi}] not less than [{size}]")
        return ops.pad(x, self.padding, self._mode, value)


def _pad_class(name, n, mode, doc):
    if mode == "constant":
        def __init__(self, padding, value):
            _PadNd.__init__(self, padding, value)
    elif name.startswith("Zero"):
        def __init__(self, padding):
            _PadNd.__init__(self, padding, 0.0)
    else:
        def __init__(self, padding):
            _PadNd.__init__(self, padding)
    return type(name, (_PadNd,), {"__init__": __init__, "_n": n,
                                  "_mode": "constant" if name.startswith("Zero") else mode,
                                  "__doc__": doc, "__module__": __name__})


ConstantPad1d = _pad_class("ConstantPad1d", 1, "constant", "Pad the last dimension with `value`.")
ConstantPad2d = _pad_class("ConstantPad2d", 2, "constant",
                           "Pad the last 2 dimensions with `value`.")
ConstantPad3d = _pad_class("ConstantPad3d", 3, "constant",
                           "Pad the last 3 dimensions with `value`.")
ZeroPad2d = _pad_class("ZeroPad2d", 2, "zero", "Pad the last 2 dimensions with zeros.")
ReflectionPad1d = _pad_class("ReflectionPad1d", 1, "reflect",
                             "Pad the last dimension with its reflection (edge not repeated).")
ReflectionPad2d = _pad_class("ReflectionPad2d", 2, "reflect",
                             "Pad the last 2 dimensions with their reflection.")
ReflectionPad3d = _pad_class("ReflectionPad3d", 3, "reflect",
                             "Pad the last 3 dimensions with their reflection.")
ReplicationPad1d = _pad_class("ReplicationPad1d", 1, "replicate",
                              "Pad the last dimension by repeating its edge values.")
ReplicationPad2d = _pad_class("ReplicationPad2d", 2, "replicate",
                              "Pad the last 2 dimensions by repeating their edge values.")
ReplicationPad3d = _pad_class("ReplicationPad3d", 3, "replicate",
                              "Pad the last 3 dimensions by repeating their edge values.")
