"""The ``format='safetensors'`` checkpoint files, read and written without extra packages.

A safetensors file is an 8-byte little-endian header length, a JSON header
(``{name: {"dtype", "shape", "data_offsets"}, "__metadata__": {...}}``, padded
with spaces to a multiple of 8) and the concatenated raw tensor bytes.
MindSpore writes the names in sorted order with ``{"format": "ms"}`` metadata
(plus ``crc_num`` with ``crc_check``); records are the ``_ckpt_format`` ones.
"""
from __future__ import annotations

import binascii
import json
import struct

_CODES = {"Bool": "BOOL", "UInt8": "U8", "Int8": "I8", "Int16": "I16", "UInt16": "U16",
          "Float16": "F16", "BFloat16": "BF16", "Int32": "I32", "UInt32": "U32",
          "Float32": "F32", "Float64": "F64", "Int64": "I64", "UInt64": "U64",
          "Complex64": "C64"}
_NAMES = {v: k for k, v in _CODES.items()}


def write(f, records, crc_check):
    header, blobs, offset, crc = {}, [], 0, 0
    for name in sorted(records):
        dims, tensor_type, content = records[name]
        if tensor_type not in _CODES:
            raise TypeError(f"For 'save_checkpoint', '{name}' of type {tensor_type} cannot be "
                            "saved in the safetensors format.")
        header[name] = {"dtype": _CODES[tensor_type], "shape": list(dims),
                        "data_offsets": [offset, offset + len(content)]}
        offset += len(content)
        blobs.append(content)
        if crc_check:
            crc = binascii.crc32(name.encode("utf-8"), crc)
            crc = binascii.crc32(content, crc)
    metadata = {"format": "ms"}
    if crc_check:
        metadata["crc_num"] = str(crc)
    header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    f.write(struct.pack("<Q", len(text)))
    f.write(text)
    for blob in blobs:
        f.write(blob)


def read(file, crc_check):
    """``[(name, record)]`` in sorted name order; ValueError naming the file if malformed."""
    if hasattr(file, "read"):
        content = file.read()
        label = "<BytesIO>"
    else:
        with open(file, "rb") as fh:
            content = fh.read()
        label = file
    try:
        (size,) = struct.unpack("<Q", content[:8])
        header = json.loads(content[8:8 + size].decode("utf-8"))
        data = memoryview(content)[8 + size:]
        metadata = header.pop("__metadata__", None) or {}
        out, crc = [], 0
        for name in sorted(header):
            info = header[name]
            begin, end = info["data_offsets"]
            if end > len(data) or begin > end:
                raise ValueError("data offsets beyond the end of the file")
            blob = bytes(data[begin:end])
            if crc_check:
                crc = binascii.crc32(name.encode("utf-8"), crc)
                crc = binascii.crc32(blob, crc)
            dims = list(info["shape"])
            out.append((name, (dims if dims else [], _NAMES[info["dtype"]], blob)))
    except (struct.error, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError,
            ValueError) as err:
        raise ValueError(f"Failed to read the checkpoint file {label}. The file may be "
                         f"corrupted, and the content cannot be parsed ({err}).") from err
    if crc_check:
        if "crc_num" not in metadata:
            import logging
            logging.getLogger("msxla").warning(
                "For 'load_checkpoint', the safetensors file do not contain the crc code, please "
                "check the file.")
        elif int(metadata["crc_num"]) != crc:
            raise ValueError("For 'load_checkpoint', the crc check has failed. Please check "
                             "whether the ckpt file is damaged.")
    return out
