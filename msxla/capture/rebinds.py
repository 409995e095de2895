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

The names watched: the globals, closure variables and attributes of outside
objects that the code of the function, or of a helper it calls, stores to
(``callees.py`` finds the helpers and the stores, with the user's line of
each), and the Tensor attributes of the Cells the capture discovered.
"""
from __future__ import annotations

import dataclasses
import types

from jax.core import Tracer

from msxla.capture.callees import reachable, stores
from msxla.capture.run_eagerly import RunEagerly
from msxla.common.tensor import Tensor
from msxla.errors import user_error


@dataclasses.dataclass(frozen=True)
class Rebound:
    """A name rebound to a graph Tensor: what it is, how user code spells it, and the
    user's line that stores to it (None for a Cell attribute set anywhere)."""
    what: str
    spelling: str
    loc: object = None

    @property
    def target(self) -> str:
        """The stored-to expression as the user wrote it at ``loc`` (else ``spelling``)."""
        loc = self.loc
        if loc is not None and loc.col is not None and loc.end_col and \
                loc.end_line in (None, loc.line):
            text = loc.text[loc.col:loc.end_col].strip()
            if text.replace(".", "").replace("_", "").isalnum():
                return text
        return self.spelling


def rebound_error(rebound: Rebound) -> RunEagerly:
    """The capture gives up on a graph for the call: the function runs in Python."""
    err = user_error(RunEagerly, f"the function binds {rebound.what} to a Tensor it "
                     "computes, so it runs in Python and every call rebinds it, as in "
                     f"PyNative (to keep one graph, change that Tensor in place instead: "
                     f"ops.assign({rebound.target}, value))", loc=rebound.loc)
    err.rebound = rebound
    return err


def strict_rebound_error(cls, rebound: Rebound, name: str):
    """``fullgraph=True``: the rebind is an error at the user's line that stores it."""
    return user_error(
        cls, f"jit '{name}' (fullgraph=True): the function binds {rebound.what} to a Tensor "
        "it computes; a graph cannot bind a name that outlives the call to one of its "
        "values.", loc=rebound.loc,
        hint=f"change the Tensor in place instead of binding a new one: "
             f"ops.assign({rebound.target}, <new value>) updates it on every call inside one graph; or return the new value and bind "
             f"{rebound.target} outside the jitted function. fullgraph=False runs the "
             "function in Python instead (JIT Fallback).")


def _holds_tracer(value) -> bool:
    return isinstance(value, Tensor) and isinstance(getattr(value, "_data", None), Tracer)


class Rebinds:
    """``with Rebinds(fn, cells) as rb:`` around a capture; ``rb.found()`` inside it."""

    def __init__(self, fn, cells=()):
        self.slots = []  # (Rebound, getter, setter)
        seen = set()
        held = [v for c in cells for v in c.__dict__.values()
                if isinstance(v, (types.FunctionType, types.MethodType))]  # a Cell running fn
        for f, owner in reachable([fn, *held, *cells]):
            for kind, where, name, loc in stores(f, owner):
                key = (id(where), name)
                if key not in seen:
                    seen.add(key)
                    self.slots.append(_slot(kind, where, name, loc))
        for cell in cells:
            d = cell.__dict__
            for name, value in list(d.items()):
                if isinstance(value, Tensor) and (id(cell), name) not in seen:
                    seen.add((id(cell), name))
                    self.slots.append(_slot("attribute", cell, name, None))

    def __enter__(self):
        self.before = [get() for _, get, _ in self.slots]
        return self

    def found(self) -> list[Rebound]:
        """The names now bound to a Tensor computed in the graph being captured."""
        return [rebound for (rebound, get, _), old in zip(self.slots, self.before)
                if (now := get()) is not old and _holds_tracer(now)]

    def __exit__(self, exc_type, exc, tb):
        for (_, get, put), old in zip(self.slots, self.before):
            now = get()
            if now is not old and _holds_tracer(now):
                put(old)
        return False


_UNSET = object()


def _slot(kind, where, name, loc):
    """``(Rebound, getter, setter)`` of a global (``where``: its module's dict), a closure
    variable (``where``: its cell) or an attribute (``where``: the object)."""
    if kind == "global":
        return (Rebound(f"global '{name}'", name, loc), lambda: where.get(name, _UNSET),
                lambda v: _set_item(where, name, v))
    if kind == "closure":
        return (Rebound(f"closure variable '{name}'", name, loc), lambda: _cell_get(where),
                lambda v: _cell_set(where, v))
    d, owner = where.__dict__, type(where).__name__
    return (Rebound(f"attribute '{owner}.{name}'", f"<the {owner}>.{name}", loc),
            lambda: d.get(name, _UNSET), lambda v: _set_item(d, name, v))


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
