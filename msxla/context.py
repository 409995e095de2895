"""The one global execution context: ``set_context`` / ``get_context``.

All settings live on one ``Context`` object. jit and Cell read it once per
call at their boundary and pass what they need down. Unknown keys and bad
values are refused with MindSpore's messages and exception types.
"""
from __future__ import annotations

import threading

GRAPH_MODE = 0
PYNATIVE_MODE = 1
STRICT = 0
COMPATIBLE = 1
LAX = 2

_DEVICE_TARGETS = ("CPU", "GPU", "Ascend", "Davinci")


def _check_type(key, value, types):
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        if int in (types if isinstance(types, tuple) else (types,)):
            return
    if not isinstance(value, types):
        raise TypeError(f"The parameter '{key}' must be {types}, but got {type(value)}")


def _mode(key, value):
    _check_type(key, value, int)
    if value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError(f"For 'context.set_context', the argument 'mode' should be "
                         f"context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), but got {value}.")
    return value


def _device_target(key, value):
    _check_type(key, value, str)
    if value not in _DEVICE_TARGETS:
        raise ValueError(f"For 'context.set_context', the argument 'device_target' must be one "
                         f"of {list(_DEVICE_TARGETS)}, but got {value}.")
    return value


def _syntax_level(key, value):
    if value not in (STRICT, COMPATIBLE, LAX):
        raise ValueError("For 'jit_syntax_level', the value should be context.STRICT or "
                         f"context.LAX, but got {value}.")
    return value


def _positive_int(key, value):
    _check_type(key, value, int)
    if value <= 0:
        raise ValueError(f"For 'context.set_context', the argument '{key}' must be greater "
                         f"than 0, but got {value}.")
    return value


def _typed(*types):
    def check(key, value):
        _check_type(key, value, types if len(types) > 1 else types[0])
        return value
    return check


def _dict(key, value):
    _check_type(key, value, dict)
    return dict(value)


def _any(key, value):
    return value


# key -> (default, validator). Keys that only matter on Ascend are accepted and kept.
_SCHEMA = {
    "mode": (PYNATIVE_MODE, _mode),
    "device_target": ("CPU", _device_target),
    "device_id": (0, _typed(int)),
    "jit_syntax_level": (LAX, _syntax_level),
    "jit_config": ({}, _dict),
    "save_graphs": (False, _typed(bool, int)),
    "save_graphs_path": (".", _typed(str)),
    "max_call_depth": (1000, _positive_int),
    "deterministic": ("OFF", _typed(str)),
    "pynative_synchronize": (False, _typed(bool)),
    "runtime_num_threads": (30, _typed(int)),
    "inter_op_parallel_num": (0, _typed(int)),
    "memory_optimize_level": ("O0", _typed(str)),
    "max_device_memory": ("1024GB", _typed(str)),
    "mempool_block_size": ("1GB", _typed(str)),
    "variable_memory_max_size": ("0", _typed(str)),
    "enable_graph_kernel": (False, _typed(bool)),
    "graph_kernel_flags": ("", _typed(str)),
    "enable_reduce_precision": (True, _typed(bool)),
    "check_bprop": (False, _typed(bool)),
    "print_file_path": ("", _typed(str)),
    "enable_compile_cache": (False, _typed(bool)),
    "compile_cache_path": ("", _typed(str)),
    "disable_format_transform": (False, _typed(bool)),
    "grad_for_scalar": (False, _typed(bool)),
    "enable_profiling": (False, _typed(bool)),
    "ascend_config": ({}, _dict),
    "gpu_config": ({}, _dict),
    "exec_order": ("bfs", _typed(str)),
    "aoe_tune_mode": ("", _typed(str)),
    "op_timeout": (900, _typed(int)),
    "env_config_path": ("", _typed(str)),
    "reserve_class_name_in_scope": (True, _typed(bool)),
    "debug_level": (0, _any),
    "enable_auto_mixed_precision": (False, _typed(bool)),
    "auto_tune_mode": ("", _typed(str)),
}


class Context:
    """Holds every context setting. ``mode`` is a plain attribute so the
    per-call check in jit and Cell is one attribute read."""

    def __init__(self):
        self._values = {k: (dict(v) if isinstance(v, dict) else v) for k, (v, _) in _SCHEMA.items()}
        self.mode = PYNATIVE_MODE
        self.lock = threading.RLock()
        self.listeners = []  # fn(key, value), called before a value is committed; may raise
        self.committed = []  # fn(keys), called after set() committed new values for keys

    def set(self, **kwargs):
        checked = {}
        for key, value in kwargs.items():
            if key not in _SCHEMA:
                raise ValueError(f"For 'context.set_context', the keyword argument {key} is not "
                                 "recognized! For detailed usage of 'set_context', please refer "
                                 "to the Mindspore official website.")
            checked[key] = _SCHEMA[key][1](key, value)
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
