"""``MappableDataset``: a source whose rows can be read by index.

Every random-access source (in-memory, file readers, random-access Python
sources) is one of these: it says how many rows it has (``_num_rows``) and
how to read row ``i`` (``_read``); its sampler, chosen from ``sampler``,
``shuffle``, ``num_samples``, ``num_shards`` and ``shard_id`` by MindSpore's
rules, says which rows an epoch reads. Built, it is one grain
``MapDataset`` whose element ``k`` is the row at the sampler's ``k``-th
index, so threads and processes can read rows in parallel in any order.
"""
from __future__ import annotations

from msxla.dataset.engine import _errors
from msxla.dataset.engine._grain_ops import IndexedSource, Lock
from msxla.dataset.engine._stage import Stage, workers_of
from msxla.dataset.engine.datasets import SourceDataset
from msxla.dataset.engine.samplers import BuiltinSampler, check_shards, select_sampler


class MappableDataset(SourceDataset):
    """Base of random-access sources."""

    def __init__(self, num_parallel_workers=None, sampler=None, num_samples=None, shuffle=None,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(num_parallel_workers=num_parallel_workers, cache=cache)
        check_shards(num_shards, shard_id)
        self.shuffle_flag = shuffle
        self.num_samples, self.num_shards, self.shard_id = num_samples, num_shards, shard_id
        self.sampler = select_sampler(num_samples, sampler, shuffle, num_shards, shard_id)
        self._load_lock = Lock()
        self._loaded = None
        self.processes = 0

    # -- subclasses
    def _num_rows(self) -> int:
        raise NotImplementedError

    def _read(self, index: int) -> tuple:
        raise NotImplementedError

    def _describe(self, index: int) -> str:
        return f"sample {index}"

    # -- helpers for subclasses that load their files once, on first use
    def _load_once(self, load):
        if self._loaded is None:
            with self._load_lock:
                if self._loaded is None:
                    self._loaded = load()
        return self._loaded

    # -- Dataset protocol
    def _static_size(self):
        return self.sampler._count(self._num_rows())

    def is_shuffled(self):
        return self.sampler.is_shuffled()

    def is_sharded(self):
        return self.sampler.is_sharded()

    def use_sampler(self, new_sampler):
        if not isinstance(new_sampler, BuiltinSampler):
            raise TypeError("new_sampler should be a sampler.")
        self.sampler = new_sampler

    def add_sampler(self, new_sampler):
        new_sampler.add_child(self.sampler)
        self.sampler = new_sampler

    def _reader(self):
        read, describe, where = self._read, self._describe, self._where
        op = type(self).__name__

        def read_row(index):
            _errors.current.sample = describe(index)
            try:
                return read(index)
            except _errors.PipelineError:
                raise
            except Exception as e:  # noqa: BLE001
                raise self._read_error(op, e, describe(index), where) from None

        return read_row

    def _read_error(self, op, exc, sample, where):
        return _errors.pipeline_error(f"{op} failed to read {sample}: {type(exc).__name__}: "
                                      f"{exc}", op, where)

    def _build(self, ctx):
        n = self._num_rows()
        sampler = self.sampler
        count = sampler._count(n)
        sctx = ctx.child(0x7E)
        ds = IndexedSource(self._reader(), lambda: sampler._indices(n, sctx), count)
        workers = workers_of(self.num_parallel_workers)
        return Stage(ds, workers, self.processes)
