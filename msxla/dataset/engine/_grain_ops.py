"""grain datasets for the MindSpore operations grain has no exact twin for.

Random-access (``grain.MapDataset``): ``IndexedSource`` reads the rows a
sampler chose, ``RepeatMap`` lays out ``repeat(n)`` of a stage whose every
repetition is built afresh (a new shuffle per repetition, as MindSpore's
``repeat`` re-runs its input), ``ZipMap`` joins rows side by side.

Streams (``grain.IterDataset``): ``IterSource`` runs a Python iterable once
per epoch, ``ChainIter`` plays stages one after another (``concat``, and
``repeat`` of a stream or ``repeat(-1)``), ``SliceIter`` is ``skip``/``take``,
``ZipIter`` joins streams, ``GroupIter`` groups rows into lists by a rule
(dynamic batch sizes, buckets), ``MapIter`` maps with a running position.
"""
from __future__ import annotations

import itertools
import threading

import grain


class Lock:
    """A lock that pickles as a new lock: grain pickles pipelines into its worker
    processes, and a lazily filled cache needs one lock per process."""

    def __init__(self):
        self._lock = threading.Lock()

    def __enter__(self):
        return self._lock.__enter__()

    def __exit__(self, *exc):
        return self._lock.__exit__(*exc)

    def __reduce__(self):
        return (Lock, ())


class IndexedSource(grain.MapDataset):
    """Element ``i`` is ``read(indices[i])``; ``indices`` is computed on first use."""

    def __init__(self, read, make_indices, length):
        super().__init__()
        self._read, self._make_indices, self._len = read, make_indices, length
        self._indices = None
        self._lock = Lock()

    def __len__(self):
        return self._len

    def _index_list(self):
        if self._indices is None:
            with self._lock:
                if self._indices is None:
                    self._indices = self._make_indices()
        return self._indices

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.slice(index)
        return self._read(int(self._index_list()[index % self._len]))

    def __str__(self):
        return "IndexedSource"


class RepeatMap(grain.MapDataset):
    """``count`` repetitions of ``build(r)``, each of length ``length``."""

    def __init__(self, build, count, length):
        super().__init__()
        self._build, self._count, self._len = build, count, length
        self._stages = {}
        self._lock = Lock()

    def __len__(self):
        return self._count * self._len

    def _stage(self, r):
        ds = self._stages.get(r)
        if ds is None:
            with self._lock:
                ds = self._stages.get(r)
                if ds is None:
                    ds = self._stages[r] = self._build(r)
        return ds

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.slice(index)
        r, i = divmod(index % len(self), self._len)
        return self._stage(r)[i]

    def __str__(self):
        return f"RepeatMap(count={self._count})"


class ZipMap(grain.MapDataset):
    """Rows of several datasets side by side (the shortest sets the length)."""

    def __init__(self, parents):
        super().__init__(parents)
        self._len = min(len(p) for p in parents)

    def __len__(self):
        return self._len

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.slice(index)
        out = ()
        for p in self.parents:
            row = p[index % self._len]
            if row is None:
                return None
            out += row
        return out

    def __str__(self):
        return "ZipMap"


class _PyIterator(grain.DatasetIterator):
    """A grain iterator over a plain Python iterator."""

    def __init__(self, it, parents=()):
        super().__init__(parents)
        self._it = it

    def __next__(self):
        return next(self._it)

    def get_state(self):
        return {}

    def set_state(self, state):
        raise NotImplementedError("msxla dataset iterators are not checkpointable")

    def close(self):
        for p in self._parents:
            p.close()
        close = getattr(self._it, "close", None)
        if close is not None:
            close()
        super().close()


class IterSource(grain.IterDataset):
    """Rows of ``make_iter()``: a fresh Python iterator per epoch."""

    def __init__(self, make_iter):
        super().__init__()
        self._make_iter = make_iter

    def __iter__(self):
        return _PyIterator(iter(self._make_iter()))

    def __str__(self):
        return "IterSource"


class ChainIter(grain.IterDataset):
    """The streams ``build(0)``, ``build(1)``, ... in turn (``count`` None: forever)."""

    def __init__(self, build, count):
        super().__init__()
        self._build, self._count = build, count

    def __iter__(self):
        counter = itertools.count() if self._count is None else range(self._count)
        return _PyIterator(self._rows(counter))

    def _rows(self, counter):
        for r in counter:
            it = iter(self._build(r))
            try:
                yield from it
            finally:
                it.close()

    def __str__(self):
        return "ChainIter"


class SliceIter(grain.IterDataset):
    """Rows ``start`` to ``stop`` of the parent stream (``stop`` None: to the end)."""

    def __init__(self, parent, start, stop):
        super().__init__(parent)
        self._start, self._stop = start, stop

    def __iter__(self):
        parent = self._parent.__iter__()
        return _PyIterator(itertools.islice(parent, self._start, self._stop), (parent,))

    def __str__(self):
        return f"SliceIter({self._start}, {self._stop})"


class ZipIter(grain.IterDataset):
    """Rows of several streams side by side, until the first one ends."""

    def __iter__(self):
        its = [p.__iter__() for p in self._parents]
        return _PyIterator((sum(rows, ()) for rows in zip(*its)), its)

    def __str__(self):
        return "ZipIter"


class GroupIter(grain.IterDataset):
    """Lists of rows cut by ``group(rows_iterator)``, a generator of outputs."""

    def __init__(self, parent, group):
        super().__init__(parent)
        self._group = group

    def __iter__(self):
        parent = self._parent.__iter__()
        return _PyIterator(self._group(parent), (parent,))

    def __str__(self):
        return "GroupIter"


class MapIter(grain.IterDataset):
    """``fn(position, row)`` over a stream (rows for which it returns None are dropped)."""

    def __init__(self, parent, fn):
        super().__init__(parent)
        self._fn = fn

    def __iter__(self):
        parent = self._parent.__iter__()
        fn = self._fn
        rows = (fn(i, row) for i, row in enumerate(parent))
        return _PyIterator((r for r in rows if r is not None), (parent,))

    def __str__(self):
        return "MapIter"
