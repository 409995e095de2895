"""Cell buffers (``register_buffer``, ``buffers``, ``named_buffers``, ``get_buffer``).

A buffer is a Tensor (or None) a Cell keeps as state that is not trained: the
moving statistics of a norm layer, a fixed mask. It is an ordinary attribute of
the Cell (so graphs read it as they read any Cell attribute Tensor), and its
name is listed, in registration order, in the Cell's ``_buffers``; names in
``_non_persistent_buffers_set`` are left out of the Cell's saved state. A
``_Buffer`` assigned as an attribute registers itself. Names and messages are
MindSpore 2.10's.
"""
from __future__ import annotations

from msxla.common.cell_base import bump_epoch
from msxla.common.parameter import _Buffer
from msxla.common.tensor import Tensor


def init(d):
    d["_buffers"] = {}
    d["_non_persistent_buffers_set"] = set()


def register(cell, name, tensor, persistent=True):
    """``Cell.register_buffer``."""
    if not isinstance(name, str):
        raise TypeError(f"buffer name should be a string. Got {type(name).__name__}")
    if name == "":
        raise KeyError("buffer name can't be empty string \"\"")
    if "." in name:
        raise KeyError("buffer name can't contain \".\"")
    buffers = cell.__dict__["_buffers"]
    if name not in buffers and hasattr(cell, name):
        raise KeyError(f"attribute '{name}' already exists")
    _check_value(name, tensor)
    store(cell, name, tensor)
    non_persistent = cell.__dict__["_non_persistent_buffers_set"]
    if persistent:
        non_persistent.discard(name)
    else:
        non_persistent.add(name)
    bump_epoch()


def _check_value(name, tensor):
    if tensor is not None and not isinstance(tensor, Tensor):
        raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                        "(mindspore Tensor or None required)")


def is_buffer_write(cell, name, value):
    """True when ``cell.name = value`` writes a buffer (a ``_Buffer``, or a new value
    for a registered name)."""
    return isinstance(value, _Buffer) or name in cell.__dict__.get("_buffers", ())


def store(cell, name, value):
    """Set buffer ``name`` (a registered name, or a ``_Buffer`` being assigned)."""
    _check_value(name, value)
    cell.__dict__["_buffers"][name] = value
    cell.__dict__[name] = value
    if isinstance(value, _Buffer) and not value.persistent:
        cell.__dict__["_non_persistent_buffers_set"].add(name)


def forget(cell, name):
    """``del cell.name`` of a buffer."""
    cell.__dict__["_buffers"].pop(name, None)
    cell.__dict__["_non_persistent_buffers_set"].discard(name)


def named(cell, prefix="", recurse=True, remove_duplicate=True):
    """``Cell.named_buffers``: ``(path, Tensor)``, own buffers first, None left out."""
    seen = set()
    cells = cell.cells_and_names(name_prefix=prefix) if recurse else [(prefix, cell)]
    for path, sub in cells:
        for name, value in sub.__dict__.get("_buffers", {}).items():
            if value is None or (remove_duplicate and id(value) in seen):
                continue
            seen.add(id(value))
            yield (f"{path}.{name}" if path else name), value


def get(cell, target):
    """``Cell.get_buffer('sub.name')``."""
    *path, name = target.split(".")
    owner = cell
    for part in path:
        if not hasattr(owner, part):
            raise AttributeError(f"{type(owner).__name__} has no attribute `{part}`")
        owner = getattr(owner, part)
    if not hasattr(owner, name):
        raise AttributeError(f"{type(owner).__name__} has no attribute `{name}`")
    if name not in owner.__dict__.get("_buffers", {}):
        raise AttributeError(f"`{name}` is not a buffer")
    return getattr(owner, name)
