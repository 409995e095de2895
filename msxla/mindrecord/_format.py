"""The MindRecord file format, as MindSpore 2.10 writes and reads it.

One shard is two files: ``<name>`` and its sqlite index ``<name>.db``.

``<name>``::

    [u64 LE: n][n bytes: header JSON][zeros up to header_size]
    [page 0][zeros up to page_size][page 1] ...          (the last page unpadded)

The header lists the schema (field types; ``blob_fields`` are the bytes
fields and the fields with a shape, sorted), the index fields, the shard
file names and every page: a BLOB_DATA page holds one row group's blobs
(rows ``start_row_id`` to ``end_row_id``), a RAW_DATA page holds the raw
records of the row groups it lists, each from its ``offset``.

A raw record is ``[u64 LE length][msgpack map of the scalar fields]``. A
blob record is ``[u64 LE length]`` followed by, for each blob field in order,
``[u64 BE length][bytes]`` (with exactly one blob field its bytes alone; with
none, four zero bytes). int32/int64 arrays are compressed: ``[u32 BE count]``,
two bits per value (MSB first: 1, 2, 4 or 8 bytes), then each value in that
many little-endian bytes; the header's ``compression_size`` counts the bytes
saved.

``<name>.db`` has a table INDEXES (row id -> raw and blob page and offsets,
plus one column per index field) and SHARD_NAME.
"""
from __future__ import annotations

import json
import struct

import numpy as np

VERSION = "3.0"
VALID_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
_WIDTHS = (1, 2, 4, 8)
_INT_TYPES = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


def blob_fields(schema: dict) -> list:
    return sorted(k for k, v in schema.items() if v["type"] == "bytes" or "shape" in v)


# ------------------------------------------------------------------ int arrays
def compress_ints(values: np.ndarray) -> bytes:
    v = np.asarray(values, dtype=np.int64).ravel()
    width = np.full(v.shape, 3, np.uint8)
    width[(v >= -(1 << 31)) & (v < 1 << 31)] = 2
    width[(v >= -(1 << 15)) & (v < 1 << 15)] = 1
    width[(v >= -(1 << 7)) & (v < 1 << 7)] = 0
    codes = np.zeros(((len(v) + 3) // 4) * 4, np.uint8)
    codes[:len(v)] = width
    bitmap = (codes.reshape(-1, 4) << np.array([6, 4, 2, 0], np.uint8)).sum(axis=1)
    body = b"".join(_INT_TYPES[_WIDTHS[w]](x).tobytes() for x, w in zip(v.tolist(), width))
    return struct.pack(">I", len(v)) + bitmap.astype(np.uint8).tobytes() + body


def decompress_ints(data: bytes, dtype) -> np.ndarray:
    n = struct.unpack_from(">I", data, 0)[0]
    nmap = (n + 3) // 4
    bitmap = np.frombuffer(data, np.uint8, nmap, 4)
    codes = ((bitmap[:, None] >> np.array([6, 4, 2, 0], np.uint8)) & 3).ravel()[:n]
    out = np.empty(n, dtype=dtype)
    pos = 4 + nmap
    for i, c in enumerate(codes.tolist()):
        w = _WIDTHS[c]
        out[i] = np.frombuffer(data, _INT_TYPES[w], 1, pos)[0]
        pos += w
    return out


def _field_bytes(spec, value):
    """One blob field's bytes (and the bytes compression saved)."""
    if spec["type"] == "bytes":
        return bytes(value), 0
    arr = np.asarray(value, dtype=spec["type"])
    if spec["type"] in ("int32", "int64"):
        packed = compress_ints(arr)
        return packed, arr.nbytes - len(packed)
    return arr.astype(np.dtype(spec["type"]).newbyteorder("<")).tobytes(), 0


def encode_blob(schema, fields, row):
    """A row's blob record (without its u64 length) and the bytes compression saved."""
    if not fields:
        return b"\0\0\0\0", 0
    parts, saved = [], 0
    for f in fields:
        data, s = _field_bytes(schema[f], row[f])
        parts.append(data)
        saved += s
    if len(fields) == 1:
        return parts[0], saved
    return b"".join(struct.pack(">Q", len(p)) + p for p in parts), saved


def _decode_field(spec, data):
    t = spec["type"]
    if t == "bytes":
        return bytes(data)
    arr = decompress_ints(data, t) if t in ("int32", "int64") else \
        np.frombuffer(data, dtype=np.dtype(t).newbyteorder("<")).astype(t)
    shape = spec.get("shape")
    return arr.reshape(shape) if shape else arr


def decode_blob(schema, fields, data):
    """A blob record (without its u64 length) as {field: value}."""
    if not fields:
        return {}
    if len(fields) == 1:
        return {fields[0]: _decode_field(schema[fields[0]], data)}
    out, pos = {}, 0
    for f in fields:
        n = struct.unpack_from(">Q", data, pos)[0]
        out[f] = _decode_field(schema[f], data[pos + 8:pos + 8 + n])
        pos += 8 + n
    return out


def record(payload: bytes) -> bytes:
    return struct.pack("<Q", len(payload)) + payload


def records(page: bytes):
    """The payloads of a page's records, with their start and end offsets."""
    pos = 0
    while pos + 8 <= len(page):
        n = struct.unpack_from("<Q", page, pos)[0]
        yield page[pos + 8:pos + 8 + n], pos, pos + 8 + n
        pos += 8 + n


# ---------------------------------------------------------------------- header
def header_json(header_size, page_size, index_fields, pages, compression, schema, desc,
                shard_addresses, shard_id) -> bytes:
    """The header in MindSpore's key order and compact separators."""
    def dump(v):
        return json.dumps(v, separators=(",", ":"), sort_keys=True)
    schema_entry = {"blob_fields": blob_fields(schema), "desc": desc, "schema": schema}
    body = ('{"header_size":' + str(header_size)
            + ',"index_fields":' + (json.dumps(
                [{"index_field": f, "schema_id": 0} for f in index_fields],
                separators=(",", ":")) if index_fields else "null")
            + ',"page":' + dump(pages)
            + ',"page_size":' + str(page_size)
            + ',"compression_size":' + str(compression)
            + ',"schema":[' + dump(schema_entry) + "]"
            + ',"shard_addresses":' + json.dumps(shard_addresses, separators=(",", ":"))
            + ',"shard_id":' + str(shard_id)
            + ',"statistics":null,"version":"' + VERSION + '"}')
    return body.encode("utf-8")


def read_header(path) -> dict:
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise RuntimeError(f"Invalid file, {path} is not a MindRecord file (too short).")
        n = struct.unpack("<Q", head)[0]
        raw = f.read(n)
    try:
        header = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise RuntimeError(f"Invalid file, {path} is not a MindRecord file (its header is not "
                           f"MindRecord's JSON).") from None
    if "schema" not in header or "page" not in header:
        raise RuntimeError(f"Invalid file, {path} is not a MindRecord file.")
    return header


INDEX_SQL = ("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, "
             "PAGE_ID_RAW          INT  NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, "
             "PAGE_OFFSET_RAW_END  INT  NOT NULL, ROW_GROUP_ID         INT  NOT NULL, "
             "PAGE_ID_BLOB         INT  NOT NULL, PAGE_OFFSET_BLOB     INT  NOT NULL, "
             "PAGE_OFFSET_BLOB_END INT  NOT NULL")
SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
             "string": "TEXT"}


def index_table_sql(schema, index_fields):
    cols = "".join(f",INC_{i} INT, {f}_0 {SQL_TYPES[schema[f]['type']]}"
                   for i, f in enumerate(index_fields))
    keys = ",".join(["ROW_ID"] + [f"INC_{i}" for i in range(len(index_fields))])
    return f"{INDEX_SQL}{cols}, PRIMARY KEY({keys}))"
