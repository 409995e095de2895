"""``repr`` and ``str`` of Tensors, character for character as MindSpore prints them.

``str(t)`` is numpy's ``str`` of the value (MindSpore's ``str(t.asnumpy())``, with
the numpy 1.x MindSpore 2.10 runs on: numpy 2 prints with ``legacy="1.25"``),
except bfloat16, whose numpy scalars MindSpore prints with ``%f``.

``repr(t)`` is ``Tensor(shape=[2, 3], dtype=Float32, value=...)``, with the value
written as MindSpore's C++ tensor printer writes it: a 0-d or 1-d value follows
``value=`` after a space, larger ones start on the next line; elements are
separated by ``", "``; float32/float64 elements are ``%15.8e``, float16 ``%11.4e``,
bool right-aligned in 5 columns; integers and bfloat16 (``%g``) are padded to the
widest printed element; complex is ``re+imj`` (``%g``); a 0-d float prints with
``%g``. A 1-d value longer than 1000 elements, and in higher ranks any
dimension longer than 6, shows its first and last 3 entries around ``...``. A
1-d value breaks its line every 12 elements (float, bool) or 24 (others).
"""
from __future__ import annotations

import math
import re

import numpy as np
from jax.core import Tracer

_THRESHOLD = 6      # a dimension longer than this (in rank > 1) is summarised
_EDGE = _THRESHOLD >> 1
_THRESHOLD_1D = 1000
_PAD = re.compile("\x01([^\x02]*)\x02")
_NUMPY1 = {"legacy": "1.25"} if int(np.__version__.split(".")[0]) >= 2 else {}


def _shape_text(shape):
    """``[2, 3]``; a placeholder's dynamic dimension prints -1, as in MindSpore."""
    return "[" + ", ".join("-1" if s is None else str(int(s)) for s in shape) + "]"


def _nan_text(v, plus=False):
    sign = "-" if math.copysign(1.0, v) < 0 else ("+" if plus else "")
    return sign + "nan"


def _g(v, plus=False):
    """C++ ``ostream << double`` (``%g``; glibc writes a negative NaN as ``-nan``)."""
    v = float(v)
    if math.isnan(v):
        return _nan_text(v, plus)
    return ("%+g" if plus else "%g") % v


def _e(v, width, precision):
    v = float(v)
    if math.isnan(v):
        return _nan_text(v).rjust(width)
    return "%*.*e" % (width, precision, v)


def _kind(arr):
    name = arr.dtype.name
    if name == "bfloat16":
        return "bf16"
    return {"f": "float", "b": "bool", "c": "complex"}.get(arr.dtype.kind, "int")


class _Printer:
    """MindSpore's C++ ``TensorStringifier`` over a numpy array."""

    def __init__(self, arr):
        self.flat = arr.reshape(-1)
        self.shape = arr.shape
        self.ndim = arr.ndim
        self.kind = _kind(arr)
        self.half = arr.dtype == np.float16
        self.linefeed = 12 if self.kind in ("float", "bool") else 24

    def element(self, v, scalar):
        kind = self.kind
        if kind == "float":
            if scalar:
                return _g(v)
            return _e(v, 11, 4) if self.half else _e(v, 15, 8)
        if kind == "bool":
            text = "True" if v else "False"
            return text if scalar else text.rjust(5)
        if kind == "complex":
            return _g(v.real) + _g(v.imag, plus=True) + "j"
        text = _g(float(v)) if kind == "bf16" else str(int(v))
        return text if scalar else f"\x01{text}\x02"  # padded to the widest one at the end

    def to_string(self):
        if self.flat.size == 0:
            return ""
        if self.ndim == 0:
            text = self.element(self.flat[0], True)
            return "nan" if self.kind == "bf16" and text == "-nan" else text
        out = []
        self.cursor = 0
        self.recurse(out, 0)
        text = "".join(out)
        if self.kind in ("int", "bf16"):
            width = max((len(m) for m in _PAD.findall(text)), default=0)
            text = _PAD.sub(lambda m: m.group(1).rjust(width), text)
        return text

    def data(self, out, start, end):
        size = self.flat.size
        for i in range(start, end):
            if self.cursor + i >= size:
                break
            v = self.flat[self.cursor + i]
            text = self.element(v, False)
            if self.kind == "bf16" and "-nan" in text:
                text = text.replace("-nan", "nan")
            out.append(text)
            if i != end - 1:
                out.append(", ")
            if self.ndim == 1 and end - start > _EDGE and (i + 1) % self.linefeed == 0:
                out.append("\n ")

    def recurse(self, out, depth):
        shape, ndim = self.shape, self.ndim
        out.append("[")
        num = shape[depth]
        if depth == ndim - 1:
            if (num > _THRESHOLD and ndim > 1) or (num > _THRESHOLD_1D and ndim == 1):
                self.data(out, 0, _EDGE)
                out.append(" ... ")
                self.data(out, num - _EDGE, num)
            else:
                self.data(out, 0, num)
            self.cursor += num
        else:
            indent = "\n" + " " * (depth + 1)
            for i in range(min(_EDGE, num)):
                if i > 0:
                    out.append("," + indent)
                self.recurse(out, depth + 1)
            if num > _THRESHOLD:
                out.append("," + indent + "...")
                self.cursor += int(np.prod(shape[depth + 1:])) * (num - _THRESHOLD)
            if num > _EDGE:
                for i in range(min(num - _EDGE, _EDGE)):
                    out.append(("," if i != 0 or num <= _THRESHOLD else "") + indent)
                    self.recurse(out, depth + 1)
        out.append("]")


def _value_text(arr: np.ndarray) -> str:
    return _Printer(arr).to_string()


def tensor_repr(t) -> str:
    data = t._data
    if data is None:
        return f"Tensor(shape={_shape_text(t.shape)}, dtype={t.dtype}, value=<placeholder>)"
    if isinstance(data, Tracer):
        data = _concrete_or_none(data)
        if data is None:
            return f"Tensor(shape={_shape_text(t.shape)}, dtype={t.dtype}, value=<traced>)"
    arr = np.asarray(data)
    sep = "\n" if arr.ndim > 1 else " "
    return f"Tensor(shape={_shape_text(arr.shape)}, dtype={t.dtype}, value={sep}{_value_text(arr)})"


def _bf16_text(v):
    v = float(v)
    return "nan" if math.isnan(v) else "%f" % v


def _concrete_or_none(data):
    """The value behind an eager grad/jvp tracer (None inside a captured graph)."""
    return data.to_concrete_value()


def tensor_str(t) -> str:
    data = t._data
    if isinstance(data, Tracer):
        data = _concrete_or_none(data)
    if data is None:
        return tensor_repr(t)
    arr = np.asarray(data)
    with np.printoptions(**_NUMPY1):
        if arr.dtype.name != "bfloat16":
            return str(arr)
        if arr.ndim == 0:
            return _bf16_text(arr)
        return np.array2string(arr.astype(np.float32), separator=" ",
                               formatter={"all": _bf16_text})
