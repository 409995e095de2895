"""Worker processes for a random-access stage.

Each worker runs grain's per-process prefetch (``ProcessPrefetchIterDataset``:
the pipeline pickled into the process, rows and errors sent back through a
queue, clean shutdown) on every ``n``-th element of the stage; the workers'
rows are interleaved in order, so the output is the stage's order whatever
the number of workers. This replaces grain's ``mp_prefetch``, whose
interleave starts the workers from a pool of threads: forking from several
threads at once can deadlock the process (seen under load), so here all
workers are forked one after the other by the thread that creates the
iterator, before any row is read.
"""
from __future__ import annotations

import grain
from grain._src.python.dataset import base as _grain_base
from grain._src.python.dataset.transformations import prefetch as _grain_prefetch
from grain._src.python.dataset.transformations import process_prefetch as _grain_processes

from msxla.dataset.engine._grain_ops import _PyIterator


class OrderedWorkers(grain.IterDataset):
    """Rows of the worker shards, round-robin (the shards are ``i::n`` slices)."""

    def __iter__(self):
        its = [shard.__iter__() for shard in self._parents]
        for it in its:
            it.start_prefetch()
        return _PyIterator(_round_robin(its), its)

    def __str__(self):
        return f"OrderedWorkers({len(self._parents)})"


def _round_robin(its):
    active = list(its)
    while active:
        for it in list(active):
            try:
                yield next(it)
            except StopIteration:
                active.remove(it)


def _die_with_parent():
    """In a worker: end when the process that forked it ends (Linux), so a killed
    training script leaves no worker behind."""
    import ctypes
    import signal
    import sys
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:  # pragma: no cover - no libc to ask
            pass


def in_processes(ds: grain.IterDataset, num_workers: int, buffer_size: int) -> grain.IterDataset:
    """``ds`` (a sliceable iter dataset made from a MapDataset) computed by
    ``num_workers`` processes, in order."""
    shards = []
    for i in range(num_workers):
        worker = _grain_processes._LazyWorkerSliceIterDataset(  # noqa: SLF001
            ds, slice(i, None, num_workers), False)
        worker = _grain_prefetch._MpContextIterDataset(  # noqa: SLF001
            worker, _grain_base.MultiprocessingContext(process_index=i,
                                                       process_count=num_workers))
        shards.append(_grain_processes.ProcessPrefetchIterDataset(
            worker, buffer_size=buffer_size, worker_init_fn=_die_with_parent))
    return OrderedWorkers(shards)
