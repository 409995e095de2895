"""How a dataset tree becomes a grain pipeline.

Every dataset node builds, for one epoch, a ``Stage``: a grain dataset plus
the parallelism its ops asked for. While the chain stays random-access
(sources with samplers, ``map``, ``batch``, ``project``, ``rename``,
``take``/``skip``, ``repeat``, ``concat``, ``zip``) the stage is a
``grain.MapDataset``: element ``i`` is computed from its index alone, so grain
can compute elements in any thread or process and still return them in order.
That is what makes the order the same for any number of workers. An op that
needs a stream (``filter``, an iterable source, a dynamic batch size) turns the
stage into a ``grain.IterDataset``; the parallel part ends there.

``BuildContext`` carries what makes one run of one epoch reproducible: the
run's seed, the epoch number and the node's position in the tree. Every seed
a sampler, a shuffle or a random transform uses is derived from those, never
from a shared generator, so threads and processes cannot change the result.
"""
from __future__ import annotations

import dataclasses

import grain
import numpy as np

from msxla.dataset.core import config
from msxla.dataset.engine import _grain_compat
from msxla.dataset.engine._processes import in_processes


@dataclasses.dataclass(frozen=True)
class BuildContext:
    """The epoch being built: the run's seed, the epoch and the tree path."""

    seed: int
    epoch: int = 0
    path: tuple = ()

    def child(self, *keys: int) -> "BuildContext":
        return dataclasses.replace(self, path=self.path + tuple(keys))

    def seed_for(self, *keys: int, epoch: int | None = None, base: int | None = None) -> int:
        """A 32-bit seed unique to (run seed, epoch, node path, keys)."""
        ep = self.epoch if epoch is None else epoch
        words = [self.seed if base is None else base, ep, len(self.path), *self.path, *keys]
        return int(np.random.SeedSequence([int(w) & 0xFFFFFFFF for w in words])
                   .generate_state(1)[0])


@dataclasses.dataclass
class Stage:
    """One epoch of a (sub)pipeline as a grain dataset.

    ``threads``: how many threads may compute elements of a random-access
    stage; ``processes``: worker processes wanted for it (0: none).
    """

    ds: object
    threads: int = 1
    processes: int = 0

    @property
    def random_access(self) -> bool:
        return isinstance(self.ds, grain.MapDataset)

    def with_ds(self, ds, workers: int | None = None, processes: int = 0) -> "Stage":
        threads = max(self.threads, workers or 1)
        return Stage(ds, threads, max(self.processes, processes))

    def to_iter(self) -> "Stage":
        """This stage as an ``IterDataset`` (elements computed in parallel)."""
        if not self.random_access:
            return self
        prefetch = config.get_prefetch_size()
        if self.processes > 1:
            _grain_compat.setup(config.get_multiprocessing_start_method())
            per_worker = grain.ReadOptions(num_threads=1, prefetch_buffer_size=2)
            # Rows travel pickled through the workers' queues rather than in shared
            # memory: grain's shared-memory blocks outlive their use at exit (and the
            # resource tracker of Python < 3.13 reports them as leaked).
            ds = grain.experimental.WithOptionsIterDataset(
                self.ds.to_iter_dataset(per_worker),
                grain.experimental.DatasetOptions(min_shm_size=1 << 62))
            ds = in_processes(ds, self.processes, max(2, prefetch // 4))
        else:
            _grain_compat.setup(config.get_multiprocessing_start_method())
            ds = self.ds.to_iter_dataset(grain.ReadOptions(
                num_threads=self.threads, prefetch_buffer_size=max(prefetch, 2 * self.threads)))
        return Stage(ds, 1, 0)


def workers_of(value) -> int:
    """A node's ``num_parallel_workers`` (None: the configured default)."""
    return config.get_num_parallel_workers() if value is None else int(value)
