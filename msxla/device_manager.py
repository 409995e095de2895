"""``mindspore.device_manager``: ``set_device``, ``set_deterministic`` and
``get_current_device``, MindSpore 2.x's short forms of the context's
``device_target`` / ``device_id`` and ``deterministic`` keys (also exported as
``mindspore.set_device`` and ``mindspore.set_deterministic``)."""
from __future__ import annotations

import collections

from msxla.context import get_context, set_context

DeviceInfo = collections.namedtuple("DeviceInfo", ["device_target", "device_id"])

_TARGETS = ("CPU", "GPU", "Ascend")


def set_device(device_target, device_id=None):
    """Run on ``device_target`` ('CPU', 'GPU' or 'Ascend'), card ``device_id``."""
    if device_target not in _TARGETS:
        raise ValueError(f"The argument 'device_target' must be one of {list(_TARGETS)}, but "
                         f"got {device_target}.")
    if device_id is not None and (not isinstance(device_id, int) or isinstance(device_id, bool)
                                  or device_id < 0):
        raise ValueError(f"The argument 'device_id' must be a non-negative int, but got "
                         f"{device_id!r}.")
    keys = {"device_target": device_target}
    if device_id is not None:
        keys["device_id"] = device_id
    set_context(**keys)


def set_deterministic(deterministic):
    """Ask for deterministic computation (the context's ``deterministic`` 'ON'/'OFF')."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be {bool}, but got "
                        f"{type(deterministic)}")
    set_context(deterministic="ON" if deterministic else "OFF")


def get_current_device():
    """``DeviceInfo(device_target, device_id)`` of the current context."""
    return DeviceInfo(get_context("device_target"), get_context("device_id"))


__all__ = ["set_device", "set_deterministic", "get_current_device"]
