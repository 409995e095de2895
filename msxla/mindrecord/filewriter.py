"""``mindspore.mindrecord.FileWriter``: write MindRecord files.

Rows are validated against the schema as they are written and laid out into
pages the way MindSpore lays them out: for each ``write_raw_data`` call and
shard, blobs go to the current blob page while they fit (a new blob page
starts a new row group) and raw records to the current raw page; pages are
numbered in the order they are opened. ``commit`` writes each shard's file
and its sqlite index. The result reads back in MindSpore 2.10 (and MindSpore's
files read here); see ``_format.py`` for the bytes.
"""
from __future__ import annotations

import os
import re
import sqlite3
import struct

import numpy as np

from msxla.mindrecord import _format as fmt
from msxla.mindrecord import _msgpack
from msxla.mindrecord.common.exceptions import (
    MRMDefineIndexError, MRMInvalidHeaderSizeError, MRMInvalidPageSizeError,
    MRMInvalidSchemaError, MRMValidateDataError, ParamTypeError, ParamValueError)

MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000
_NAME = re.compile(r"^[0-9a-zA-Z_]+$")


class _Shard:
    """One shard's pages being built."""

    def __init__(self, page_size):
        self.page_size = page_size
        self.pages = []      # [type, type_id, bytearray, groups[(id, offset)], start, end]
        self.blob = None
        self.raw = None
        self.rows = 0
        self.groups = 0
        self.index = []      # (row, raw page, raw start, raw end, group, blob page, start, end)

    def _open(self, kind, row=0):
        type_id = sum(1 for p in self.pages if p[0] == kind)
        page = [kind, type_id, bytearray(), [], row, row]
        self.pages.append(page)
        return page

    def add(self, blobs, raws, index_values):
        new_group = []
        for i, b in enumerate(blobs):
            rec = fmt.record(b)
            if self.blob is None or len(self.blob[2]) + len(rec) > self.page_size:
                self.blob = self._open("BLOB_DATA", self.rows + i)
                self.blob[3].append((self.groups, 0))
                self.groups += 1
            new_group.append((self.blob, len(self.blob[2]), rec))
            self.blob[2] += rec
            self.blob[5] += 1
        for (blob_page, b_start, b_rec), r, values in zip(new_group, raws, index_values):
            rec = fmt.record(r)
            group = blob_page[3][0][0]
            if self.raw is None or len(self.raw[2]) + len(rec) > self.page_size:
                self.raw = self._open("RAW_DATA")
            if not self.raw[3] or self.raw[3][-1][0] != group:
                self.raw[3].append((group, len(self.raw[2])))
            r_start = len(self.raw[2])
            self.raw[2] += rec
            self.index.append((self.rows, self.pages.index(self.raw), r_start, len(self.raw[2]),
                               group, self.pages.index(blob_page), b_start,
                               b_start + len(b_rec), *values))
            self.rows += 1

    def page_dicts(self, shard_id):
        out = []
        for i, (kind, type_id, data, groups, start, end) in enumerate(self.pages):
            blob = kind == "BLOB_DATA"
            out.append({"end_row_id": end if blob else 0, "page_id": i, "page_size": len(data),
                        "page_type": kind, "page_type_id": type_id,
                        "row_group_ids": [{"id": g, "offset": o} for g, o in groups],
                        "shard_id": shard_id, "start_row_id": start if blob else 0})
        return out


class FileWriter:
    """Write rows to ``shard_num`` MindRecord files (``file_name``, or ``file_name0``,
    ``file_name1``, ... when there are several)."""

    def __init__(self, file_name, shard_num=1, overwrite=False):
        if not isinstance(file_name, str) or not file_name:
            raise ParamValueError("Parameter file_name should be a non-empty str.")
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int) or isinstance(shard_num, bool):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not MIN_SHARD_COUNT <= shard_num <= MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{MIN_SHARD_COUNT} and {MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        self._paths = [file_name] if shard_num == 1 else [f"{file_name}{i}"
                                                           for i in range(shard_num)]
        self._overwrite = overwrite
        self._header_size, self._page_size = 1 << 24, 1 << 25
        self._schema, self._desc, self._index = None, "", []
        self._shards = None
        self._compression = 0
        self._committed = False

    # ---------------------------------------------------------------- settings
    def set_header_size(self, header_size):
        if not MIN_HEADER_SIZE <= header_size <= MAX_HEADER_SIZE:
            raise MRMInvalidHeaderSizeError(f"header_size {header_size} should be in "
                                            f"[{MIN_HEADER_SIZE}, {MAX_HEADER_SIZE}].")
        self._header_size = header_size
        return 0

    def set_page_size(self, page_size):
        if not MIN_PAGE_SIZE <= page_size <= MAX_PAGE_SIZE:
            raise MRMInvalidPageSizeError(f"page_size {page_size} should be in "
                                          f"[{MIN_PAGE_SIZE}, {MAX_PAGE_SIZE}].")
        self._page_size = page_size
        return 0

    def add_schema(self, content, desc=None):
        """Set the schema ``{field: {"type": ..., "shape": [...]}}``; returns its id (0)."""
        if not isinstance(content, dict) or not content:
            raise MRMInvalidSchemaError("Schema should be a non-empty dict.")
        for name, spec in content.items():
            if not isinstance(name, str) or not _NAME.match(name):
                raise MRMInvalidSchemaError(f"Field name '{name}' should consist of letters, "
                                            f"digits and underscores.")
            if not isinstance(spec, dict) or spec.get("type") not in fmt.VALID_TYPES:
                raise MRMInvalidSchemaError(f"Field '{name}': type should be one of "
                                            f"{list(fmt.VALID_TYPES)}.")
            if "shape" in spec and (spec["type"] not in fmt.ARRAY_TYPES or
                                    not isinstance(spec["shape"], list)):
                raise MRMInvalidSchemaError(f"Field '{name}': shape needs a list and one of "
                                            f"{list(fmt.ARRAY_TYPES)}.")
            if set(spec) - {"type", "shape"}:
                raise MRMInvalidSchemaError(f"Field '{name}' has unknown keys "
                                            f"{sorted(set(spec) - {'type', 'shape'})}.")
        if desc is not None and not isinstance(desc, str):
            raise ParamTypeError("desc", "str")
        self._schema = {k: dict(v) for k, v in content.items()}
        self._desc = desc or ""
        return 0

    def add_index(self, index_fields):
        """Fields the sqlite index can search by (scalar fields only)."""
        if not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        for f in index_fields:
            if not isinstance(f, str):
                raise ParamTypeError("index field", "str")
            spec = (self._schema or {}).get(f)
            if spec is None or spec["type"] == "bytes" or "shape" in spec:
                raise MRMDefineIndexError(f"Failed to set field {f} since it's not primitive "
                                          f"type.")
        self._index = list(index_fields)
        return 0

    # ------------------------------------------------------------------- rows
    def _check_row(self, row, k):
        if not isinstance(row, dict):
            raise ParamTypeError("raw_data item", "dict")
        for name, spec in self._schema.items():
            if name not in row:
                raise MRMValidateDataError(f"Row {k} has no field '{name}'.")
            v, t = row[name], spec["type"]
            ok = (isinstance(v, str) if t == "string" else
                  isinstance(v, (bytes, bytearray)) if t == "bytes" else
                  isinstance(v, np.ndarray) if "shape" in spec else
                  isinstance(v, (int, float, np.number)) and not isinstance(v, bool))
            if not ok:
                raise MRMValidateDataError(f"Row {k} field '{name}' should be {t}"
                                           f"{' ndarray' if 'shape' in spec else ''}, got "
                                           f"{type(v).__name__}.")

    def _scalars(self, row):
        out = {}
        for name, spec in self._schema.items():
            if spec["type"] == "bytes" or "shape" in spec:
                continue
            v = row[name]
            if spec["type"] in ("int32", "int64"):
                out[name] = int(v)
            elif spec["type"] in ("float32", "float64"):
                out[name] = float(np.float32(v)) if spec["type"] == "float32" else float(v)
            else:
                out[name] = v
        return out

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Validate and lay out a list of row dicts (written to disk by ``commit``)."""
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._schema is None:
            raise MRMValidateDataError("Call add_schema before write_raw_data.")
        if self._committed:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord "
                               "files.")
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        for k, row in enumerate(raw_data):
            self._check_row(row, k)
        if self._shards is None:
            self._shards = [_Shard(self._page_size) for _ in self._paths]
        blobs_fields = fmt.blob_fields(self._schema)
        for shard, rows in zip(self._shards, self._split(raw_data)):
            blobs = []
            for row in rows:
                b, saved = fmt.encode_blob(self._schema, blobs_fields, row)
                self._compression += saved
                blobs.append(b)
                if len(b) + 8 > self._page_size:
                    raise MRMValidateDataError(f"A row's blob data ({len(b)} bytes) does not "
                                               f"fit a page ({self._page_size} bytes); call "
                                               f"set_page_size with a larger size.")
            raws = [_msgpack.pack(self._scalars(r) or {"id": shard.rows + i})
                    for i, r in enumerate(rows)]
            values = [sum(((0, self._scalars(r)[f]) for f in self._index), ()) for r in rows]
            shard.add(blobs, raws, values)
        return 0

    def _split(self, rows):
        """Rows of one call for each shard: contiguous chunks, the extra rows going to
        the shards holding the fewest rows."""
        k = len(self._shards)
        base, extra = divmod(len(rows), k)
        order = sorted(range(k), key=lambda s: (self._shards[s].rows, -s))
        sizes = [base + (1 if s in order[:extra] else 0) for s in range(k)]
        out, pos = [], 0
        for size in sizes:
            out.append(rows[pos:pos + size])
            pos += size
        return out

    # ----------------------------------------------------------------- commit
    def commit(self):
        """Write every shard's file and index."""
        if self._schema is None:
            raise MRMValidateDataError("Call add_schema before commit.")
        if self._shards is None:
            self._shards = [_Shard(self._page_size) for _ in self._paths]
        for p in self._paths:
            for f in (p, p + ".db"):
                if os.path.exists(f):
                    if not self._overwrite:
                        raise RuntimeError(f"Invalid file, mindrecord files already exist. "
                                           f"Please check file path: {f}.")
                    os.remove(f)
        names = [os.path.basename(p) for p in self._paths]
        for shard_id, (path, shard) in enumerate(zip(self._paths, self._shards)):
            self._write_shard(path, shard, shard_id, names)
            self._write_index(path + ".db", shard, names[shard_id])
        self._committed = True
        return 0

    def _write_shard(self, path, shard, shard_id, names):
        header = fmt.header_json(self._header_size, self._page_size, self._index,
                                 shard.page_dicts(shard_id), self._compression, self._schema,
                                 self._desc, names, shard_id)
        if len(header) + 8 > self._header_size:
            raise MRMInvalidHeaderSizeError(f"The header ({len(header)} bytes) does not fit "
                                            f"header_size {self._header_size}; call "
                                            f"set_header_size with a larger size.")
        with open(path, "wb") as f:
            f.write(struct.pack("<Q", len(header)) + header)
            f.write(b"\0" * (self._header_size - 8 - len(header)))
            for i, page in enumerate(shard.pages):
                f.write(bytes(page[2]))
                if i < len(shard.pages) - 1:
                    f.write(b"\0" * (self._page_size - len(page[2])))
        os.chmod(path, 0o600)

    def _write_index(self, path, shard, name):
        con = sqlite3.connect(path)
        try:
            con.execute(fmt.index_table_sql(self._schema, self._index))
            con.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
            con.execute("INSERT INTO SHARD_NAME VALUES (?)", (name,))
            if shard.index:
                marks = ",".join("?" * len(shard.index[0]))
                con.executemany(f"INSERT INTO INDEXES VALUES ({marks})", shard.index)
            con.commit()
        finally:
            con.close()
        os.chmod(path, 0o600)
