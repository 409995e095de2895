"""One summary event file, written with tensorboardX.

The file is a TFRecord stream of ``Event`` protobufs (TensorBoard's format;
tensorboardX writes it without TensorFlow): a version event first, then one
event per recorded step holding every value of that step. Values are
converted as MindSpore converts them: a scalar is its one element; an image
batch (NCHW) becomes one grid image, scaled to 0..255 as MindSpore scales it
(uint8 as is, [0, 1] times 255, else min..max mapped linearly); a histogram
counts the finite values; a tensor keeps its dtype, shape and bytes.
"""
from __future__ import annotations

import os
import socket
import time

import numpy as np

# tensorboardX is imported when a file is written, not with msxla.
_DTYPES = {"bool": "DT_BOOL", "int8": "DT_INT8", "int16": "DT_INT16", "int32": "DT_INT32",
           "int64": "DT_INT64", "uint8": "DT_UINT8", "uint16": "DT_UINT16",
           "float16": "DT_HALF", "float32": "DT_FLOAT", "float64": "DT_DOUBLE"}


def event_file_name(prefix, suffix, time_second, device_id=0):
    """MindSpore's name: ``<prefix>.out.events.summary.<seconds>.<device>.<host><suffix>``."""
    return f"{prefix}.out.events.summary.{time_second}.{device_id}.{socket.gethostname()}{suffix}"


def _scalar(tag, value):
    from tensorboardX import summary as tbx_summary
    return tbx_summary.scalar(tag, np.asarray(value, np.float64).reshape(()))


def _image(tag, value):
    if value.ndim != 4 or value.shape[1] not in (1, 3) or 0 in value.shape:
        return None  # MindSpore logs an error and leaves the image out
    if value.dtype != np.uint8:
        lo, hi = float(np.min(value)), float(np.max(value))
        scale, shift = (255.0, 0.0) if 0 <= lo and hi <= 1 else (
            (255.0 / (hi - lo + 1), lo) if hi != lo else (1.0, lo))
        value = ((value.astype(np.float32) - shift) * scale).astype(np.uint8)
    from tensorboardX import summary as tbx_summary
    return tbx_summary.image(tag, value, dataformats="NCHW")


def _histogram(tag, value):
    finite = np.asarray(value, np.float64).reshape(-1)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        finite = np.zeros(1)
    from tensorboardX import summary as tbx_summary
    return tbx_summary.histogram(tag, finite, bins="auto")


def _tensor(tag, value):
    from tensorboardX.proto import summary_pb2, tensor_pb2, tensor_shape_pb2, types_pb2
    value = np.ascontiguousarray(value)
    if value.dtype.name in ("uint32", "uint64"):
        value = value.astype(np.int64)  # TensorBoard's proto has no wider unsigned types
    elif value.dtype.name not in _DTYPES:
        value = value.astype(np.float32)  # bfloat16 and others
    dtype = getattr(types_pb2, _DTYPES[value.dtype.name])
    shape = tensor_shape_pb2.TensorShapeProto(
        dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=int(d)) for d in value.shape])
    proto = tensor_pb2.TensorProto(dtype=dtype, tensor_shape=shape,
                                   tensor_content=value.tobytes())
    return summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, tensor=proto)])


_CONVERT = {"scalar": _scalar, "image": _image, "histogram": _histogram, "tensor": _tensor}


class EventFile:
    """An open event file: ``write(step, {plugin: [(tag, value)]})`` adds one event."""

    def __init__(self, path, max_file_size=None):
        from tensorboardX.record_writer import RecordWriter
        self.path = path
        self._max = max_file_size
        self._writer = RecordWriter(path)
        self._size = 0
        self._put(self._event(wall_time=time.time(), file_version="brain.Event:2"))

    @staticmethod
    def _event(**fields):
        from tensorboardX.proto import event_pb2
        return event_pb2.Event(**fields)

    def _put(self, event):
        data = event.SerializeToString()
        if self._max is not None and self._size + len(data) + 16 > self._max:
            return False
        self._writer.write(data)
        self._size += len(data) + 16
        return True

    def write(self, step, values):
        """One event for ``step`` with the values (``{plugin: [(tag, array)]}``), in the
        order they came, plugin by plugin, as MindSpore writes them."""
        from tensorboardX.proto import summary_pb2
        summary = summary_pb2.Summary()
        for plugin, items in values.items():
            for tag, value in items:
                converted = _CONVERT[plugin](tag, value)
                if converted is not None:
                    summary.value.extend(converted.value)
        if not summary.value:
            return True
        return self._put(self._event(wall_time=time.time(), step=int(step), summary=summary))

    def flush(self):
        self._writer.flush()

    def close(self):
        self._writer.flush()
        self._writer.close()


def read_events(path):
    """Every ``Event`` in an event file (each record's checksums verified)."""
    import struct
    from tensorboardX.proto import event_pb2
    from tensorboardX.record_writer import masked_crc32c
    with open(path, "rb") as f:
        data = f.read()
    events, pos = [], 0
    while pos < len(data):
        header = data[pos:pos + 8]
        (length,) = struct.unpack("Q", header)
        (crc,) = struct.unpack("I", data[pos + 8:pos + 12])
        body = data[pos + 12:pos + 12 + length]
        (body_crc,) = struct.unpack("I", data[pos + 12 + length:pos + 16 + length])
        if crc != masked_crc32c(header) or body_crc != masked_crc32c(body):
            raise ValueError(f"{os.path.basename(path)}: a record's checksum does not match")
        event = event_pb2.Event()
        event.ParseFromString(body)
        events.append(event)
        pos += 16 + length
    return events
