"""``batch``, ``padded_batch`` and ``bucket_batch_by_length``.

Rows are grouped (by grain's ``batch`` on a random-access stage, keeping it
random-access and parallel, or by ``GroupIter`` on a stream), then collated:
``per_batch_map`` gets one list per input column plus a ``BatchInfo`` and
returns one list (or array) per output column, laid out as ``map`` lays out
its outputs; every column is then stacked. Rows whose shapes differ are an
error naming the column and the row, unless ``pad_info`` says how to pad
(``None`` dimensions: the batch's longest; a smaller shape truncates, as
MindSpore does).
"""
from __future__ import annotations

import math

import numpy as np

from msxla.dataset.engine import _errors
from msxla.dataset.engine._grain_ops import GroupIter
from msxla.dataset.engine._stage import workers_of
from msxla.dataset.engine.datasets import Dataset, _check_count, as_column_list


class BatchInfo:
    """What ``per_batch_map`` and a callable ``batch_size`` learn about the batch."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self):
        return self._batch_num

    def get_epoch_num(self):
        return self._epoch_num


def _pad_to(arr, shape, value):
    out = np.full(shape, value, dtype=arr.dtype)
    region = tuple(slice(0, min(a, s)) for a, s in zip(arr.shape, shape))
    out[region] = arr[region]
    return out


def stack_column(values, col, name, pad, sample, where):
    """One batched column; ``pad`` is (shape or None, value) or None for no padding."""
    values = [np.asarray(v) for v in values]
    if pad is not None:
        shape, value = pad
        ndim = values[0].ndim
        longest = [max(v.shape[d] for v in values) for d in range(ndim)]
        target = longest if shape is None else [longest[d] if s is None else s
                                                for d, s in enumerate(shape)]
        if value is None:
            value = "" if values[0].dtype.kind in "US" else 0
        values = [_pad_to(v, target, value) for v in values]
    first = values[0].shape
    for k, v in enumerate(values):
        if v.shape != first:
            raise _errors.pipeline_error(
                f"Cannot batch tensors with different shapes in column {col} ('{name}'). "
                f"First element had shape {list(first)} and element {k} had shape "
                f"{list(v.shape)} ({sample}). Make the rows the same shape, or use "
                f"padded_batch with pad_info.", "batch", where)
    return np.stack(values)


class BatchDataset(Dataset):
    """``dataset.batch(batch_size, drop_remainder, ..., per_batch_map=...)``."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None,
                 per_batch_map=None, input_columns=None, output_columns=None,
                 python_multiprocessing=False, max_rowsize=None, pad_info=None, padded=False,
                 column_order=None):
        super().__init__(child, num_parallel_workers)
        if not callable(batch_size):
            _check_count("batch_size", batch_size)
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"drop_remainder must be a bool, but got {type(drop_remainder)}.")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError("per_batch_map should be a callable Python function.")
        if pad_info is not None and not isinstance(pad_info, dict):
            raise TypeError("pad_info should be a dict of {column: (shape, value)}.")
        self.batch_size, self.drop_remainder = batch_size, drop_remainder
        self.per_batch_map = per_batch_map
        self.input_columns = as_column_list(input_columns, "input_columns")
        self.output_columns = as_column_list(output_columns, "output_columns")
        self.python_multiprocessing = bool(python_multiprocessing)
        self.pad_info = pad_info if padded else None

    def _layout(self):
        cols = self.children[0]._columns()
        if self.per_batch_map is None:
            return cols, None, None, cols
        ins = self.input_columns or cols
        outs = self.output_columns or ins
        in_idx = self._input_index(ins)
        if len(ins) == len(outs):
            names = list(cols)
            for i, o in zip(in_idx, outs):
                names[i] = o
            return names, in_idx, None, outs
        rest = [j for j, c in enumerate(cols) if c not in ins]
        return list(outs) + [cols[j] for j in rest], in_idx, rest, outs

    def _columns(self):
        return self._layout()[0]

    def _static_size(self):
        n = self.children[0]._static_size()
        if n is None or callable(self.batch_size):
            return None
        return n // self.batch_size if self.drop_remainder else math.ceil(n / self.batch_size)

    def get_batch_size(self):
        return self.batch_size if not callable(self.batch_size) else -1

    def _pads(self, names):
        if self.pad_info is None:
            return [None] * len(names)
        pads = []
        for n in names:
            p = self.pad_info.get(n, (None, 0))
            pads.append((None if p[0] is None else list(p[0]), p[1]))
        return pads

    def _collate_fn(self, ctx):
        names, in_idx, rest, outs = self._layout()
        pads = self._pads(names)
        pbm, epoch, where = self.per_batch_map, ctx.epoch, self._where
        in_names = [self.children[0]._columns()[i] for i in in_idx] if in_idx else None

        def collate(batch_num, rows):
            sample = f"batch {batch_num} of epoch {epoch}"
            cols = list(zip(*rows))
            if pbm is not None:
                args = [list(cols[i]) for i in in_idx] + [BatchInfo(batch_num, epoch)]
                result = _errors.call_user(pbm, args, "batch operation [per_batch_map]",
                                           lambda: sample, in_names, where)
                result = result if isinstance(result, tuple) else (result,)
                if len(result) != len(outs):
                    raise _errors.pipeline_error(
                        f"per_batch_map returned {len(result)} columns but output_columns has "
                        f"{len(outs)} ({outs}).", "batch", where)
                if rest is None:
                    cols = list(cols)
                    for k, i in enumerate(in_idx):
                        cols[i] = result[k]
                else:
                    cols = list(result) + [cols[j] for j in rest]
            return tuple(stack_column(c, i, names[i], pads[i], sample, where)
                         for i, c in enumerate(cols))

        return collate

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        collate = self._collate_fn(ctx)
        workers = workers_of(self.num_parallel_workers)
        procs = workers if self.python_multiprocessing and workers > 1 else 0
        if stage.random_access and not callable(self.batch_size):
            grouped = stage.ds.batch(self.batch_size, drop_remainder=self.drop_remainder,
                                     batch_fn=list)
            return stage.with_ds(grouped.map_with_index(collate), workers, procs)
        stage = stage.to_iter()
        return stage.with_ds(GroupIter(stage.ds, self._groups(ctx, collate)))

    def _groups(self, ctx, collate):
        size, drop, epoch = self.batch_size, self.drop_remainder, ctx.epoch

        def group(rows):
            batch_num = 0
            while True:
                want = size(BatchInfo(batch_num, epoch)) if callable(size) else size
                chunk = []
                for row in rows:
                    chunk.append(row)
                    if len(chunk) == want:
                        break
                if not chunk or (drop and len(chunk) < want):
                    return
                yield collate(batch_num, chunk)
                batch_num += 1

        return group


class BucketBatchByLengthDataset(Dataset):
    """Rows go to the bucket of their length; a full bucket is one (padded) batch."""

    def __init__(self, child, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False,
                 drop_remainder=False):
        super().__init__(child)
        self.column_names = as_column_list(column_names, "column_names")
        bounds = list(bucket_boundaries)
        if not bounds or any(not isinstance(b, int) or b <= 0 for b in bounds) or \
                any(a >= b for a, b in zip(bounds, bounds[1:])):
            raise ValueError("bucket_boundaries must be a non-empty list of positive, "
                             "strictly increasing integers.")
        if len(bucket_batch_sizes) != len(bounds) + 1 or \
                any(not isinstance(s, int) or s <= 0 for s in bucket_batch_sizes):
            raise ValueError("bucket_batch_sizes must be a list of len(bucket_boundaries) + 1 "
                             "positive integers.")
        if element_length_function is None and len(self.column_names) != 1:
            raise ValueError("When element_length_function is None, column_names must name "
                             "exactly one column.")
        self.bounds, self.sizes = bounds, list(bucket_batch_sizes)
        self.length_fn = element_length_function
        self.pad_info = pad_info
        self.pad_to_bucket_boundary = pad_to_bucket_boundary
        self.drop_remainder = drop_remainder

    def _static_size(self):
        return None

    def _build(self, ctx):
        stage = self._child_stage(ctx).to_iter()
        names = self._columns()
        idx = self._input_index(self.column_names)
        where, epoch = self._where, ctx.epoch
        bounds, sizes, fn = self.bounds, self.sizes, self.length_fn
        pad_info = self.pad_info or {}

        def pads(bucket):
            out = []
            for n in names:
                if self.pad_info is None:
                    out.append(None)
                    continue
                shape, value = pad_info.get(n, (None, 0))
                shape = None if shape is None else list(shape)
                if self.pad_to_bucket_boundary and bucket < len(bounds):
                    shape = [bounds[bucket] - 1 if s is None else s for s in (shape or [None])]
                out.append((shape, value))
            return out

        def emit(bucket, rows, k):
            p = pads(bucket)
            sample = f"batch {k} of epoch {epoch}"
            return tuple(stack_column(c, i, names[i], p[i], sample, where)
                         for i, c in enumerate(zip(*rows)))

        def group(rows):
            buckets = [[] for _ in sizes]
            k = 0
            for row in rows:
                args = tuple(row[i] for i in idx)
                length = int(_errors.call_user(fn, args, "element_length_function",
                                               columns=self.column_names, where=where)) \
                    if fn is not None else int(np.shape(args[0])[0])
                b = int(np.searchsorted(bounds, length, side="right"))
                buckets[b].append(row)
                if len(buckets[b]) == sizes[b]:
                    yield emit(b, buckets[b], k)
                    k, buckets[b] = k + 1, []
            if not self.drop_remainder:
                for b, rows_b in enumerate(buckets):
                    if rows_b:
                        yield emit(b, rows_b, k)
                        k += 1

        return stage.with_ds(GroupIter(stage.ds, group))
