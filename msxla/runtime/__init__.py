"""``mindspore.runtime``: device synchronisation, memory statistics, streams and events.

XLA runs each device's work on its own streams and manages device memory
itself, so this is MindSpore's API over what jax exposes:

- ``synchronize()`` waits for every live array (all queued device work);
- the memory functions read the device's allocator statistics (``bytes_in_use``,
  ``peak_bytes_in_use``, ``bytes_reserved`` on GPU); on CPU, where XLA keeps
  none, the bytes of the live arrays. ``empty_cache``, ``set_memory`` and the
  thread and affinity settings are accepted and have no effect;
- ``Stream`` / ``Event`` keep MindSpore's shape: one stream per device (work is
  ordered as XLA orders it), and an event records the time at which the work
  queued before it has finished, so ``elapsed_time`` measures device time.
"""
from __future__ import annotations

import time

import jax

__all__ = ["synchronize", "empty_cache", "memory_allocated", "max_memory_allocated",
           "memory_reserved", "max_memory_reserved", "memory_stats", "memory_summary",
           "reset_peak_memory_stats", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "set_memory", "launch_blocking", "dispatch_threads_num", "set_cpu_affinity",
           "Stream", "Event", "StreamCtx", "current_stream", "default_stream",
           "communication_stream", "set_cur_stream"]

_peak_floor = [0]  # what reset_peak_memory_stats subtracts on CPU
_threads = [0]


def synchronize():
    """Wait until every queued computation on every device has finished."""
    live = jax.live_arrays()
    if live:
        jax.block_until_ready(live)


def _device():
    return jax.devices()[0]


def _stats():
    return _device().memory_stats() or {}


def _live_bytes():
    return sum(a.nbytes for a in jax.live_arrays())


def memory_allocated():
    """Bytes of device memory the live arrays occupy."""
    return int(_stats().get("bytes_in_use", _live_bytes()))


def max_memory_allocated():
    """The peak of ``memory_allocated`` since start or ``reset_peak_memory_stats``."""
    stats = _stats()
    if "peak_bytes_in_use" in stats:
        return int(stats["peak_bytes_in_use"])
    _peak_floor[0] = max(_peak_floor[0], _live_bytes())
    return _peak_floor[0]


def memory_reserved():
    """Bytes the device allocator holds (GPU), or ``memory_allocated`` on CPU."""
    stats = _stats()
    return int(stats.get("bytes_reserved", stats.get("bytes_in_use", _live_bytes())))


def max_memory_reserved():
    stats = _stats()
    return int(stats.get("peak_bytes_reserved", max_memory_allocated()))


def memory_stats():
    """MindSpore's memory summary keys, filled from the device allocator."""
    return {"total_reserved_memory": memory_reserved(),
            "total_allocated_memory": memory_allocated(),
            "total_idle_memory": max(memory_reserved() - memory_allocated(), 0),
            "total_eager_free_memory": 0,
            "max_reserved_memory": max_memory_reserved(),
            "max_allocated_memory": max_memory_allocated(),
            "common_mem_pool_stats": {}, "persistent_mem_pool_stats": {}}


def memory_summary():
    """``memory_stats()`` as a readable table."""
    rows = [f"{k:<26}{v:>16}" for k, v in memory_stats().items() if isinstance(v, int)]
    return "\n".join(["|" + "=" * 42 + "|", "|  Memory summary  (bytes)".ljust(43) + "|"] +
                     [f"|  {r}|" for r in rows] + ["|" + "=" * 42 + "|"])


def reset_peak_memory_stats():
    _peak_floor[0] = _live_bytes()


reset_max_memory_allocated = reset_peak_memory_stats
reset_max_memory_reserved = reset_peak_memory_stats


def empty_cache():
    """XLA's allocator releases memory itself; nothing to do."""


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Checked as MindSpore does; XLA's allocator sizes itself (``XLA_PYTHON_CLIENT_*``)."""
    for name, value in (("init_size", init_size), ("increase_size", increase_size),
                        ("max_size", max_size), ("huge_page_reserve_size", huge_page_reserve_size)):
        if not isinstance(value, str) or not value.endswith("GB"):
            raise ValueError(f"For 'set_memory', the argument '{name}' should be in correct "
                             f"format! It must be a string ending with 'GB', such as '5GB' or "
                             f"'3.5GB', but got {value}.")
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"For 'set_memory', the argument 'optimize_level' must be one of "
                         f"['O0', 'O1'], but got {optimize_level}.")


def launch_blocking():
    """Every op waits for its result (``pynative_synchronize``)."""
    from msxla.context import set_context
    set_context(pynative_synchronize=True)


def dispatch_threads_num(threads_num):
    if isinstance(threads_num, bool) or not isinstance(threads_num, int) or threads_num < 0:
        raise TypeError(f"For 'dispatch_threads_num', the parameter 'threads_num' must be a "
                        f"non-negative int, but got {threads_num}.")
    _threads[0] = threads_num


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None,
                     bind_file=None):
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"For 'set_cpu_affinity', the parameter 'enable_affinity' must be bool, "
                        f"but got {type(enable_affinity).__name__}.")


class Event:
    """A point in the device's work: ``record()`` it, then ``synchronize()`` /
    ``elapsed_time(end)`` (milliseconds)."""

    def __init__(self, enable_timing=False, blocking=False):
        self.enable_timing, self.blocking = enable_timing, blocking
        self._time = None

    def record(self, stream=None):
        synchronize()
        self._time = time.perf_counter()

    def synchronize(self):
        synchronize()

    def wait(self, stream=None):
        synchronize()

    def query(self):
        return True

    def elapsed_time(self, end_event):
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Events used for elapsed_time must be created with "
                               "enable_timing=True.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded before elapsed_time.")
        return (end_event._time - self._time) * 1000.0


class Stream:
    """The device's stream: XLA orders the work on it."""

    def __init__(self, priority=0, **kwargs):
        self.priority = priority

    def synchronize(self):
        synchronize()

    def query(self):
        return True

    def record_event(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def wait_event(self, event):
        event.wait(self)

    def wait_stream(self, stream):
        synchronize()

    def __eq__(self, other):
        return isinstance(other, Stream)

    __hash__ = object.__hash__


_DEFAULT = Stream()


def current_stream():
    return _DEFAULT


def default_stream():
    return _DEFAULT


def communication_stream():
    return _DEFAULT


def set_cur_stream(stream):
    if not isinstance(stream, Stream):
        raise TypeError(f"For 'set_cur_stream', the argument 'stream' must be a Stream, but got "
                        f"{type(stream).__name__}.")


class StreamCtx:
    """``with StreamCtx(stream):`` (one stream per device: the block runs on it)."""

    def __init__(self, ctx_stream):
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(f"For 'StreamCtx', the argument 'ctx_stream' must be a Stream, but "
                            f"got {type(ctx_stream).__name__}.")
        self.stream = ctx_stream

    def __enter__(self):
        return self.stream

    def __exit__(self, *exc):
        return False
