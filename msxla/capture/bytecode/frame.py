"""The interpreter's frame: one running code object, and argument binding.

A ``Frame`` holds what CPython keeps in its frame: the value stack, the fast
locals (a dict by name), the cells (``MAKE_CELL`` / ``COPY_FREE_VARS``, also
by name), the instruction index and the pending ``KW_NAMES``. Its *state*
(``FrameState``) is exactly what a graph break hands from a compiled graph to
Python and back (see ``state.py``).

``NULL`` is the C-level NULL some instructions push (``LOAD_GLOBAL``'s NULL
bit, ``PUSH_NULL``); ``UNBOUND`` marks a local that has no value.
"""
from __future__ import annotations

import builtins
import dataclasses

from msxla.capture.bytecode import compat


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    def __reduce__(self):  # pragma: no cover - markers are singletons
        return self.name


NULL = _Marker("NULL")
UNBOUND = _Marker("UNBOUND")

CO_VARARGS, CO_VARKEYWORDS = 0x04, 0x08


@dataclasses.dataclass
class FrameState:
    """A frame's live state between two instructions (what crosses a graph break)."""

    locals: dict
    cells: dict
    stack: list
    index: int
    kw_names: tuple = ()
    exc: object = None           # the exception being handled (``except`` blocks)


class Frame:
    __slots__ = (
        "builtins",
        "cells",
        "code",
        "decoded",
        "depth",
        "exc",
        "fn",
        "globals",
        "index",
        "kw_names",
        "locals",
        "stack",
    )

    def __init__(self, fn, code, fglobals, local_values, depth=0):
        self.fn, self.code = fn, code
        self.decoded = compat.decode(code)
        self.globals = fglobals
        b = fglobals.get("__builtins__", builtins)
        self.builtins = b if isinstance(b, dict) else vars(b)
        self.locals = local_values
        self.cells = {}
        self.stack = []
        self.index = 0
        self.kw_names = ()
        self.depth = depth
        self.exc = None

    @classmethod
    def for_call(cls, fn, args, kwargs, depth=0):
        """The frame of ``fn(*args, **kwargs)`` (``fn`` a Python function)."""
        return cls(fn, fn.__code__, fn.__globals__, bind(fn, args, kwargs), depth)

    @classmethod
    def from_state(cls, fn, state: FrameState):
        frame = cls(fn, fn.__code__, fn.__globals__, dict(state.locals))
        frame.cells = dict(state.cells)
        frame.stack = list(state.stack)
        frame.index = state.index
        frame.kw_names = state.kw_names
        frame.exc = state.exc
        return frame

    def state(self) -> FrameState:
        return FrameState(dict(self.locals), dict(self.cells), list(self.stack), self.index,
                          self.kw_names, self.exc)

    @property
    def instr(self):
        return self.decoded.instrs[self.index]

    def __repr__(self):
        return f"<frame {self.code.co_name} at {self.instr!r}>"


def bind(fn, args, kwargs) -> dict:
    """Python's argument binding for ``fn`` (positional, defaults, ``*args``, ``**kw``)."""
    code = fn.__code__
    names = code.co_varnames
    npos, nkwonly = code.co_argcount, code.co_kwonlyargcount
    nposonly = code.co_posonlyargcount
    flags = code.co_flags
    out = {}
    fname = code.co_qualname if hasattr(code, "co_qualname") else code.co_name
    if len(args) > npos and not flags & CO_VARARGS:
        raise TypeError(f"{fname}() takes {npos} positional argument{'s' * (npos != 1)} but "
                        f"{len(args)} were given")
    for i, value in enumerate(args[:npos]):
        out[names[i]] = value
    index = npos + nkwonly
    if flags & CO_VARARGS:
        out[names[index]] = tuple(args[npos:])
        index += 1
    extra = {}
    kw_allowed = set(names[nposonly:npos + nkwonly])
    for key, value in kwargs.items():
        if key in kw_allowed:
            if key in out:
                raise TypeError(f"{fname}() got multiple values for argument '{key}'")
            out[key] = value
        elif flags & CO_VARKEYWORDS:
            extra[key] = value
        else:
            raise TypeError(f"{fname}() got an unexpected keyword argument '{key}'")
    if flags & CO_VARKEYWORDS:
        out[names[index]] = extra
    defaults = fn.__defaults__ or ()
    first_default = npos - len(defaults)
    missing = []
    for i in range(npos):
        name = names[i]
        if name not in out:
            if i >= first_default:
                out[name] = defaults[i - first_default]
            else:
                missing.append(name)
    kwdefaults = fn.__kwdefaults__ or {}
    for name in names[npos:npos + nkwonly]:
        if name not in out:
            if name in kwdefaults:
                out[name] = kwdefaults[name]
            else:
                missing.append(name)
    if missing:
        listed = " and ".join(f"'{m}'" for m in missing)
        raise TypeError(f"{fname}() missing {len(missing)} required argument"
                        f"{'s' * (len(missing) != 1)}: {listed}")
    return out
