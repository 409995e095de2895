"""``mindspore.set_ps_context`` / ``get_ps_context`` / ``reset_ps_context``: the
parameter-server context.

MindSpore's parameter-server mode keeps large embedding tables on server
processes. msxla has no parameter servers: the keys are accepted and read back
as MindSpore 2.10 does (same defaults, same ``ValueError`` for an unknown key),
and ``enable_ps=True`` trains with the Parameters in the training process, as
MindSpore does when ``MS_ROLE`` names no parameter-server role; a warning says so.
"""
from __future__ import annotations

import logging

# key -> default; what get_ps_context can read (client/server passwords are write-only)
_DEFAULTS = {
    "server_mode": "", "ms_role": "MS_NOT_PS", "enable_ps": False, "worker_num": 0,
    "server_num": 0, "scheduler_ip": "127.0.0.1", "scheduler_port": 6667, "enable_ssl": False,
    "config_file_path": "",
}
_WRITE_ONLY = ("client_password", "server_password")
_values = dict(_DEFAULTS)


def set_ps_context(**kwargs):
    """Set parameter-server context keys (``enable_ps``, ``config_file_path``, ...)."""
    for key in kwargs:
        if key not in _DEFAULTS and key not in _WRITE_ONLY:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
    for key, value in kwargs.items():
        if key in _WRITE_ONLY:
            continue
        if key == "enable_ps" and value and not _values["enable_ps"]:
            logging.getLogger("msxla").warning(
                "set_ps_context(enable_ps=True): msxla has no parameter servers; every "
                "Parameter stays in this process and trains as without enable_ps.")
        _values[key] = value


def get_ps_context(attr_key):
    """The value of one parameter-server context key."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_ps_context():
    """Every parameter-server key back to its default."""
    _values.clear()
    _values.update(_DEFAULTS)
