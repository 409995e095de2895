"""The compiled entries of one jitted function, and which of them are hot.

``CompileCache`` keeps a jitted function's entries by call key (the call's
spec and the avals of its leaves), least recently used first, at most
``CACHE_SIZE`` of them; an entry whose guards fail is dropped on lookup (and
the failed guard is logged when ``explain_recompiles`` is on). The
``HOT_SIZE`` most recently used entries are the hot list; ``fast`` holds
their generated calls with their call counters, which ``JitFunction.__call__``
tries in order before anything else. ``fast`` is replaced, never changed in
place, so a thread iterating it is never disturbed. ``dynamic`` holds the
generalised (``dynamic=1``) entry of each call structure. The policy (what
to capture, when to generalise, when to run in Python) is ``JitFunction``'s.
"""
from __future__ import annotations

import collections

from msxla.jit import explain
from msxla.jit.dynamic_entry import DynamicEntry

HOT_SIZE = 4
CACHE_SIZE = 64            # compiled entries kept per function (least recently used evicted)


class CompileCache:
    __slots__ = ("name", "entries", "hot", "fast", "dynamic")

    def __init__(self, name):
        self.name = name
        self.entries: collections.OrderedDict = collections.OrderedDict()
        self.hot: list = []
        self.fast: list = []  # (generated call, CallCounter) of the hot entries
        self.dynamic: dict = {}  # spec -> generalised entry (dynamic=1)

    def lookup(self, key):
        """The entry for ``key`` whose guards still hold, or None."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        if entry.guards and not entry.guards.check():
            explain.guard_failed(self.name, entry.guards)
            del self.entries[key]
            self._set_hot([e for e in self.hot if e is not entry])
            return None
        self.entries.move_to_end(key)
        return entry

    def add(self, key, entry):
        self.entries[key] = entry
        if len(self.entries) > CACHE_SIZE:
            _, old = self.entries.popitem(last=False)
            self._set_hot([e for e in self.hot if e is not old])

    def drop(self, key):
        """Forget ``key``'s entry (its graph no longer fits the Parameters it reads)."""
        entry = self.entries.pop(key, None)
        if entry is not None:
            self._set_hot([e for e in self.hot if e is not entry])

    def promote(self, entry):
        """Make ``entry`` the most recently used hot entry."""
        self._set_hot(([entry] + [e for e in self.hot if e is not entry])[:HOT_SIZE])

    def _set_hot(self, entries):
        # exact-shape entries first: a generalised entry would compile its own
        # executable for a shape that already has one
        entries = sorted(entries, key=lambda e: isinstance(e, DynamicEntry))
        self.hot = entries
        self.fast = [(e.fast, e.counter) for e in entries]

    def keys(self):
        return list(self.entries)
