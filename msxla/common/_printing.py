"""``repr`` and ``str`` of Tensors in MindSpore's format.

``str(t)`` is numpy's ``str`` of the value; ``repr(t)`` is
``Tensor(shape=[2, 3], dtype=Float32, value=...)`` where a 0-d or 1-d value
follows ``value=`` on the same line and larger ones start on the next line.
"""
from __future__ import annotations

import numpy as np
from jax.core import Tracer


def _value_text(arr: np.ndarray) -> str:
    if arr.dtype.kind == "f" or arr.dtype.kind == "V" or str(arr.dtype) == "bfloat16":
        if arr.ndim == 0:
            return f"{arr.item()!r}" if arr.dtype.kind == "f" else str(arr)
        return np.array2string(arr.astype(np.float64) if str(arr.dtype) == "bfloat16" else arr,
                               separator=", ", threshold=1000, floatmode="fixed", precision=8,
                               formatter={"float_kind": lambda v: f"{v: .8e}"})
    if arr.ndim == 0:
        return str(arr.item())
    return np.array2string(arr, separator=", ", threshold=1000)


def tensor_repr(t) -> str:
    data = t._data
    if data is None:
        return f"Tensor(shape={list(t.shape)}, dtype={t.dtype}, value=<placeholder>)"
    if isinstance(data, Tracer):
        return f"Tensor(shape={list(data.shape)}, dtype={t.dtype}, value=<traced>)"
    arr = np.asarray(data)
    text = _value_text(arr)
    sep = "\n" if arr.ndim > 1 else " "
    return f"Tensor(shape={list(arr.shape)}, dtype={t.dtype}, value={sep}{text})"


def tensor_str(t) -> str:
    data = t._data
    if data is None or isinstance(data, Tracer):
        return tensor_repr(t)
    return str(np.asarray(data))
