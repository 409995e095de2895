"""dtype names and constants of ``mindspore.numpy`` (``int_`` is int32, ``float_`` float32)."""
from __future__ import annotations

import math

from msxla.common import dtype as _mstype
from msxla.common.dtype import (bool_, float16, float32, float64, int8, int16, int32, int64,
                                uint8, uint16, uint32, uint64)

__all__ = ["bool_", "int_", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
           "uint32", "uint64", "float_", "float16", "float32", "float64", "numeric_types",
           "pi", "e", "euler_gamma", "inf", "nan", "PINF", "NINF", "promote_types",
           "result_type"]

int_ = int32
uint = uint32
float_ = float32
numeric_types = [int_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float_,
                 float16, float32, float64, bool_]

pi = math.pi
e = math.e
euler_gamma = 0.5772156649015329
inf = math.inf
nan = math.nan
PINF = math.inf
NINF = -math.inf


def promote_types(type1, type2):
    """The dtype both ``type1`` and ``type2`` convert to."""
    return _mstype.promote_types(_mstype.to_ms(type1), _mstype.to_ms(type2))


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on the given arrays, dtypes and Python scalars."""
    from msxla.common.tensor import Tensor
    key = []
    for a in arrays_and_dtypes:
        if isinstance(a, Tensor):
            key.append(a.dtype)
        elif isinstance(a, (bool, int, float, complex)):
            key.append(type(a))
        else:
            key.append(_mstype.to_ms(a))
    return _mstype.result_type(tuple(key))
