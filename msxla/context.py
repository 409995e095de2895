"""The one global execution context: ``set_context`` / ``get_context``.

All settings live on one ``Context`` object. jit and Cell read it once per
call at their boundary and pass what they need down. Unknown keys and bad
values are refused with MindSpore's messages and exception types.
"""
from __future__ import annotations

import logging
import threading

from msxla._context_keys import (  # noqa: F401 - the constants are mindspore.context's
    ASCEND_CONFIG_ONLY, COMPATIBLE, DEPRECATED, GRAPH_MODE, KEYS, LAX, PYNATIVE_MODE, STRICT,
    TARGET_SPECIFIC)

def _warn(message, *args):
    logging.getLogger("msxla").warning(message, *args)


class Context:
    """Holds every context setting. ``mode`` is a plain attribute so the
    per-call check in jit and Cell is one attribute read."""

    def __init__(self):
        self._values = {k: (dict(v) if isinstance(v, dict) else v) for k, (v, _) in KEYS.items()}
        self.mode = PYNATIVE_MODE
        self.lock = threading.RLock()
        self.listeners = []  # fn(key, value), called before a value is committed; may raise
        self.committed = []  # fn(keys), called after set() committed new values for keys

    def set(self, **kwargs):
        checked = {}
        for key, value in kwargs.items():
            if key in DEPRECATED:
                _warn("For 'context.set_context', '%s' parameter is deprecated, and will be "
                      "removed in the next version.", key)
                continue
            if key in ASCEND_CONFIG_ONLY:
                raise ValueError(f"Please set '{key}' through parameter ascend_config")
            if key not in KEYS:
                raise ValueError(f"For 'context.set_context', the keyword argument {key} is not "
                                 "recognized! For detailed usage of 'set_context', please refer "
                                 "to the Mindspore official website.")
            devices = TARGET_SPECIFIC.get(key)
            target = kwargs.get("device_target", self._values["device_target"])
            if devices is not None and target not in devices:
                _warn("For 'context.set_context', when set the argument '%s', the argument "
                      "'device_target' only supports devices in '%s', but got '%s', ignore it.",
                      key, list(devices), target)
                continue
            check = KEYS[key][1]
            if check is None:
                raise AttributeError(f"property '{key}' of '_Context' object has no setter")
            checked[key] = check(key, value)
        with self.lock:
            for key, value in checked.items():  # may refuse (e.g. no GPU): before committing
                for fn in self.listeners:
                    fn(key, value)
            self._values.update(checked)
            self.mode = self._values["mode"]
        for fn in self.committed:
            fn(tuple(checked))

    def get(self, key):
        if key not in self._values:
            raise ValueError(f"For 'context.get_context', the argument {key} is not recognized! "
                             "For detailed usage of 'get_context', please refer to the Mindspore "
                             "official website.")
        return self._values[key]


CONTEXT = Context()


def set_context(**kwargs):
    """Set context options (``mode``, ``device_target``, ``jit_syntax_level``, ...)."""
    CONTEXT.set(**kwargs)


def get_context(attr_key):
    """The value of one context option."""
    return CONTEXT.get(attr_key)


def is_graph_mode() -> bool:
    return CONTEXT.mode == GRAPH_MODE


def _select_platform(key, value):
    """``device_target`` picks jax's default platform for new arrays and compiles."""
    if key != "device_target":
        return
    import jax
    platform = {"CPU": "cpu", "GPU": "gpu"}.get(value)
    if platform is None:  # Ascend/Davinci: graphs go to GE; arrays stay on the host
        return
    try:
        device = jax.devices(platform)[0]
    except RuntimeError as err:
        raise ValueError(f"For 'context.set_context', device_target='{value}' is not available "
                         f"on this machine ({err}).") from None
    jax.config.update("jax_default_device", device)


CONTEXT.listeners.append(_select_platform)

from msxla.parallel._auto_parallel_context import (  # noqa: E402,F401 - mindspore.context names
    ParallelMode, get_auto_parallel_context, reset_auto_parallel_context,
    set_auto_parallel_context)
from msxla.parallel._ps_context import (  # noqa: E402,F401 - mindspore.context names
    get_ps_context, reset_ps_context, set_ps_context)
