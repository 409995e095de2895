"""Reading TFRecord files of ``tf.train.Example`` records without TensorFlow.

A TFRecord file is a sequence of records: a little-endian uint64 length, its
masked CRC-32C, the data, and the data's masked CRC-32C. The data is an
``Example`` protobuf: a map from feature name to one of ``bytes_list``,
``float_list`` or ``int64_list``. The few wire-format rules that needs
(varints, length-delimited fields, packed and unpacked repeated scalars) are
decoded here; lengths are checked, CRCs are not (as MindSpore's reader).
"""
from __future__ import annotations

import struct

import numpy as np


def records(path):
    """The data of every record in the file at ``path``."""
    with open(path, "rb") as f:
        blob = f.read()
    out, pos = [], 0
    while pos < len(blob):
        if pos + 12 > len(blob):
            raise RuntimeError(f"Invalid TFRecord file {path}: a record header is cut short "
                               f"at byte {pos}.")
        (length,) = struct.unpack_from("<Q", blob, pos)
        start = pos + 12
        if start + length + 4 > len(blob):
            raise RuntimeError(f"Invalid TFRecord file {path}: the record at byte {pos} says "
                               f"{length} bytes but the file ends first.")
        out.append(blob[start:start + length])
        pos = start + length + 4
    return out


def _varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of a message; value is bytes for
    length-delimited fields, an int for varints, raw bytes for fixed ones."""
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = _varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            n, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        else:
            raise RuntimeError(f"Invalid Example record: unsupported wire type {wire}.")
        yield num, wire, value


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _feature(buf):
    """A Feature message -> ("bytes", [bytes]) / ("float", ndarray) / ("int64", ndarray)."""
    for num, _, body in _fields(buf):
        if num == 1:
            return "bytes", [v for n, _, v in _fields(body) if n == 1]
        if num == 2:
            vals = []
            for n, wire, v in _fields(body):
                if n == 1:
                    vals.extend(struct.unpack(f"<{len(v) // 4}f", v) if wire == 2
                                else struct.unpack("<f", v))
            return "float", np.array(vals, np.float32)
        if num == 3:
            vals = []
            for n, wire, v in _fields(body):
                if n != 1:
                    continue
                if wire == 2:
                    p = 0
                    while p < len(v):
                        x, p = _varint(v, p)
                        vals.append(_signed(x))
                else:
                    vals.append(_signed(v))
            return "int64", np.array(vals, np.int64)
    return "bytes", []


def parse_example(buf):
    """An Example record -> {feature name: (kind, values)}."""
    out = {}
    for num, _, features in _fields(buf):
        if num != 1:
            continue
        for n, _, entry in _fields(features):
            if n != 1:
                continue
            name, value = None, b""
            for k, _, v in _fields(entry):
                if k == 1:
                    name = v.decode("utf-8")
                elif k == 2:
                    value = v
            out[name] = _feature(value)
    return out


def column_value(kind, values):
    """A feature as MindSpore gives it: bytes as uint8 (one value) or a bytes array."""
    if kind != "bytes":
        return values
    if len(values) == 1:
        return np.frombuffer(values[0], np.uint8).copy()
    return np.array(values, dtype=object).astype(np.bytes_)
