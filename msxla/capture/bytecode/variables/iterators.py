"""Iterators the interpreter creates, so that loops can cross a graph break.

``for x in items`` keeps an iterator on the stack for the whole loop. If the
loop body has a graph break, the iterator is part of the live state that the
compiled graph hands back to Python and that the next graph starts from: it
must be rebuildable from plain data. CPython's ``list_iterator`` or ``zip``
objects cannot be inspected, so ``GET_ITER`` and the built-ins ``iter``,
``zip``, ``enumerate``, ``range``-iteration and ``reversed`` make these
instead. Each one is also a real Python iterator (``__iter__``/``__next__``),
so library code given one (``list(zip(a, b))``) consumes it normally.

``state.py`` flattens them by their fields (``STATE_FIELDS``).
"""
from __future__ import annotations


class SeqIter:
    """Iterates a list/tuple by index (sees appends made during the loop, as CPython)."""

    __slots__ = ("index", "seq")
    STATE_FIELDS = ("seq", "index")

    def __init__(self, seq, index=0):
        self.seq, self.index = seq, index

    def __iter__(self):
        return self

    def __next__(self):
        i = self.index
        if i < len(self.seq):
            self.index = i + 1
            return self.seq[i]
        self.index = len(self.seq) + 1 if i <= len(self.seq) else i
        raise StopIteration

    def __length_hint__(self):
        return max(0, len(self.seq) - self.index)


class RangeIter:
    __slots__ = ("index", "start", "step", "stop")
    STATE_FIELDS = ("start", "stop", "step", "index")

    def __init__(self, start, stop, step, index=0):
        self.start, self.stop, self.step, self.index = start, stop, step, index

    def __iter__(self):
        return self

    def __next__(self):
        value = self.start + self.index * self.step
        if (self.step > 0 and value >= self.stop) or (self.step < 0 and value <= self.stop):
            raise StopIteration
        self.index += 1
        return value

    def __length_hint__(self):
        return len(range(self.start + self.index * self.step, self.stop, self.step))


class ZipIter:
    __slots__ = ("iters", "strict")
    STATE_FIELDS = ("iters", "strict")

    def __init__(self, iters, strict=False):
        self.iters, self.strict = iters, strict

    def __iter__(self):
        return self

    def __next__(self):
        if not self.iters:
            raise StopIteration
        out = []
        for k, it in enumerate(self.iters):
            try:
                out.append(next(it))
            except StopIteration:
                if self.strict and (k > 0 or _has_more(self.iters[1:])):
                    raise ValueError("zip() arguments have different lengths") from None
                raise
        return tuple(out)


def _has_more(iters):
    for it in iters:
        try:
            next(it)
            return True
        except StopIteration:
            continue
    return False


class EnumIter:
    __slots__ = ("count", "it")
    STATE_FIELDS = ("it", "count")

    def __init__(self, it, count=0):
        self.it, self.count = it, count

    def __iter__(self):
        return self

    def __next__(self):
        value = next(self.it)
        n = self.count
        self.count = n + 1
        return (n, value)


ITERATOR_TYPES = (SeqIter, RangeIter, ZipIter, EnumIter)


def make_iter(obj):
    """An interpreter iterator over ``obj``, or None when it must be CPython's own."""
    from msxla.common.tensor import Tensor
    cls = type(obj)
    if cls in ITERATOR_TYPES:
        return obj
    if cls is list or cls is tuple:
        return SeqIter(obj)
    if cls is range:
        return RangeIter(obj.start, obj.stop, obj.step)
    if cls is str or cls is bytes:
        return SeqIter(tuple(obj))
    if cls is dict:
        return SeqIter(list(obj))
    if cls in (type({}.keys()), type({}.values()), type({}.items())):
        return SeqIter(list(obj))
    if cls is set or cls is frozenset:
        return SeqIter(list(obj))
    if isinstance(obj, Tensor):
        return SeqIter([obj[i] for i in range(len(obj))])
    return None


def reversed_iter(obj):
    if type(obj) is range:
        return RangeIter(obj.start + (len(obj) - 1) * obj.step, obj.start - obj.step, -obj.step)
    if type(obj) in (list, tuple, str):
        return SeqIter(tuple(reversed(obj)))
    return None
