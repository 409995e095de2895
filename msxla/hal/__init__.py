"""``mindspore.hal``: devices, memory, streams and events (the older names of
``mindspore.runtime``), with the device queries: ``device_count``,
``is_available``, ``is_initialized``, ``get_device_name``,
``get_device_properties``, ``get_arch_list`` over jax's devices."""
from __future__ import annotations

import dataclasses

import jax

from msxla.runtime import (Event, Stream, StreamCtx, communication_stream,  # noqa: F401
                           current_stream, default_stream, empty_cache, set_cur_stream,
                           synchronize)
from msxla import runtime as _rt

_PLATFORMS = {"CPU": "cpu", "GPU": "gpu", "Ascend": None}


def _check_target(device_target):
    if device_target is None:
        from msxla.context import get_context
        device_target = get_context("device_target")
    if device_target not in _PLATFORMS:
        raise ValueError(f"The argument 'device_target' must be one of ['CPU', 'GPU', 'Ascend'], "
                         f"but got {device_target}.")
    return device_target


def _devices(device_target):
    platform = _PLATFORMS[_check_target(device_target)]
    if platform is None:
        return []
    try:
        return jax.devices(platform)
    except RuntimeError:
        return []


def device_count(device_target=None):
    """The number of devices of ``device_target`` (default: the context's)."""
    return len(_devices(device_target))


def is_available(device_target):
    return bool(_devices(device_target))


def is_initialized(device_target):
    return bool(_devices(device_target))


def get_device_name(device_id, device_target=None):
    return _devices(device_target)[device_id].device_kind


@dataclasses.dataclass
class _DeviceProperties:
    name: str
    total_memory: int
    free_memory: int
    platform: str


def get_device_properties(device_id, device_target=None):
    dev = _devices(device_target)[device_id]
    stats = dev.memory_stats() or {}
    total = int(stats.get("bytes_limit", 0))
    return _DeviceProperties(dev.device_kind, total, total - int(stats.get("bytes_in_use", 0)),
                             dev.platform)


def get_arch_list(device_target=None):
    return sorted({d.device_kind for d in _devices(device_target)})


def _with_target(fn):
    def call(device_target=None):
        _check_target(device_target)
        return fn()
    call.__name__, call.__doc__ = fn.__name__, fn.__doc__
    return call


memory_allocated = _with_target(_rt.memory_allocated)
max_memory_allocated = _with_target(_rt.max_memory_allocated)
memory_reserved = _with_target(_rt.memory_reserved)
max_memory_reserved = _with_target(_rt.max_memory_reserved)
memory_stats = _with_target(_rt.memory_stats)
memory_summary = _with_target(_rt.memory_summary)
reset_peak_memory_stats = _with_target(_rt.reset_peak_memory_stats)
reset_max_memory_allocated = _with_target(_rt.reset_max_memory_allocated)
reset_max_memory_reserved = _with_target(_rt.reset_max_memory_reserved)
