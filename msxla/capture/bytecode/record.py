"""What ``msxla.jit.explain`` sees: graphs captured, breaks found and run, per thread.

The capture and the program call these hooks; they do nothing unless a
``Recorder`` is active on the thread (``with Recorder() as rec: ...``).
"""
from __future__ import annotations

import dataclasses
import threading

_local = threading.local()


@dataclasses.dataclass
class Recorder:
    graphs: list = dataclasses.field(default_factory=list)     # (function name, CapturedGraph)
    breaks: list = dataclasses.field(default_factory=list)     # BreakRecords found by captures
    steps: list = dataclasses.field(default_factory=list)      # BreakRecords run in Python
    graph_runs: int = 0
    python_tails: list = dataclasses.field(default_factory=list)

    def __enter__(self):
        self._saved = getattr(_local, "rec", None)
        _local.rec = self
        return self

    def __exit__(self, *exc):
        _local.rec = self._saved


def _active():
    return getattr(_local, "rec", None)


def captured(name, graph, piece=None):
    rec = _active()
    if rec is not None:
        rec.graphs.append((name, graph))


def found(record):
    rec = _active()
    if rec is not None and record not in rec.breaks:
        rec.breaks.append(record)


def step(record):
    rec = _active()
    if rec is not None and record is not None:
        rec.steps.append(record)


def ran(piece):
    rec = _active()
    if rec is not None:
        rec.graph_runs += 1


def python_tail(name):
    rec = _active()
    if rec is not None:
        rec.python_tails.append(name)
