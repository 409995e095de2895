"""File-row sources: ``TextFileDataset`` here, ``CSVDataset`` in
``datasets_standard_format.py``; both read their files once, keep the rows in
memory and serve them in MindSpore's order (``_file_rows``)."""
from __future__ import annotations

import numpy as np

from msxla.dataset.engine._file_rows import expand_files, row_order
from msxla.dataset.engine._grain_ops import IndexedSource, Lock
from msxla.dataset.engine._stage import Stage, workers_of
from msxla.dataset.engine.datasets import SourceDataset
from msxla.dataset.engine.samplers import Shuffle, check_shards


def _shuffle_flag(shuffle):
    if shuffle is None or shuffle is True:
        return True
    if shuffle is False:
        return False
    if isinstance(shuffle, Shuffle):
        return shuffle != Shuffle.FALSE
    raise TypeError(f"shuffle should be a bool or a Shuffle mode, got {shuffle!r}.")


class FileRowsDataset(SourceDataset):
    """Base of the sources whose rows are the lines/records of a list of files."""

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        super().__init__(num_parallel_workers=num_parallel_workers, cache=cache)
        check_shards(num_shards, shard_id)
        self.dataset_files = expand_files(dataset_files)
        self.num_samples = num_samples or None
        self.shuffle_flag = _shuffle_flag(shuffle)
        self.num_shards, self.shard_id = num_shards, shard_id
        self._rows = None
        self._lock = Lock()

    def _read_file(self, path) -> list:
        raise NotImplementedError

    def _all_rows(self):
        if self._rows is None:
            with self._lock:
                if self._rows is None:
                    self._rows = [self._read_file(p) for p in self.dataset_files]
        return self._rows

    def _order(self):
        rows = self._all_rows()
        order = row_order([len(r) for r in rows], self.num_shards, self.shard_id,
                          workers_of(self.num_parallel_workers))
        return order[:self.num_samples] if self.num_samples else order

    def _static_size(self):
        return len(self._order())

    def is_shuffled(self):
        return self.shuffle_flag

    def is_sharded(self):
        return self.num_shards is not None

    def _build(self, ctx):
        rows, order = self._all_rows(), self._order()
        if self.shuffle_flag:
            perm = np.random.default_rng(ctx.seed_for(0x46)).permutation(len(order))
            order = [order[i] for i in perm]

        def read(i):
            f, r = order[i]
            return rows[f][r]

        return Stage(IndexedSource(read, lambda: np.arange(len(order)), len(order)),
                     workers_of(self.num_parallel_workers))


class TextFileDataset(FileRowsDataset):
    """One row per non-empty line of the text files: column ``text`` (str)."""

    def _columns(self):
        return ["text"]

    def _read_file(self, path):
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        return [(np.array(line),) for line in lines if line]
