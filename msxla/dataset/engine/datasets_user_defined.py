"""Sources from the user's Python objects: ``GeneratorDataset``,
``NumpySlicesDataset``, ``PaddedDataset``, and ``Schema``.

``GeneratorDataset`` takes three kinds of source, as MindSpore does:

* random-access (``__getitem__`` and ``__len__``): a ``MappableDataset``,
  so it shuffles, shards and reads in parallel threads, or worker processes
  with ``python_multiprocessing`` and ``num_parallel_workers > 1``;
* iterable (``__iter__``) or a callable returning an iterator (a generator
  function): a stream, read once per epoch in order; it cannot be sampled or
  sharded, and its size is counted by running it;
* anything else is a TypeError.

Every value the source returns becomes a row (``_rows.to_row``); a row with
the wrong number of columns, or a dtype other than ``column_types`` says, is
an error naming the sample.
"""
from __future__ import annotations

import json

import numpy as np

from msxla.dataset.engine import _errors, _rows
from msxla.dataset.engine._grain_ops import IterSource
from msxla.dataset.engine._mappable import MappableDataset
from msxla.dataset.engine._stage import Stage, workers_of
from msxla.dataset.engine.datasets import SourceDataset, as_column_list


def _np_dtype(t):
    if t is None:
        return None
    from msxla.common import dtype as mstype
    if isinstance(t, mstype.Type):
        return np.dtype(mstype.dtype_to_nptype(t))
    return np.dtype(t)


class Schema:
    """Column names, types and shapes of a source (``mindspore.dataset.Schema``)."""

    def __init__(self, schema_file=None):
        self.columns = []
        self.num_rows = None
        if schema_file is not None:
            with open(schema_file) as f:
                self.from_json(json.load(f))

    def add_column(self, name, de_type, shape=None):
        if not isinstance(name, str) or not name:
            raise TypeError("name should be a non-empty str.")
        col = {"name": name, "type": _np_dtype(de_type) if not isinstance(de_type, str)
               else np.dtype(de_type)}
        if shape is not None:
            col["shape"] = list(shape)
        self.columns.append(col)

    def parse_columns(self, columns):
        for name, spec in (columns.items() if isinstance(columns, dict)
                           else ((c["name"], c) for c in columns)):
            self.add_column(name, spec["type"], spec.get("shape"))

    def from_json(self, json_obj):
        self.parse_columns(json_obj["columns"])
        self.num_rows = json_obj.get("numRows")

    def to_json(self):
        cols = {c["name"]: {"type": str(c["type"]), **({"shape": c["shape"]} if "shape" in c
                                                         else {})} for c in self.columns}
        return json.dumps({"columns": cols, "numRows": self.num_rows}, indent=2)

    def get_col_names(self):
        return [c["name"] for c in self.columns]

    def get_col_types(self):
        return [c["type"] for c in self.columns]


def _row_checker(names, types, who):
    def check(value, sample):
        row = _rows.check_width(_rows.to_row(value), names, who)
        if types:
            for col, (v, t) in enumerate(zip(row, types)):
                if t is not None and getattr(v, "dtype", t) != t:
                    raise RuntimeError(
                        f"Invalid Python function, type of returned data in '{who}' should be "
                        f"same with specified column_types: column '{names[col]}' of {sample} "
                        f"is {v.dtype}, column_types says {t}.")
        return row
    return check


class _RandomAccessSource(MappableDataset):
    """A ``GeneratorDataset`` over ``source[i]``."""

    def __init__(self, owner, source, **kwargs):
        super().__init__(**kwargs)
        self.source, self.owner = source, owner

    def _num_rows(self):
        return len(self.source)

    def _read(self, index):
        return self.owner._check(self.source[index], f"sample {index}")

    def _read_error(self, op, exc, sample, where):
        return _errors.user_function_error(f"{op} source[i]", exc, sample, where=where)


class GeneratorDataset(SourceDataset):
    """Rows from a Python generator, iterable or random-access object."""

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None,
                 batch_sampler=None, collate_fn=None):
        super().__init__(num_parallel_workers=num_parallel_workers)
        if batch_sampler is not None or collate_fn is not None:
            raise NotImplementedError("GeneratorDataset's batch_sampler and collate_fn are not "
                                      "supported; use .batch(per_batch_map=...) instead.")
        if schema is not None:
            if isinstance(schema, str):
                schema = Schema(schema)
            names, types = schema.get_col_names(), schema.get_col_types()
        elif column_names is not None:
            names = as_column_list(column_names, "column_names")
            types = [_np_dtype(t) for t in column_types] if column_types else None
        else:
            raise ValueError("Neither columns_names nor schema are provided.")
        self.column_names, self.column_types = names, types
        self.source = source
        self.python_multiprocessing = python_multiprocessing
        self._checker = _row_checker(names, types, "GeneratorDataset")
        self._random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if self._random_access:
            self._mappable = _RandomAccessSource(
                self, source, num_parallel_workers=num_parallel_workers, sampler=sampler,
                num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                shard_id=shard_id)
            self._mappable._where = self._where
            workers = workers_of(num_parallel_workers)
            if python_multiprocessing and workers > 1:
                self._mappable.processes = workers
            self.sampler = self._mappable.sampler
        else:
            if not (callable(source) or hasattr(source, "__iter__")):
                raise TypeError("Input `source` function of GeneratorDataset should be callable, "
                                "iterable or random accessible, got " + type(source).__name__)
            if num_shards is not None or sampler is not None:
                what = "num_shards" if num_shards is not None else "sampler"
                raise ValueError(f"{what} is not supported if source does not have attribute "
                                 f"'__getitem__'.")
            self.num_samples = num_samples or None
            self.sampler = None

    def _check(self, value, sample):
        return self._checker(value, sample)

    def _columns(self):
        return list(self.column_names)

    def _static_size(self):
        if self._random_access:
            return self._mappable._static_size()
        return None

    def is_shuffled(self):
        return self._random_access and self._mappable.is_shuffled()

    def is_sharded(self):
        return self._random_access and self._mappable.is_sharded()

    def use_sampler(self, new_sampler):
        self._mappable.use_sampler(new_sampler)
        self.sampler = new_sampler

    def _build(self, ctx):
        if self._random_access:
            return self._mappable._build(ctx)
        source, limit, where, check = self.source, self.num_samples, self._where, self._check

        def rows():
            it = _errors.call_user(lambda: iter(source() if callable(source) else source), (),
                                   "GeneratorDataset source", where=where)
            k = 0
            while limit is None or k < limit:
                sample = f"sample {k}"
                try:
                    value = next(it)
                except StopIteration:
                    return
                except Exception as e:  # noqa: BLE001
                    raise _errors.user_function_error("GeneratorDataset source", e, sample,
                                                      where=where) from None
                yield _errors.call_user(check, (value, sample), "GeneratorDataset source",
                                        lambda: sample, where=where)
                k += 1

        return Stage(IterSource(rows), 1, 0)


def _slices(data, column_names):
    """Column names and per-column sliceable values of NumpySlicesDataset's ``data``."""
    if isinstance(data, dict):
        names, cols = list(data.keys()), list(data.values())
    elif isinstance(data, tuple):
        names, cols = [f"column_{i}" for i in range(len(data))], list(data)
    elif hasattr(data, "columns") and hasattr(data, "to_dict"):  # pandas.DataFrame
        names = [str(c) for c in data.columns]
        cols = [data[c].to_numpy() for c in data.columns]
    else:
        names, cols = ["column_0"], [data]
    cols = [c if isinstance(c, (np.ndarray, list)) else np.asarray(c) for c in cols]
    if column_names is not None:
        column_names = as_column_list(column_names, "column_names")
        if len(column_names) != len(cols):
            raise ValueError(f"column_names {column_names} do not match the {len(cols)} "
                             f"columns of data.")
        names = column_names
    if len({len(c) for c in cols}) > 1:
        raise ValueError("Data length in each column is not equal.")
    return names, cols


class NumpySlicesDataset(GeneratorDataset):
    """Rows sliced along the first dimension of in-memory data (list, tuple, dict, array)."""

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        names, cols = _slices(data, column_names)
        super().__init__(_Slices(cols), column_names=names, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id,
                         python_multiprocessing=False)


class _Slices:
    def __init__(self, cols):
        self.cols = cols
        self.n = len(cols[0]) if cols else 0

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return tuple(_rows.to_column(c[i]) for c in self.cols)


class PaddedDataset(GeneratorDataset):
    """Rows given as a list of ``{column: value}`` dicts (used to pad shards)."""

    def __init__(self, padded_samples):
        if not isinstance(padded_samples, list) or not padded_samples or \
                not all(isinstance(s, dict) for s in padded_samples):
            raise TypeError("padded_samples should be a non-empty list of dict.")
        names = list(padded_samples[0].keys())
        rows = [tuple(_rows.to_column(s[n]) for n in names) for s in padded_samples]
        super().__init__(rows, column_names=names, shuffle=False, num_parallel_workers=1,
                         python_multiprocessing=False)
        self.padded_samples = padded_samples
