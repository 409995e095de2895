"""Standard-format sources: ``CSVDataset``, ``TFRecordDataset`` (records of
``tf.train.Example``, read by ``_tfrecord``) and ``MindDataset`` (from
``msxla.mindrecord``'s reader)."""
from __future__ import annotations

import csv

import numpy as np

from msxla.dataset.engine import _tfrecord
from msxla.dataset.engine._mappable import MappableDataset
from msxla.dataset.engine.datasets_text import FileRowsDataset
from msxla.dataset.engine.samplers import Shuffle


def _column_type(default):
    if isinstance(default, bool) or not isinstance(default, (int, float, str)):
        raise TypeError("column_defaults must be int, float or str values.")
    if isinstance(default, int):
        return np.int32
    if isinstance(default, float):
        return np.float32
    return None


class CSVDataset(FileRowsDataset):
    """Rows of CSV files; without ``column_names`` the first line of the first
    file names the columns. Columns are strings, or int32/float32 where
    ``column_defaults`` gives an int/float."""

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in '"\r\n':
            raise ValueError("field_delim should be a single character other than a quote or "
                             "a line break.")
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards,
                         shard_id, cache)
        self.field_delim = field_delim
        self.column_defaults = list(column_defaults) if column_defaults is not None else None
        self.types = [_column_type(d) for d in self.column_defaults] \
            if self.column_defaults is not None else None
        self.header = column_names is None
        if column_names is None:
            with open(self.dataset_files[0], newline="", encoding="utf-8") as f:
                column_names = next(csv.reader(f, delimiter=field_delim), [])
        self.column_names = list(column_names)

    def _columns(self):
        return list(self.column_names)

    def _read_file(self, path):
        out = []
        with open(path, newline="", encoding="utf-8") as f:
            records = list(csv.reader(f, delimiter=self.field_delim))
        if self.header and path == self.dataset_files[0]:
            records = records[1:]
        for line, rec in enumerate(records, start=2 if self.header else 1):
            if not rec:
                continue
            if len(rec) != len(self.column_names):
                raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at line {line}, "
                                   f"it has {len(rec)} fields but there are "
                                   f"{len(self.column_names)} columns.")
            out.append(tuple(self._convert(v, c, path, line) for c, v in enumerate(rec)))
        return out

    def _convert(self, value, col, path, line):
        t = self.types[col] if self.types else None
        if t is None:
            return np.array(value)
        try:
            return np.array(t(value) if t is np.float32 else int(value), dtype=t)
        except ValueError:
            raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at line {line}, "
                               f"type does not match: column '{self.column_names[col]}' "
                               f"value {value!r} is not {np.dtype(t)}.") from None


def _schema_columns(schema):
    """(names, {name: (dtype, shape)}) of a Schema, a schema JSON file or None."""
    if schema is None:
        return None, {}
    from msxla.dataset.engine.datasets_user_defined import Schema
    if isinstance(schema, str):
        schema = Schema(schema)
        # MindSpore orders a schema file's columns by name
        schema.columns.sort(key=lambda c: c["name"])
    if not isinstance(schema, Schema):
        raise TypeError(f"schema should be a path to a schema file or a Schema, but got "
                        f"{type(schema).__name__}.")
    return schema.get_col_names(), {c["name"]: (c["type"], c.get("shape"))
                                    for c in schema.columns}


class TFRecordDataset(FileRowsDataset):
    """Rows of TFRecord files of ``tf.train.Example`` records: one column per feature
    (sorted by name, or as ``columns_list`` / ``schema`` list them). int64 and float
    lists come as int64 / float32 arrays, a single bytes value as uint8; a ``schema``
    casts and reshapes. With ``num_shards`` the files are split between shards (rows,
    with ``shard_equal_rows``)."""

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, shard_equal_rows=False, cache=None, compression_type=None):
        if compression_type not in (None, ""):
            raise ValueError(f"msxla reads uncompressed TFRecord files only, but "
                             f"compression_type is {compression_type!r}.")
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards,
                         shard_id, cache)
        self.shard_equal_rows = bool(shard_equal_rows)
        if num_shards is not None and not shard_equal_rows:
            if len(self.dataset_files) < num_shards:
                raise RuntimeError(f"Invalid data, the number of TFRecord files "
                                   f"({len(self.dataset_files)}) is less than num_shards "
                                   f"({num_shards}); set shard_equal_rows=True.")
            self.dataset_files = self.dataset_files[shard_id::num_shards]
            self.num_shards = self.shard_id = None
        names, self.schema = _schema_columns(schema)
        if columns_list is not None:
            names = list(columns_list)
        if names is None:
            first = _tfrecord.records(self.dataset_files[0])
            names = sorted(_tfrecord.parse_example(first[0])) if first else []
        self.column_names = names

    def is_sharded(self):
        return self.num_shards is not None or self.shard_equal_rows

    def _columns(self):
        return list(self.column_names)

    def _read_file(self, path):
        out = []
        for k, rec in enumerate(_tfrecord.records(path)):
            feats = _tfrecord.parse_example(rec)
            row = []
            for name in self.column_names:
                if name not in feats:
                    raise RuntimeError(f"Invalid data, column '{name}' is not a feature of "
                                       f"record {k} of {path}.")
                value = _tfrecord.column_value(*feats[name])
                dtype, shape = self.schema.get(name, (None, None))
                if dtype is not None:
                    value = value.astype(dtype)
                if shape:
                    value = value.reshape(shape)
                row.append(value)
            out.append(tuple(row))
        return out


class MindDataset(MappableDataset):
    """Rows of MindRecord files (``msxla.mindrecord``'s format): one column per field
    (sorted by name, or ``columns_list``); bytes fields come as a one-element bytes
    array, as in MindSpore."""

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, sampler=None, padded_sample=None,
                 num_padded=None, num_samples=None, cache=None):
        from msxla.mindrecord._shards import ShardSet, shard_files
        if shuffle is not None and not isinstance(shuffle, (bool, Shuffle)):
            raise TypeError("shuffle should be a bool or a Shuffle mode.")
        super().__init__(num_parallel_workers, sampler, num_samples,
                         None if shuffle is True else shuffle, num_shards, shard_id, cache)
        self.dataset_files = dataset_files
        self._set = ShardSet(shard_files(dataset_files))
        schema = self._set.schema
        if columns_list is not None:
            missing = [c for c in columns_list if c not in schema]
            if missing:
                raise RuntimeError(f"Invalid data, columns_list {missing} are not fields of "
                                   f"the MindRecord schema {sorted(schema)}.")
        self.columns_list = list(columns_list) if columns_list else sorted(schema)
        if (padded_sample is None) != (num_padded is None):
            raise RuntimeError("padded_sample and num_padded should be given together.")
        self.padded_sample, self.num_padded = padded_sample, num_padded or 0

    def _columns(self):
        return list(self.columns_list)

    def _num_rows(self):
        return len(self._set) + self.num_padded

    def _read(self, index):
        from msxla.mindrecord._shards import column
        schema = self._set.schema
        if index >= len(self._set):
            row = self.padded_sample
        else:
            row = self._set.read(index)
        return tuple(column(schema[c], row[c]) for c in self.columns_list)
