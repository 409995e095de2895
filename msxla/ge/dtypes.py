"""Element types across the three numberings a GE graph meets.

- numpy dtypes: what the converter and the reference executor compute with
  (bfloat16 through ``ml_dtypes``);
- GE's proto ``DataType`` enum: ``TensorDescriptor.dtype`` on the wire;
- GE's C++ ``ge::DataType`` numbering: dtype-valued *attributes*
  (``Cast.dst_type``, ``ArgMaxV2.dtype``), which GE stores as the C++ value.

The two GE numberings differ (float32 is 1 in the proto enum and 0 in C++), so
nothing outside this module deals in raw numbers. MLIR element type names
(``f32``, ``i1``, ``ui8``) come in from the StableHLO walk.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from msxla.ge.schema import pb

BF16 = np.dtype(ml_dtypes.bfloat16)

# numpy dtype -> (proto DataType name, C++ ge::DataType value)
_TABLE = {
    np.dtype(np.float32): ("DT_FLOAT", 0),
    np.dtype(np.float16): ("DT_FLOAT16", 1),
    np.dtype(np.int8): ("DT_INT8", 2),
    np.dtype(np.int32): ("DT_INT32", 3),
    np.dtype(np.uint8): ("DT_UINT8", 4),
    np.dtype(np.int16): ("DT_INT16", 6),
    np.dtype(np.uint16): ("DT_UINT16", 7),
    np.dtype(np.uint32): ("DT_UINT32", 8),
    np.dtype(np.int64): ("DT_INT64", 9),
    np.dtype(np.uint64): ("DT_UINT64", 10),
    np.dtype(np.float64): ("DT_DOUBLE", 11),
    np.dtype(np.bool_): ("DT_BOOL", 12),
    np.dtype(np.complex64): ("DT_COMPLEX64", 16),
    np.dtype(np.complex128): ("DT_COMPLEX128", 17),
    BF16: ("DT_BF16", 27),
}
_FROM_PROTO = {pb.DataType.Value(name): dt for dt, (name, _) in _TABLE.items()}
_FROM_CPP = {cpp: dt for dt, (_, cpp) in _TABLE.items()}

_MLIR = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "complex<f32>": np.complex64, "complex<f64>": np.complex128,
}


class UnsupportedDtype(TypeError):
    pass


def _key(dtype) -> np.dtype:
    dt = np.dtype(dtype)
    if dt not in _TABLE:
        raise UnsupportedDtype(f"GE has no data type for {dt}.")
    return dt


def to_proto(dtype) -> int:
    """numpy dtype -> ``TensorDescriptor.dtype`` (proto enum value)."""
    return pb.DataType.Value(_TABLE[_key(dtype)][0])


def from_proto(value: int) -> np.dtype:
    try:
        return _FROM_PROTO[value]
    except KeyError:
        raise UnsupportedDtype(f"GE data type {value} has no numpy equivalent.") from None


def to_cpp(dtype) -> int:
    """numpy dtype -> C++ ``ge::DataType`` value (dtype-valued attributes)."""
    return _TABLE[_key(dtype)][1]


def from_cpp(value: int) -> np.dtype:
    try:
        return _FROM_CPP[value]
    except KeyError:
        raise UnsupportedDtype(f"ge::DataType {value} has no numpy equivalent.") from None


def proto_name(dtype) -> str:
    """``DT_FLOAT`` etc. (used by the text dump)."""
    return _TABLE[_key(dtype)][0]


def from_mlir(element_type) -> np.dtype:
    """MLIR element type (or its printed name) -> numpy dtype."""
    name = str(element_type)
    try:
        return np.dtype(_MLIR[name])
    except KeyError:
        raise UnsupportedDtype(f"StableHLO element type {name} has no GE data type.") from None


def short_name(dtype) -> str:
    """``float32`` / ``bfloat16`` style name for dumps."""
    return np.dtype(dtype).name
