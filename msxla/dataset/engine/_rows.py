"""Rows: what flows through a pipeline, and how Python values become rows.

A row is a tuple of columns; each column is a numpy array (strings are numpy
``str_`` arrays, as in MindSpore; a ``dict`` column passes through as is).
Values from a user's source or function become columns as MindSpore converts
them: a scalar, string, bytes, array or Tensor is one column, a tuple or list
of them is several; Python ``int`` -> int64, ``float`` -> float64; anything
numpy can only hold as ``object`` is an error naming the column.
"""
from __future__ import annotations

import numpy as np

_SCALARS = (int, float, str, bytes, np.ndarray, np.number, np.bool_)


def _tensor_type():
    from msxla.common.tensor import Tensor
    return Tensor


def to_column(value, position=None):
    """One column value as a numpy array (TypeError if numpy needs ``object``)."""
    if isinstance(value, np.ndarray):
        item = value
    elif isinstance(value, dict):
        return value
    elif isinstance(value, _tensor_type()):
        return value.asnumpy()
    else:
        item = np.asarray(value)
    if item.dtype == object:
        which = "" if position is None else f"{position}th item of the "
        raise TypeError(f"Data type of {which}the input or its converted Numpy array is "
                        f"expected to be int or float or str, but got {item.dtype}.")
    return item


def to_row(value) -> tuple:
    """A source's or function's return value as a row (tuple of columns)."""
    if isinstance(value, _SCALARS) or isinstance(value, (dict, _tensor_type())):
        return (to_column(value),)
    return tuple(to_column(x, i + 1) for i, x in enumerate(value))


def check_width(row, names, who):
    if len(row) != len(names):
        raise RuntimeError(
            f"Invalid Python function, the 'source' of '{who}' should return same number of "
            f"NumPy arrays as specified in column_names, the size of column_names is:"
            f"{len(names)} and number of returned NumPy array is:{len(row)}")
    return row
