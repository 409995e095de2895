"""Random access to the rows of a set of MindRecord shard files.

The row table comes from each shard's sqlite index (``<file>.db``: the raw and
blob page and offsets of every row); a shard without one is scanned page by
page. Rows are read with ``os.pread`` on file descriptors opened lazily per
process, so readers in threads share them and worker processes open their own.
"""
from __future__ import annotations

import os
import sqlite3
import threading

import numpy as np

from msxla.mindrecord import _format as fmt
from msxla.mindrecord import _msgpack


def shard_files(dataset_files):
    """The files to read: one file -> every shard its header lists (same folder);
    a list -> exactly those files, in that order."""
    if isinstance(dataset_files, str):
        header = fmt.read_header(dataset_files)
        folder = os.path.dirname(os.path.abspath(dataset_files))
        return [os.path.join(folder, name) for name in header["shard_addresses"]]
    return [os.path.abspath(f) for f in dataset_files]


def _rows_from_db(path, header):
    hs, ps = header["header_size"], header["page_size"]
    con = sqlite3.connect(f"file:{path}.db?mode=ro", uri=True)
    try:
        found = con.execute("SELECT ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, "
                            "PAGE_ID_BLOB, PAGE_OFFSET_BLOB, PAGE_OFFSET_BLOB_END FROM INDEXES "
                            "ORDER BY ROW_ID").fetchall()
    finally:
        con.close()
    seen, out = set(), []
    for row, pr, r0, r1, pb, b0, b1 in found:
        if row in seen:  # one line per index-field combination
            continue
        seen.add(row)
        out.append((hs + pr * ps + r0 + 8, r1 - r0 - 8, hs + pb * ps + b0 + 8, b1 - b0 - 8))
    return out


def _rows_from_pages(path, header):
    hs, ps = header["header_size"], header["page_size"]
    raws, blobs = [], []
    with open(path, "rb") as f:
        for page in sorted(header["page"], key=lambda p: p["page_id"]):
            f.seek(hs + page["page_id"] * ps)
            data = f.read(page["page_size"])
            base = hs + page["page_id"] * ps
            target = blobs if page["page_type"] == "BLOB_DATA" else raws
            key = page["page_type_id"]
            target.extend((key, base + s + 8, e - s - 8) for _, s, e in fmt.records(data))
    raws.sort(key=lambda r: r[:2])
    blobs.sort(key=lambda b: b[:2])
    return [(r[1], r[2], b[1], b[2]) for r, b in zip(raws, blobs)]


class ShardSet:
    """Every row of some shard files: ``len``, ``read(i) -> {field: value}``."""

    def __init__(self, files):
        self.files = list(files)
        for f in self.files:
            if not os.path.isfile(f):
                raise ValueError(f"The following patterns did not match any files: [{f!r}].")
        headers = [fmt.read_header(f) for f in self.files]
        entry = headers[0]["schema"][0]
        self.schema, self.desc = entry["schema"], entry.get("desc", "")
        self.blob_fields = fmt.blob_fields(self.schema)
        self.index_fields = [i["index_field"] for i in headers[0].get("index_fields") or []]
        self._table = []
        for k, (f, h) in enumerate(zip(self.files, headers)):
            rows = _rows_from_db(f, h) if os.path.exists(f + ".db") else _rows_from_pages(f, h)
            self._table.extend((k,) + r for r in rows)
        self._fds = {}
        self._lock = threading.Lock()

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_fds"], state["_lock"] = {}, None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._table)

    def _fd(self, k):
        key = (os.getpid(), k)
        fd = self._fds.get(key)
        if fd is None:
            with self._lock:
                fd = self._fds.get(key)
                if fd is None:
                    fd = self._fds[key] = os.open(self.files[k], os.O_RDONLY)
        return fd

    def read(self, i):
        k, raw_at, raw_len, blob_at, blob_len = self._table[i]
        fd = self._fd(k)
        raw = _msgpack.unpack(os.pread(fd, raw_len, raw_at))
        if not set(self.schema) - set(self.blob_fields):
            raw = {}  # MindSpore writes {"id": n} for rows without scalar fields
        if self.blob_fields:
            raw.update(fmt.decode_blob(self.schema, self.blob_fields,
                                       os.pread(fd, blob_len, blob_at)))
        return raw

    def close(self):
        with self._lock:
            for key, fd in list(self._fds.items()):
                if key[0] == os.getpid():
                    os.close(fd)
            self._fds.clear()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def column(spec, value):
    """A field's value as MindDataset returns it."""
    t = spec["type"]
    if t == "bytes":
        return np.array([bytes(value)])
    if t == "string":
        return np.array(value)
    if "shape" in spec:
        return np.asarray(value, dtype=t)
    return np.array(value, dtype=t)


def python_value(spec, value):
    """A field's value as FileReader returns it."""
    if spec["type"] in ("int32", "int64") and "shape" not in spec:
        return int(value)
    if spec["type"] in ("float32", "float64") and "shape" not in spec:
        v = float(value)  # MindSpore's reader gives integral floats as ints
        return int(v) if v.is_integer() else v
    return value

