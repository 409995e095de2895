"""When a profiler records: ``schedule``, ``ProfilerAction`` and ``tensorboard_trace_handler``.

``schedule(wait, active, warmup=0, repeat=0, skip_first=0)`` maps a step number
to an action, as MindSpore's (and torch's) does: after ``skip_first`` steps,
cycles of ``wait`` idle steps, ``warmup`` warm-up steps and ``active``
recorded steps, the last of which saves the trace; ``repeat`` cycles (0: for
ever). ``tensorboard_trace_handler(dir_name)`` is the ``on_trace_ready``
callback that names the directory the trace is written to.
"""
from __future__ import annotations

import enum
import logging
import os

LOG = logging.getLogger("msxla")


class ProfilerAction(enum.Enum):
    """What a profiler does at a step."""

    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    def __str__(self):
        return f"ProfilerAction.{self.name}"


class schedule:  # noqa: N801 - MindSpore's name
    """``schedule(step) -> ProfilerAction``."""

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0,
                 skip_first: int = 0):
        def non_negative(name, value, low=0):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                LOG.warning("Invalid parameter %s: %r, reset it to %d.", name, value, low)
                return low
            return value
        self.wait = non_negative("wait", wait)
        self.active = non_negative("active", active, 1)
        self.warmup = non_negative("warmup", warmup)
        self.repeat = non_negative("repeat", repeat)
        self.skip_first = non_negative("skip_first", skip_first)

    def __call__(self, step: int) -> ProfilerAction:
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if self.repeat > 0 and step // cycle >= self.repeat:
            return ProfilerAction.NONE
        pos = step % cycle
        if pos < self.wait:
            return ProfilerAction.NONE
        if pos < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return (ProfilerAction.RECORD if pos < cycle - 1 else ProfilerAction.RECORD_AND_SAVE)

    def to_dict(self):
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup,
                "repeat": self.repeat, "skip_first": self.skip_first}


def default_schedule(step: int) -> ProfilerAction:
    """Without a schedule every step is recorded."""
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name: str = None, worker_name: str = None,
                              analyse_flag: bool = True, async_mode: bool = False):
    """``on_trace_ready`` that writes the trace under ``dir_name`` (default ``./data``),
    where TensorBoard's profile plugin and Perfetto open it."""
    path = os.path.realpath(dir_name or "./data")

    def handler(prof):
        LOG.info("Profiler trace written under %s", path)

    handler.dir_name = path
    handler.worker_name = worker_name
    return handler
