"""Outside names rebound to graph Tensors while a function is traced.

``global G; G = G + x``, ``self.t = self.t + x`` in a Cell's ``construct``, or
``nonlocal t; t = t * 2`` rebind a name that outlives the call to a Tensor
the function computed. PyNative rebinds it on every call. A capture runs the
function once, with tracers: left alone, the global, attribute or closure
variable would keep a Tensor around a tracer of a finished capture (reading it
raises, the next call fails). ``Rebinds`` remembers what those names held
before the capture and puts it back whatever happens; ``found()`` names the
ones rebound to a graph value, and the capture then gives up on a graph for
the call (``RunEagerly``: the function runs in Python, so every call rebinds,
as in PyNative).

The names watched: the globals the function's code stores to, its closure
variables, and the attributes of the Cells the capture discovered (and the
same for functions those Cells hold). Functions it calls are not searched.
"""
from __future__ import annotations

import dis
import types

from jax.core import Tracer

from msxla.common.tensor import Tensor

_STORE_GLOBAL = frozenset({"STORE_GLOBAL", "DELETE_GLOBAL"})


def _functions(fn):
    """The plain functions behind ``fn`` (a function, a bound method, a Cell)."""
    out, todo = [], [fn]
    while todo and len(out) < 16:
        f = todo.pop()
        if isinstance(f, types.MethodType):
            todo.append(f.__func__)
        elif isinstance(f, types.FunctionType):
            out.append(f)
        elif hasattr(type(f), "construct"):
            todo.append(type(f).construct)
    return out


def _stored_globals(code, names):
    for ins in dis.get_instructions(code):
        if ins.opname in _STORE_GLOBAL:
            names.add(ins.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _stored_globals(const, names)
    return names


def _holds_tracer(value) -> bool:
    return isinstance(value, Tensor) and isinstance(getattr(value, "_data", None), Tracer)


class Rebinds:
    """``with Rebinds(fn, cells) as rb:`` around a capture; ``rb.found()`` inside it."""

    def __init__(self, fn, cells=()):
        self.slots = []  # (description, getter, setter)
        held = [v for c in cells for v in c.__dict__.values()
                if isinstance(v, (types.FunctionType, types.MethodType))]  # a Cell running fn
        seen = set()
        for f in [f for root in (fn, *held) for f in _functions(root)]:
            if id(f) in seen:
                continue
            seen.add(id(f))
            g = f.__globals__
            for name in _stored_globals(f.__code__, set()):
                self.slots.append((f"global '{name}'", lambda g=g, n=name: g.get(n, _UNSET),
                                   lambda v, g=g, n=name: _set_item(g, n, v)))
            for name, cell in zip(f.__code__.co_freevars, f.__closure__ or ()):
                self.slots.append((f"closure variable '{name}'", lambda c=cell: _cell_get(c),
                                   lambda v, c=cell: _cell_set(c, v)))
        for cell in cells:
            d = cell.__dict__
            for name, value in list(d.items()):
                if isinstance(value, Tensor):
                    self.slots.append((f"attribute '{type(cell).__name__}.{name}'",
                                       lambda d=d, n=name: d.get(n, _UNSET),
                                       lambda v, d=d, n=name: _set_item(d, n, v)))

    def __enter__(self):
        self.before = [get() for _, get, _ in self.slots]
        return self

    def found(self) -> list[str]:
        """The names now bound to a Tensor computed in the graph being captured."""
        return [what for (what, get, _), old in zip(self.slots, self.before)
                if (now := get()) is not old and _holds_tracer(now)]

    def __exit__(self, exc_type, exc, tb):
        for (_, get, put), old in zip(self.slots, self.before):
            now = get()
            if now is not old and _holds_tracer(now):
                put(old)
        return False


_UNSET = object()


def _set_item(d, name, value):
    if value is _UNSET:
        d.pop(name, None)
    else:
        d[name] = value


def _cell_get(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return _UNSET


def _cell_set(cell, value):
    if value is _UNSET:
        del cell.cell_contents
    else:
        cell.cell_contents = value
