"""Compile counters of jitted functions, for tests and benchmarks.

``Counters`` (``jitted.stats``) counts one jitted function's captures,
lowerings and compiles, and the compiles per backend (``compiles_by_backend``:
``{"XLA": 2, "GE": 1}``), whichever path made them (a graph, a piece of a
program with graph breaks, a shape of a ``dynamic=1`` entry). ``CodeRecord`` counts, per code object, what every
jitted function running that code did: cache entries made (one per captured
signature, or per recapture after a failed guard), how many of them run
with graph breaks, and the calls of each entry. It is what MindSpore keeps
per code object and shows through ``_c_expression.get_code_extra``.
"""
from __future__ import annotations

import dataclasses
import threading
import types
import weakref

from msxla.common.cell_base import CellBase


@dataclasses.dataclass
class Counters:
    """How often a jitted function captured, lowered and compiled a graph.

    ``slow_calls`` counts calls that took the slow path (new signature, failed
    guard, traced inputs); cache hits on the hot path are counted per entry
    (``CallCounter``)."""

    captures: int = 0
    lowerings: int = 0
    compiles: int = 0
    slow_calls: int = 0
    compiles_by_backend: dict = dataclasses.field(default_factory=dict)

    def compiled(self, backend: str):
        """Count one executable made by ``backend`` ("XLA" or "GE")."""
        self.compiles += 1
        self.compiles_by_backend[backend] = self.compiles_by_backend.get(backend, 0) + 1

    def as_dict(self):
        return dataclasses.asdict(self)


class CallCounter:
    """The calls of one cache entry (shared by the jitted functions that run one code
    object with one signature). ``phase`` names the entry's graph; None when the entry
    runs with graph breaks."""

    __slots__ = ("calls", "owner", "phase", "guards")

    def __init__(self, owner, phase, guards):
        self.calls = 0
        self.owner, self.phase, self.guards = owner, phase, guards


class CodeRecord:
    """What jit did with one code object, over every jitted function running it."""

    __slots__ = ("entries", "broken", "fallbacks", "last", "_counters", "__weakref__")

    def __init__(self):
        self.entries = 0      # cache entries made (signatures captured, recaptures)
        self.broken = 0       # ... of which run with graph breaks
        self.fallbacks = 0    # signatures that run in Python (JIT Fallback)
        self.last = None      # the CallCounter of the entry the latest call ran
        self._counters = {}

    def new_entry(self, owner, key, phase, guards=None):
        """Count an entry made by the jitted function ``owner`` for signature ``key``.

        Another jitted function of the same code with the same signature shares
        the counter (the calls are of one code with one signature); the same
        function making a new entry for a key (a guard failed) starts anew."""
        self.entries += 1
        if phase is None:
            self.broken += 1
        key = hash(key)  # not the key itself: it may hold objects this record must not keep
        counter = self._counters.get(key)
        if (counter is None or counter.owner == id(owner)
                or (counter.phase is None) != (phase is None)):
            counter = CallCounter(id(owner), phase, guards)
            if len(self._counters) >= 256:
                self._counters.pop(next(iter(self._counters)))
            self._counters[key] = counter
        return counter


_records: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def code_record(code, create=True):
    """The ``CodeRecord`` of a code object (made on first use when ``create``); for
    ``code=None`` (a callable without code) a record of its own, kept nowhere."""
    if code is None:
        return CodeRecord() if create else None
    with _lock:
        rec = _records.get(code)
        if rec is None and create:
            rec = _records[code] = CodeRecord()
        return rec


def code_of(fn):
    """The code object a jitted callable runs: a function's, a method's, or for a
    jitted Cell call its ``construct``'s; None for other callables."""
    if isinstance(fn, types.MethodType):
        if fn.__func__ is CellBase._graph_construct:
            fn = type(fn.__self__).construct
        else:
            fn = fn.__func__
    fn = getattr(fn, "fn", fn)  # a JitFunction (a jitted construct)
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    return code if isinstance(code, types.CodeType) else None
