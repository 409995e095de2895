"""``ScalarSummary``, ``ImageSummary``, ``TensorSummary``, ``HistogramSummary``:
values a network hands to ``SummaryRecord``.

Each call stores ``(tag, value)`` in ``SUMMARY_TENSOR_CACHE`` under
``"tag[:Scalar]"`` (``[:Image]``, ...), as MindSpore's summary ops do;
``SummaryRecord.record`` takes the cache and writes it. In PyNative the value
is stored at once; inside a captured graph the store is an ordered runtime
callback, so every call of the compiled graph delivers its values. The name
and value are checked when the op is called (MindSpore checks them when the
step is recorded), with MindSpore's messages.
"""
from __future__ import annotations

import threading

import jax
import numpy as np
from jax.core import Tracer

from msxla.common.state import is_capturing
from msxla.common.tensor import Tensor
from msxla.ops.surface import composite, exports

SUMMARY_TENSOR_CACHE = {}  # "tag[:Kind]" -> numpy value of the last call
_lock = threading.Lock()


def take_summary_data():
    """Every value the summary ops stored since the last call, emptying the cache."""
    global SUMMARY_TENSOR_CACHE
    with _lock:
        data, SUMMARY_TENSOR_CACHE = SUMMARY_TENSOR_CACHE, {}
    return data


def _check(kind, name, value):
    op = f"{kind}Summary"
    if not isinstance(name, str) or not name:
        raise TypeError(f'For "{op}", the name must be valid string, but got "{name}".')
    if not isinstance(value, Tensor):
        raise TypeError(f'For "{op}", the parameter "value" expect to be Tensor, '
                        f'but got {type(value).__name__}')
    shape = tuple(value.shape)
    size = int(np.prod(shape)) if shape else 1
    if kind == "Scalar" and size != 1:
        raise ValueError(f'For "{op}", the v rank must be less than or equal to 1, '
                         f'but got {shape[0]}.')
    if kind == "Image" and len(shape) != 4:
        raise ValueError(f'For "{op}", the tensor seems not to hold a valid image.')
    if kind in ("Tensor", "Histogram") and not shape:
        raise ValueError(f'For "{op}", the value should not be empty.')


def _summary(kind, name, value):
    _check(kind, name, value)
    key = f"{name}[:{kind}]"

    def store(array):
        with _lock:
            SUMMARY_TENSOR_CACHE[key] = np.array(array)

    data = value._data
    if is_capturing() or isinstance(data, Tracer):
        jax.debug.callback(store, data, ordered=True)
    else:
        store(data)


@composite(prim="ScalarSummary", primitive=True, public=False)
def scalar_summary(name, value):
    """Record the scalar ``value`` (one element) under ``name``."""
    _summary("Scalar", name, value)


@composite(prim="ImageSummary", primitive=True, public=False)
def image_summary(name, value):
    """Record the NCHW image batch ``value`` under ``name``."""
    _summary("Image", name, value)


@composite(prim="TensorSummary", primitive=True, public=False)
def tensor_summary(name, value):
    """Record the Tensor ``value`` under ``name``."""
    _summary("Tensor", name, value)


@composite(prim="HistogramSummary", primitive=True, public=False)
def histogram_summary(name, value):
    """Record a histogram of ``value`` under ``name``."""
    _summary("Histogram", name, value)


__all__ = exports(__name__)
