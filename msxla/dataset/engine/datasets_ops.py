"""Operations that reorder, cut, join or rename rows without computing on them.

``shuffle`` on a random-access stage is grain's global shuffle (a new
permutation every epoch; MindSpore's is a buffer shuffle, so the orders
differ but both are random permutations for buffers as large as the data);
on a stream it is grain's window shuffle of ``buffer_size`` rows. ``repeat``
builds each repetition afresh, so samplers and shuffles draw a new order
each time, as MindSpore's do.
"""
from __future__ import annotations

import logging

import grain
import numpy as np

from msxla.dataset.core import config
from msxla.dataset.engine._grain_ops import (
    ChainIter, IndexedSource, RepeatMap, SliceIter, ZipIter, ZipMap, MapIter)
from msxla.dataset.engine.datasets import Dataset, _check_count, as_column_list

_log = logging.getLogger(__name__)


class ShuffleDataset(Dataset):
    """``dataset.shuffle(buffer_size)``."""

    def __init__(self, child, buffer_size):
        super().__init__(child)
        _check_count("buffer_size", buffer_size, low=2)
        self.buffer_size = buffer_size

    def is_shuffled(self):
        return True

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        seed = ctx.seed_for(0x53)
        if stage.random_access:
            return stage.with_ds(stage.ds.shuffle(seed=seed))
        return stage.with_ds(grain.experimental.WindowShuffleIterDataset(
            stage.ds, window_size=self.buffer_size, seed=seed))


class RepeatDataset(Dataset):
    """``dataset.repeat(count)``: ``count`` runs of the child, each built anew."""

    def __init__(self, child, count=None):
        super().__init__(child)
        if count is not None:
            _check_count("count", count, allow_minus_one=True)
        self.count = None if count in (None, -1) else count

    def get_repeat_count(self):
        return -1 if self.count is None else self.count

    def _static_size(self):
        n = self.children[0]._static_size()
        if n is None:
            return None
        return n if self.count is None else n * self.count

    def _build(self, ctx):
        def build(r):
            return self.children[0]._build(ctx.child(0, r))

        first = build(0)
        if self.count is not None and first.random_access:
            if self.count == 1:
                return first
            built = {0: first.ds}

            def build_ds(r):
                return built.pop(r) if r in built else build(r).ds

            return first.with_ds(RepeatMap(build_ds, self.count, len(first.ds)))
        pending = [first]

        def build_iter(r):
            stage = pending.pop() if r == 0 and pending else build(r)
            return stage.to_iter().ds

        return first.to_iter().with_ds(ChainIter(build_iter, self.count))


class TakeDataset(Dataset):
    """``dataset.take(count)``: the first ``count`` rows."""

    def __init__(self, child, count=-1):
        super().__init__(child)
        _check_count("count", count, allow_minus_one=True)
        self.count = count

    def _static_size(self):
        n = self.children[0]._static_size()
        if n is None or self.count == -1:
            return n
        return min(n, self.count)

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        if self.count == -1:
            return stage
        if stage.random_access:
            return stage.with_ds(stage.ds[:self.count])
        return stage.with_ds(SliceIter(stage.ds, 0, self.count))


class SkipDataset(Dataset):
    """``dataset.skip(count)``: all rows but the first ``count``."""

    def __init__(self, child, count):
        super().__init__(child)
        _check_count("count", count, low=0)
        self.count = count

    def _static_size(self):
        n = self.children[0]._static_size()
        return None if n is None else max(0, n - self.count)

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        if stage.random_access:
            return stage.with_ds(stage.ds[self.count:])
        return stage.with_ds(SliceIter(stage.ds, self.count, None))


class ProjectDataset(Dataset):
    """``dataset.project(columns)``: only these columns, in this order."""

    def __init__(self, child, columns):
        super().__init__(child)
        self.columns = as_column_list(columns, "columns")

    def _columns(self):
        cols = self.children[0]._columns()
        for c in self.columns:
            if c not in cols:
                raise self._error(f"Invalid column, column name: {c} does not exist in "
                                  f"{cols}.")
        return list(self.columns)

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        cols = self.children[0]._columns()
        idx = [cols.index(c) for c in self._columns()]

        def pick(row):
            return tuple(row[i] for i in idx)

        if stage.random_access:
            return stage.with_ds(stage.ds.map(pick))
        return stage.with_ds(MapIter(stage.ds, lambda i, row: pick(row)))


class RenameDataset(Dataset):
    """``dataset.rename(input_columns, output_columns)``."""

    def __init__(self, child, input_columns, output_columns):
        super().__init__(child)
        self.input_columns = as_column_list(input_columns, "input_columns")
        self.output_columns = as_column_list(output_columns, "output_columns")
        if len(self.input_columns) != len(self.output_columns):
            raise ValueError("input_columns and output_columns should have the same length.")

    def _columns(self):
        cols = list(self.children[0]._columns())
        for a, b in zip(self.input_columns, self.output_columns):
            if a not in cols:
                raise self._error(f"Invalid column, column to be renamed does not exist: {a} "
                                  f"is not in {self.children[0]._columns()}.")
            cols[cols.index(a)] = b
        if len(set(cols)) != len(cols):
            raise self._error(f"Invalid column, renaming gives duplicate column names {cols}.")
        return cols

    def _build(self, ctx):
        return self._child_stage(ctx)


class ZipDataset(Dataset):
    """``ds.zip((a, b, ...))``: rows side by side; the shortest sets the size."""

    def _columns(self):
        out = []
        for c in self.children:
            for name in c._columns():
                if name in out:
                    raise self._error(f"Invalid data, duplicate column {name} already exists "
                                      f"when zipping datasets.")
                out.append(name)
        return out

    def _static_size(self):
        sizes = [c._static_size() for c in self.children]
        return None if None in sizes else min(sizes)

    def get_batch_size(self):
        return self.children[0].get_batch_size()

    def _build(self, ctx):
        self._columns()
        stages = [c._build(ctx.child(i)) for i, c in enumerate(self.children)]
        if all(s.random_access for s in stages):
            out = stages[0]
            for s in stages[1:]:
                out = out.with_ds(out.ds, s.threads, s.processes)
            return out.with_ds(ZipMap([s.ds for s in stages]))
        iters = [s.to_iter().ds for s in stages]
        return stages[0].to_iter().with_ds(ZipIter(iters))


class ConcatDataset(Dataset):
    """``a + b`` / ``a.concat([b, c])``: all rows of each in turn."""

    def _columns(self):
        first = self.children[0]._columns()
        for c in self.children[1:]:
            if c._columns() != first:
                raise self._error(f"Invalid data, column names of the datasets to concat "
                                  f"differ: {first} and {c._columns()}.")
        return first

    def _static_size(self):
        sizes = [c._static_size() for c in self.children]
        return None if None in sizes else sum(sizes)

    def _build(self, ctx):
        self._columns()
        stages = [c._build(ctx.child(i)) for i, c in enumerate(self.children)]
        if all(s.random_access for s in stages):
            out = stages[0]
            for s in stages[1:]:
                out = out.with_ds(out.ds, s.threads, s.processes)
            return out.with_ds(grain.MapDataset.concatenate([s.ds for s in stages]))
        iters = [s.to_iter().ds for s in stages]
        return stages[0].to_iter().with_ds(ChainIter(lambda r: iters[r], len(iters)))


class FlatMapDataset(Dataset):
    """``dataset.flat_map(func)``: ``func(row)`` returns a Dataset; all their rows in turn."""

    def __init__(self, child, func):
        super().__init__(child)
        if not callable(func):
            raise TypeError("func should be a callable Python function.")
        self.func = func
        self._probe = None

    def _columns(self):
        if self._probe is None:
            row = next(iter(self.children[0]._rows_of_one_epoch()))
            self._probe = self.func(*row)
        return self._probe._columns()

    def _static_size(self):
        return None

    def _build(self, ctx):
        stage = self._child_stage(ctx).to_iter()
        func = self.func

        def rows(parent):
            for k, row in enumerate(parent):
                inner = func(*row)
                if not isinstance(inner, Dataset):
                    raise TypeError("flat_map: func must return a Dataset.")
                it = iter(inner._build(ctx.child(1, k)).to_iter().ds)
                try:
                    yield from it
                finally:
                    it.close()

        from msxla.dataset.engine._grain_ops import GroupIter
        return stage.with_ds(GroupIter(stage.ds, rows))


class SplitDataset(Dataset):
    """One part of ``split``: the child's rows at ``indices`` (reshuffled per epoch if asked)."""

    def __init__(self, child, indices, shuffle):
        super().__init__(child)
        self.indices, self.shuffle_each_epoch = np.asarray(indices, np.int64), shuffle

    def _static_size(self):
        return len(self.indices)

    def is_shuffled(self):
        return self.shuffle_each_epoch or super().is_shuffled()

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        idx = self.indices
        if self.shuffle_each_epoch:
            idx = np.random.default_rng(ctx.seed_for(0x51)).permutation(idx)
        if stage.random_access:
            parent = stage.ds
            return stage.with_ds(IndexedSource(lambda i: parent[i], lambda: idx, len(idx)))
        keep = set(idx.tolist())
        return stage.with_ds(MapIter(stage.ds, lambda i, row: row if i in keep else None))


def _absolute_sizes(sizes, total):
    if not isinstance(sizes, list) or not sizes:
        raise TypeError("sizes should be a non-empty list of int or float.")
    if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError("sizes should be positive integers.")
        if sum(sizes) != total:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size "
                               f"{total}.")
        return list(sizes)
    if not all(isinstance(s, float) for s in sizes):
        raise TypeError("sizes should be all int or all float.")
    if any(s <= 0 or s > 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
        raise ValueError("sizes as floats must each be in (0, 1] and sum to 1.")
    out = [round(s * total) for s in sizes]
    if any(s == 0 for s in out):
        raise RuntimeError(f"Split sizes {sizes} of {total} rows give an empty split.")
    out[0] += total - sum(out)
    if out[0] <= 0:
        raise RuntimeError(f"Split sizes {sizes} of {total} rows give an empty split.")
    return out


def split(dataset, sizes, randomize=True):
    """``dataset.split(sizes, randomize)``: disjoint parts of the given sizes."""
    if dataset.is_sharded():
        raise RuntimeError("Dataset should not be sharded before split.")
    if dataset.is_shuffled():
        _log.warning("Dataset is shuffled before split.")
    total = dataset.get_dataset_size()
    parts = _absolute_sizes(sizes, total)
    order = np.arange(total)
    if randomize:
        order = np.random.default_rng(config.run_seed()).permutation(total)
    out, start = [], 0
    for size in parts:
        out.append(SplitDataset(dataset, np.sort(order[start:start + size]) if not randomize
                                else order[start:start + size], randomize))
        start += size
    return tuple(out)
