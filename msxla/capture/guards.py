"""Guards: what a captured graph baked in, checked before it is reused.

A capture reads Python values that are not graph inputs: globals, closure
variables, Cell attributes, constant Tensors. Each becomes a ``Guard`` that
can re-fetch the value and compare it with what the capture saw. A graph is
reused only while every guard holds; a failing guard causes a recapture and
can say why, as ``source: old -> new``.

Cell attributes are guarded through the global attribute epoch
(``msxla.common.cell_base.ATTR_EPOCH``): while no Cell attribute was set anywhere the
check is one integer comparison; after a change the attribute snapshot of
every guarded Cell is compared and, if equal, the epoch is re-armed.
"""
from __future__ import annotations

import math
import numbers

from msxla.common.cell_base import ATTR_EPOCH
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor

_MISSING = object()
_DATA_TYPES = (bool, int, float, complex, str, bytes, type(None), type(Ellipsis))


def is_data(value) -> bool:
    """Plain Python data, compared by value (scalars, strings, tuples of them)."""
    if isinstance(value, _DATA_TYPES):
        return True
    if isinstance(value, tuple):
        return all(is_data(v) for v in value)
    if isinstance(value, numbers.Number):
        return True
    return False


def _same(a, b) -> bool:
    """Value equality that also distinguishes 1 / 1.0 / True and NaN-safe floats."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and a != a:
        return b != b
    return a == b and _zero_sign(a) == _zero_sign(b)  # 0.0 == -0.0, but 1/x differs


class Guard:
    """One baked-in value: ``fetch()`` gets it now; ``expected`` is what was seen."""

    __slots__ = ("source", "fetch", "expected", "by_identity")

    def __init__(self, source: str, fetch, expected, by_identity: bool):
        self.source, self.fetch, self.expected = source, fetch, expected
        self.by_identity = by_identity

    def check(self) -> bool:
        try:
            now = self.fetch()
        except Exception:  # the binding disappeared
            return False
        if self.by_identity:
            return now is self.expected
        return _same(now, self.expected)

    def explain(self) -> str:
        try:
            now = self.fetch()
        except Exception:
            now = "<unbound>"
        return f"{self.source}: {_short(self.expected)} -> {_short(now)}"


def _short(v):
    text = repr(v) if is_data(v) else f"<{type(v).__name__} at {id(v):#x}>"
    return text if len(text) < 60 else text[:57] + "..."


def value_guard(source, fetch, value) -> Guard:
    """A guard on ``value``: by value for data, by identity otherwise."""
    return Guard(source, fetch, value, by_identity=not is_data(value))


class LogGuard(Guard):
    """A list the function only appends to (``log.append(x)``), guarded by identity:
    its contents do not shape the graph; the appends are replayed on every call
    (``msxla.capture.logs``)."""

    __slots__ = ()

    def __init__(self, source, fetch, value):
        super().__init__(source, fetch, value, by_identity=True)


class ContentGuard(Guard):
    """A list, dict or set guarded by identity and contents: changed in place
    between calls (or by the function itself, ``log.append(x); len(log)``), it
    is seen and the function is captured again. A container the function only
    writes to is guarded by identity alone (``discover._write_only_names``)."""

    __slots__ = ()

    def __init__(self, source, fetch, value):
        def contents():
            now = fetch()
            return id(now), _container_key(now)
        super().__init__(source, contents, (id(value), _container_key(value)), False)


def container_guard(source, fetch, value) -> Guard:
    """``value_guard``, plus the contents of a list, dict or set."""
    if isinstance(value, (list, dict, set)):
        return ContentGuard(source, fetch, value)
    return value_guard(source, fetch, value)


class TensorDataGuard(Guard):
    """A plain Tensor baked into the graph: its value must be the same array (an
    in-place change between calls is seen). ``tensor`` is the Tensor."""

    __slots__ = ("tensor",)

    def __init__(self, source, tensor):
        super().__init__(source + "._data", lambda: tensor._data, tensor._data, True)
        self.tensor = tensor


def tensor_data_guard(source, tensor: Tensor) -> Guard:
    """A constant Tensor baked into the graph: its value must be the same array."""
    return TensorDataGuard(source, tensor)


# ------------------------------------------------------------ Cell snapshots
CELL_INTERNAL = frozenset({
    "_params", "_cells", "_hooks", "_graph_runner", "_jit_config_dict", "_dynamic_inputs",
    "_scope", "_auto_prefix", "requires_grad", "_jit_wrapped"})


def cell_snapshot(cell) -> tuple:
    """What a captured ``construct`` may depend on in one Cell, as comparable items."""
    d = cell.__dict__
    items = [("training", d.get("training")), ("_mixed_precision_type",
                                                d.get("_mixed_precision_type"))]
    for name, param in d["_params"].items():
        items.append((name, ("param", id(param))))
    for name, sub in d["_cells"].items():
        items.append((name, ("cell", id(sub))))
    hooks = d.get("_hooks")
    if hooks is not None and hooks.active:
        items.append(("_hooks", tuple(id(fn) for table in (hooks.forward_pre, hooks.forward,
                                                          hooks.backward, hooks.backward_pre)
                                      for fn, _ in table.values())))
    for name, value in d.items():
        if name in CELL_INTERNAL or name in ("training", "_mixed_precision_type", "_phase"):
            continue
        if callable(value) and not isinstance(value, Tensor):
            items.append((name, ("id", id(value))))
        elif isinstance(value, Tensor) and not isinstance(value, Parameter):
            items.append((name, ("tensor", id(value))))  # its value: discover's data guard
        elif is_data(value):
            items.append((name, ("data", type(value), value, _zero_sign(value))))
        elif isinstance(value, (list, dict, set)):
            items.append((name, ("container", id(value), _container_key(value))))
        else:
            items.append((name, ("id", id(value))))
    return tuple(items)


def _zero_sign(v):
    """Tells -0.0 from 0.0 (equal, and equal in tuples, but not the same constant)."""
    return math.copysign(1.0, v) if isinstance(v, float) and v == 0.0 else None


def _container_key(value):
    """Lists/dicts of data or Tensors held by a Cell, compared by content."""
    try:
        if isinstance(value, dict):
            return tuple((k, _item_key(v)) for k, v in value.items())
        return tuple(_item_key(v) for v in value)
    except TypeError:
        return id(value)


def _item_key(v):
    if is_data(v):
        return ("data", type(v), v, _zero_sign(v))
    if isinstance(v, Tensor):  # its value: a data guard of its own (discover), or graph state
        return ("tensor", id(v))
    return ("id", id(v))


class CellGuard:
    """All attributes of a set of Cells, checked through the attribute epoch."""

    def __init__(self, cells):
        self._epoch_box = ATTR_EPOCH
        self.cells = list(cells)
        self.snapshots = [cell_snapshot(c) for c in self.cells]
        self.seen_epoch = ATTR_EPOCH.value

    def check(self) -> bool:
        if self._epoch_box.value == self.seen_epoch:
            return True
        for cell, snap in zip(self.cells, self.snapshots):
            if cell_snapshot(cell) != snap:
                return False
        self.seen_epoch = self._epoch_box.value
        return True

    def explain(self) -> list[str]:
        out = []
        for cell, snap in zip(self.cells, self.snapshots):
            now = dict(cell_snapshot(cell))
            for name, old in snap:
                new = now.get(name, _MISSING)
                if new != old:
                    out.append(f"{type(cell).__name__}.{name}: {_describe(old)} -> "
                               f"{_describe(new)}")
            for name in now.keys() - dict(snap).keys():
                out.append(f"{type(cell).__name__}.{name}: <unset> -> {_describe(now[name])}")
        return out


def _describe(item):
    if item is _MISSING:
        return "<unset>"
    if isinstance(item, tuple) and item and item[0] == "data":
        return repr(item[2])
    if isinstance(item, tuple) and item and isinstance(item[0], str):
        return f"<{item[0]}>"
    return repr(item)


class GuardSet:
    """The guards of one captured graph."""

    def __init__(self, guards=(), cell_guard: CellGuard | None = None):
        self.guards = list(guards)
        self.cell_guard = cell_guard

    def __bool__(self):
        return bool(self.guards) or (self.cell_guard is not None and bool(self.cell_guard.cells))

    def check(self) -> bool:
        for g in self.guards:
            if not g.check():
                return False
        return self.cell_guard is None or self.cell_guard.check()

    def explain(self) -> list[str]:
        out = [g.explain() for g in self.guards if not g.check()]
        if self.cell_guard is not None:
            out.extend(self.cell_guard.explain())
        return out

    def describe(self) -> list[str]:
        lines = [f"{g.source} {'is' if g.by_identity else '=='} {_short(g.expected)}"
                 for g in self.guards]
        if self.cell_guard is not None:
            lines += [f"attributes of {type(c).__name__} (id {id(c):#x})"
                      for c in self.cell_guard.cells]
        return lines
