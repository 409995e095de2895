"""MindIR values <-> Python values: tensors, scalars, tuples, abstracts.

MindIR stores every value in an ``AttributeProto``: a Constant node's value,
a primitive's attribute, a node's abstract. The encodings MindSpore 2.10
writes (and reads):

    True / 3 / 0.5 / "NCHW"   i (BOOL, INT64), f (FLOAT), s (STRING)
    (1, 2)                    TUPLE of elements, each with its value in ints/floats/strings
    numpy array               TENSORS holding one TensorProto with raw_data (little-endian)
    None                      NONE;  the side-effect token: UMONAD
    a shape/dtype abstract    TENSORS holding a TensorProto with dims and data_type only

A Parameter is a ``TensorProto`` of the graph with ``ref_key`` (its name) and
its bytes in ``raw_data``.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from msxla.mindir.schema import pb

A = pb.AttributeProto
T = pb.TensorProto

# TensorProto.DataType <-> numpy. FLOAT64 (17) is read as float64; DOUBLE (11) is written.
_NP_OF = {T.FLOAT: np.float32, T.UINT8: np.uint8, T.INT8: np.int8, T.UINT16: np.uint16,
          T.INT16: np.int16, T.INT32: np.int32, T.INT64: np.int64, T.BOOL: np.bool_,
          T.FLOAT16: np.float16, T.DOUBLE: np.float64, T.FLOAT64: np.float64,
          T.UINT32: np.uint32, T.UINT64: np.uint64, T.COMPLEX64: np.complex64,
          T.COMPLEX128: np.complex128, T.BFLOAT16: ml_dtypes.bfloat16}
_CODE_OF = {np.dtype(v): k for k, v in _NP_OF.items() if k != T.FLOAT64}


class Monad:
    """MindSpore's side-effect token (UMONAD / IOMONAD): ordering only, no value."""

    def __repr__(self):
        return "U"


MONAD = Monad()


def np_dtype(code: int) -> np.dtype:
    try:
        return np.dtype(_NP_OF[code])
    except KeyError:
        raise ValueError(f"MindIR tensor data type {code} has no numpy equivalent") from None


def data_type(dtype) -> int:
    """The TensorProto data type of a numpy dtype."""
    try:
        return _CODE_OF[np.dtype(dtype)]
    except KeyError:
        raise ValueError(f"MindIR has no tensor data type for {np.dtype(dtype)}") from None


# ------------------------------------------------------------------ tensors
def tensor_value(t) -> np.ndarray:
    """The numpy value of a TensorProto (raw_data, or the typed repeated fields)."""
    dtype = np_dtype(t.data_type)
    shape = tuple(t.dims)
    if t.raw_data:
        return np.frombuffer(t.raw_data, dtype=dtype.newbyteorder("<")).astype(dtype) \
            .reshape(shape)
    for field in ("float_data", "double_data", "int32_data", "int64_data", "uint64_data"):
        data = getattr(t, field)
        if len(data):
            return np.asarray(list(data)).astype(dtype).reshape(shape)
    if t.external_data.location:
        raise ValueError("MindIR parameters stored in a separate file are not supported "
                         f"('{t.external_data.location}')")
    return np.zeros(shape, dtype)


def fill_tensor(t, value: np.ndarray, name: str | None = None):
    """Write a numpy array into TensorProto ``t`` (dims, data type, raw bytes)."""
    value = np.asarray(value)
    t.dims.extend(value.shape)
    t.data_type = data_type(value.dtype)
    if name is not None:
        t.name = name
    t.raw_data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<")).tobytes()
    return t


def fill_abstract(t, shape, dtype):
    """A shape-and-dtype TensorProto (no data)."""
    t.dims.extend(int(d) for d in shape)
    t.data_type = data_type(dtype)
    return t


# --------------------------------------------------------------- attributes
_INT_TYPES = {A.INT8, A.INT16, A.INT32, A.INT64, A.UINT8, A.UINT16, A.UINT32, A.UINT64}


def decode(a):
    """The Python value of an AttributeProto (see the module doc)."""
    kind = a.type
    if kind == A.BOOL:
        return bool(a.ints[0] if len(a.ints) else a.i)
    if kind in _INT_TYPES:
        return int(a.ints[0] if len(a.ints) else a.i)
    if kind == A.FLOAT:
        return float(a.floats[0] if len(a.floats) else a.f)
    if kind == A.DOUBLE:
        return float(a.doubles[0] if len(a.doubles) else a.d)
    if kind == A.STRING:
        raw = a.strings[0] if len(a.strings) else a.s
        return raw.decode() if isinstance(raw, bytes) else raw
    if kind == A.TENSORS:
        t = a.tensors[0]
        return tensor_value(t)
    if kind == A.TENSOR:
        return tensor_value(a.t)
    if kind in (A.TUPLE, A.LIST):
        items = [decode(v) for v in a.values]
        return tuple(items) if kind == A.TUPLE else list(items)
    if kind == A.NONE:
        return None
    if kind in (A.UMONAD, A.IOMONAD):
        return MONAD
    raise ValueError(f"MindIR value of type {A.AttributeType.Name(kind)} is not supported")


def abstract_of(a):
    """``(shape, numpy dtype)`` from an abstract TENSORS attribute, a nested tuple of
    them for TUPLE, or None."""
    if a.type == A.TENSORS and len(a.tensors):
        t = a.tensors[0]
        return tuple(t.dims), np_dtype(t.data_type)
    if a.type in (A.TUPLE, A.LIST):
        return tuple(abstract_of(v) for v in a.values)
    return None


def encode(a, value, element: bool = False):
    """Fill AttributeProto ``a`` with ``value``. Inside a tuple (``element``) scalars go to
    the repeated fields, as MindSpore writes them."""
    if isinstance(value, Monad):
        a.type = A.UMONAD
    elif value is None:
        a.type = A.NONE
    elif isinstance(value, (bool, np.bool_)):
        a.type = A.BOOL
        (a.ints.append(int(value)) if element else setattr(a, "i", int(value)))
    elif isinstance(value, (int, np.integer)):
        a.type = A.INT64
        (a.ints.append(int(value)) if element else setattr(a, "i", int(value)))
    elif isinstance(value, (float, np.floating)):
        a.type = A.FLOAT
        (a.floats.append(float(value)) if element else setattr(a, "f", float(value)))
    elif isinstance(value, str):
        a.type = A.STRING
        (a.strings.append(value.encode()) if element else setattr(a, "s", value.encode()))
    elif isinstance(value, (tuple, list)):
        a.type = A.TUPLE if isinstance(value, tuple) else A.LIST
        for v in value:
            encode(a.values.add(), v, element=True)
    elif isinstance(value, np.ndarray):
        a.type = A.TENSORS
        fill_tensor(a.tensors.add(), value, name="value0")
    else:
        raise TypeError(f"cannot store a {type(value).__name__} in MindIR")
    return a
