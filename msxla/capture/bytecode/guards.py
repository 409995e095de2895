"""Precise guards: exactly what the interpreted code read, checked before reuse.

The interpreter sees every read the captured code makes, so it guards those
reads and nothing else (a graph is not recompiled because an attribute it
never read changed):

- ``LOAD_GLOBAL`` of a user global: its value (data) or identity (objects);
- ``LOAD_DEREF`` of a closure variable from outside the captured code;
- attributes of objects the code did not create (Cell attributes, user
  objects, user modules), and items of global or attribute containers;
- the contents of a container it iterates;
- Cells run as library code (``nn.Dense``) and user code run by CPython
  (generators, classes built inside the function): all their state, through
  ``discover`` and the Cell snapshot guard.

Cell attributes change only through ``Cell.__setattr__``, which moves the
global attribute epoch, so Cell attribute guards are checked only when the
epoch moved (one integer comparison per call otherwise).
"""
from __future__ import annotations

import types

from msxla.capture import guards as G
from msxla.capture.guards import Guard, GuardSet, is_data
from msxla.common.cell_base import ATTR_EPOCH, CellBase
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor


class EpochGuards:
    """Cell attribute guards checked when the Cell attribute epoch moved."""

    def __init__(self):
        self._box = ATTR_EPOCH
        self.items: list[Guard] = []
        self.seen = ATTR_EPOCH.value

    def check(self) -> bool:
        if self._box.value == self.seen:
            return True
        for g in self.items:
            if not g.check():
                return False
        self.seen = self._box.value
        return True


class CellGroup:
    """The Cell part of a guard set: epoch-checked attribute reads plus whole-Cell
    snapshots of Cells run as library code (quacks like ``CellGuard``)."""

    def __init__(self, epoch: EpochGuards, library_cells):
        self.epoch = epoch
        self.snapshot = G.CellGuard(library_cells) if library_cells else None
        self.cells = list(library_cells) + [None] * bool(epoch.items)

    def check(self) -> bool:
        if not self.epoch.check():
            return False
        return self.snapshot is None or self.snapshot.check()

    def explain(self) -> list[str]:
        out = [g.explain() for g in self.epoch.items if not g.check()]
        if self.snapshot is not None:
            out.extend(self.snapshot.explain())
        return out

    def describe(self) -> list[str]:
        lines = [f"{g.source} {'is' if g.by_identity else '=='} {G._short(g.expected)}"
                 for g in self.epoch.items]
        if self.snapshot is not None:
            lines += [f"all attributes of {type(c).__name__} (run as library code)"
                      for c in self.snapshot.cells]
        return lines


class BytecodeGuards(GuardSet):
    def describe(self) -> list[str]:
        lines = [f"{g.source} {'is' if g.by_identity else '=='} {G._short(g.expected)}"
                 for g in self.guards]
        if isinstance(self.cell_guard, CellGroup):
            lines += self.cell_guard.describe()
        elif self.cell_guard is not None:
            lines += [f"attributes of {type(c).__name__}" for c in self.cell_guard.cells]
        return lines


class GuardRecorder:
    """Collects the guards of one capture; ``guard_set()`` builds them."""

    def __init__(self):
        self.plain: dict = {}
        self.epoch = EpochGuards()
        self._epoch_keys: set = set()
        self.library_cells: dict = {}
        self._discovered: set = set()

    def _add(self, key, source, fetch, value):
        if key in self.plain:
            return
        self.plain[key] = G.value_guard(source, fetch, value)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            self.plain[key + ("data",)] = G.tensor_data_guard(source, value)

    def global_read(self, fglobals, module, name, value):
        from msxla.capture.bytecode.variables.objects import is_staged_library
        if isinstance(value, types.ModuleType):
            return
        if getattr(value, "__name__", None) == name and callable(value) and \
                is_staged_library(value):
            return  # `Tensor`, `jit`, `np`-style names of library objects
        self._add(("g", id(fglobals), name), f"global '{name}' ({module})",
                  lambda g=fglobals, n=name: g[n], value)

    def closure_read(self, cell, name, value):
        self._add(("c", id(cell)), f"closure variable '{name}'",
                  lambda c=cell: c.cell_contents, value)

    def attr_read(self, obj, name, value):
        source = f"{getattr(obj, '__name__', None) or type(obj).__name__}.{name}"
        if isinstance(obj, CellBase):
            key = (id(obj), name)
            if key in self._epoch_keys:
                return
            self._epoch_keys.add(key)
            guard = G.value_guard(source, lambda o=obj, n=name: getattr(o, n), value)
            self.epoch.items.append(guard)
            if isinstance(value, Tensor) and not isinstance(value, Parameter):
                self.plain[("a", id(obj), name, "data")] = G.tensor_data_guard(source, value)
            return
        self._add(("a", id(obj), name), source, lambda o=obj, n=name: getattr(o, n), value)

    def cell_call_state(self, cell):
        """An inlined ``Cell.__call__`` assumed no hooks, no mixed precision."""
        key = (id(cell), "<call>")
        if key in self._epoch_keys:
            return
        self._epoch_keys.add(key)
        self.epoch.items.append(Guard(
            f"{type(cell).__name__} hooks and mixed precision",
            lambda c=cell: (c._hooks.active, c._mixed_precision_type),
            (cell._hooks.active, cell._mixed_precision_type), by_identity=False))

    def item_read(self, container, key, value):
        if not is_data(key):
            return
        self._add(("i", id(container), key), f"{type(container).__name__}[{key!r}]",
                  lambda c=container, k=key: c[k], value)

    def contents_read(self, container):
        key = ("n", id(container))
        if key not in self.plain:
            self.plain[key] = G.ContentGuard(f"contents of a {type(container).__name__}",
                                             lambda c=container: c, container)

    def library_cell(self, cell):
        for _, sub in cell.cells_and_names():
            self.library_cells.setdefault(id(sub), sub)

    def user_code_run_by_python(self, fn):
        """User code that CPython runs during the capture (not interpreted)."""
        from msxla.capture.discover import discover
        if id(fn) in self._discovered:
            return
        self._discovered.add(id(fn))
        found = discover(fn)
        for g in found.guards:
            self.plain.setdefault(("d", g.source), g)
        for cell in found.cells.values():
            self.library_cells.setdefault(id(cell), cell)

    def tensor_source(self, tensor) -> str:
        """Where the capture read ``tensor`` from (its value guard's source)."""
        for g in self.plain.values():
            if isinstance(g, G.TensorDataGuard) and g.tensor is tensor:
                return g.source[:-len("._data")]
        return "a Tensor from outside the function"

    def guard_set(self) -> BytecodeGuards:
        cells = list(self.library_cells.values())
        group = CellGroup(self.epoch, cells) if (cells or self.epoch.items) else None
        return BytecodeGuards(list(self.plain.values()), group)
