"""Parameters <-> ``checkpoint.proto`` records.

A *record* is ``(dims, tensor_type, content)``: the shape, MindSpore's dtype
name (``"Float32"``, ``"BFloat16"``, ...; ``"str"`` for strings) and the raw
bytes; a map tensor's record is ``("map", [numpy arrays])``. ``serialize``
turns records into the messages a .ckpt file is made of (one Value each,
large contents split into several Values with the same tag); ``parse``
merges them back.
"""
from __future__ import annotations

import numpy as np

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.train.checkpoint_pb2 import Checkpoint

SLICE_BYTES = 512 * 1024 * 1024  # MindSpore splits Parameters larger than 512 MiB

# MindSpore's tensor_type names (its loader knows these; msxla also reads complex).
_TYPES = {str(t): t for t in (
    mstype.int8, mstype.uint8, mstype.int16, mstype.uint16, mstype.int32, mstype.uint32,
    mstype.int64, mstype.uint64, mstype.float16, mstype.float32, mstype.float64, mstype.bool_,
    mstype.bfloat16, mstype.complex64, mstype.complex128)}
_MAP_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32,
              "float16": np.float16, "float64": np.float64}


def to_record(value):
    """A snapshot of a Tensor, Parameter or str as ``(dims, tensor_type, bytes)``."""
    if isinstance(value, str):
        return [0], "str", np.array(value).tobytes()
    if not isinstance(value, Tensor):
        value = Tensor(value)
    arr = np.asarray(value.asnumpy(), order="C")  # (ascontiguousarray would make 0-d 1-d)
    if arr.dtype.byteorder == ">":
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    return list(arr.shape), str(value.dtype), arr.tobytes()


def serialize(records):
    """Yield the serialized Checkpoint messages of ``{name: record}``, in order."""
    for name, (dims, tensor_type, content) in records.items():
        starts = range(0, max(len(content), 1), SLICE_BYTES)
        for start in starts:
            msg = Checkpoint()
            value = msg.value.add()
            value.tag = name
            value.tensor.dims.extend(dims)
            value.tensor.tensor_type = tensor_type
            value.tensor.tensor_content = content[start:start + SLICE_BYTES]
            yield msg.SerializeToString()


def parse(content):
    """``[(name, record)]`` of a .ckpt file's bytes (DecodeError if not a checkpoint)."""
    msg = Checkpoint()
    msg.ParseFromString(content)
    out = []
    parts, prev = [], None
    values = list(msg.value)
    for i, element in enumerate(values):
        last = i == len(values) - 1 or values[i + 1].tag != element.tag
        if not element.HasField("tensor"):
            parts.append([(list(t.dims), t.tensor_type, t.tensor_content)
                          for t in element.maptensor.tensor])
            if last:
                out.append((element.tag, ("map", _merge_map(parts))))
                parts = []
            continue
        parts.append(element.tensor.tensor_content)
        prev = element
        if last:
            out.append((element.tag, (list(prev.tensor.dims), prev.tensor.tensor_type,
                                      b"".join(parts))))
            parts = []
    return out


def _merge_map(chunks):
    arrays = []
    for k in range(len(chunks[0])):
        pieces = []
        for chunk in chunks:
            dims, tensor_type, data = chunk[k]
            pieces.append(np.frombuffer(data, _MAP_TYPES[tensor_type]).reshape(dims))
        arrays.append(np.concatenate(pieces, axis=0))
    return arrays


def from_record(name, record):
    """A Parameter named ``name`` (or a str / list of arrays) from a record."""
    dims, tensor_type, content = record
    if dims == "map":
        return tensor_type
    if tensor_type == "str":
        n = len(content) // 4
        return str(np.frombuffer(content, f"U{n}")[0]) if n else ""
    if tensor_type not in _TYPES:
        raise KeyError(f"For 'load_checkpoint', the parameter '{name}' has the unsupported "
                       f"tensor_type '{tensor_type}'.")
    dtype = _TYPES[tensor_type]
    np_dtype = np.dtype(dtype.np_dtype)
    if dims == [0] and len(content) == np_dtype.itemsize:
        dims = []  # MindSpore's reader takes dims [0] for a scalar
    need = int(np.prod(dims, dtype=np.int64)) * np_dtype.itemsize
    if len(content) != need:
        raise ValueError(f"For 'load_checkpoint', the parameter '{name}' holds {len(content)} "
                         f"bytes, but its shape {tuple(dims)} and type {tensor_type} need {need}: "
                         "the file is truncated or corrupted.")
    arr = np.frombuffer(content, np_dtype).reshape(dims).copy()
    return Parameter(Tensor(arr, dtype=dtype), name=name)
