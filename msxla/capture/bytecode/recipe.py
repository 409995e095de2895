"""How a graph's outputs become the live Python state after it (and back).

When a captured piece of a function ends at a graph break, its live state
(the frame's locals, cells and stack, made of traced values) must exist in
Python after the compiled graph runs. ``describe`` turns that state into a
*recipe* plus the list of arrays the graph outputs. At run time ``rebuild``
follows the recipe with the graph's outputs and the real objects of the
state the graph started from:

- ``out``: a Tensor the graph computed (the k-th output);
- ``in``: an object of the starting state, unchanged (the real one, so its
  identity and aliases are kept);
- ``const``: a value baked into the graph (guarded) or an object from outside;
- ``seq``/``set``/``dict``/``slice``/``cell``/``fn``/``meth``/``iter``: a
  container, cell, function, bound method or iterator made by the captured
  code, rebuilt around its parts; ``cellin`` writes a new value into a real
  cell of the starting state (a ``nonlocal`` of the frame itself);
- ``ref``: the same object again (aliases stay aliases).

A live value that cannot be described (a generator or an unknown object made
during the capture) raises ``Unrepresentable``: the program then runs that
part of the function in Python.
"""
from __future__ import annotations

import types

import jax

from msxla.capture.bytecode.frame import NULL, UNBOUND, FrameState
from msxla.capture.bytecode.state import Unrepresentable
from msxla.capture.bytecode.variables import iterators as I
from msxla.capture.bytecode.variables.opaque import Opaque
from msxla.capture.guards import is_data
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap
from msxla.common.cell_base import CellBase

_STABLE = (types.ModuleType, type, types.BuiltinFunctionType, types.MethodDescriptorType,
           types.WrapperDescriptorType)


class Describer:
    def __init__(self, tracking):
        self.t = tracking
        self.outs: list = []
        self._memo: dict = {}
        self._slots = 0

    def _slot(self, value):
        slot = self._slots
        self._slots += 1
        self._memo[id(value)] = slot
        return slot

    def node(self, value):
        key = id(value)
        if key in self._memo:
            return ("ref", self._memo[key])
        if value is NULL or value is UNBOUND:
            return ("const", value)
        cls = type(value)
        if cls is Parameter:
            return ("const", value)
        if isinstance(value, Tensor):
            if key in self.t.lifted:
                return ("in", self.t.lifted[key])
            slot = self._slot(value)
            self.outs.append(value._data)
            return ("out", slot, len(self.outs) - 1, cls)
        if isinstance(value, (jax.Array, jax.core.Tracer)):
            self.outs.append(value)
            return ("outj", len(self.outs) - 1)
        if cls is Opaque:
            if key not in self.t.lifted:
                raise Unrepresentable("a Python value made during the capture")
            return ("in", self.t.lifted[key])
        if is_data(value) or cls is range:
            return ("const", value)
        if key in self.t.lifted and cls in (list, dict, set, tuple, types.FunctionType):
            return ("in", self.t.lifted[key])
        if key in self.t.inputs and not self.t.is_tracked(value):
            return ("in", self.t.inputs[key])
        if cls is tuple or (isinstance(value, tuple) and hasattr(value, "_fields")):
            return ("seq", None, cls, tuple(self.node(v) for v in value))
        if cls is list:
            slot = self._slot(value)
            return ("seq", slot, cls, tuple(self.node(v) for v in value))
        if cls is dict:
            slot = self._slot(value)
            return ("dict", slot, cls, tuple(value.keys()), tuple(self.node(v) for v in
                                                                 value.values()))
        if cls is set or cls is frozenset:
            return ("set", self._slot(value), cls, tuple(self.node(v) for v in value))
        if cls is slice:
            return ("slice", self.node(value.start), self.node(value.stop), self.node(value.step))
        if cls is types.CellType:
            return self._cell(value, key)
        if cls is types.FunctionType:
            if not self.t.is_tracked(value):
                return ("const", value)
            slot = self._slot(value)
            return ("fn", slot, value.__code__, value.__globals__, value.__name__,
                    value.__qualname__, self.node(value.__defaults__),
                    self.node(value.__kwdefaults__), self.node(value.__closure__))
        if cls is types.MethodType:
            return ("meth", self.node(value.__func__), self.node(value.__self__))
        if cls is types.BuiltinMethodType and self.t.is_tracked(getattr(value, "__self__", None)):
            return ("bmeth", value.__name__, self.node(value.__self__))
        if cls in I.ITERATOR_TYPES:
            slot = self._slot(value)
            return ("iter", slot, cls, tuple(self.node(getattr(value, f))
                                             for f in cls.STATE_FIELDS))
        if self.t.is_tracked(value) or not self._stable(value):
            raise Unrepresentable(f"a live {cls.__name__} made during the capture")
        return ("const", value)

    def _cell(self, cell, key):
        try:
            contents = cell.cell_contents
            empty = False
        except ValueError:
            contents, empty = None, True
        if key in self.t.lifted:
            slot = self._slot(cell)
            return ("cellin", slot, self.t.lifted[key], None if empty else self.node(contents))
        if not self.t.is_tracked(cell):
            return ("const", cell)
        slot = self._slot(cell)
        return ("cell", slot, None if empty else self.node(contents))

    def _stable(self, value) -> bool:
        """Objects from outside the capture that are safe to refer to by identity."""
        return isinstance(value, _STABLE + (CellBase,)) or id(value) in self.t.external


def describe(state: FrameState, tracking):
    """``(recipe, out_arrays)`` for the live frame ``state`` at the end of a capture."""
    d = Describer(tracking)
    names = tuple(state.locals)
    cell_names = tuple(state.cells)
    recipe = (state.index, state.kw_names,
              names, tuple(d.node(state.locals[n]) for n in names),
              cell_names, tuple(d.node(state.cells[n]) for n in cell_names),
              tuple(d.node(v) for v in state.stack), d.node(state.exc))
    return recipe, d.outs


class Rebuilder:
    def __init__(self, outs, inputs):
        self.outs, self.inputs = outs, inputs
        self.memo: dict = {}
        self.fills = []

    def value(self, node):
        kind = node[0]
        if kind == "const":
            return node[1]
        if kind == "in":
            return self.inputs[node[1]]
        if kind == "ref":
            return self.memo[node[1]]
        if kind == "out":
            t = wrap(self.outs[node[2]])
            if node[3] is not Tensor:
                try:
                    t.__class__ = node[3]
                except TypeError:
                    pass
            self.memo[node[1]] = t
            return t
        if kind == "outj":
            return self.outs[node[1]]
        if kind == "seq":
            cls = node[2]
            if cls is list:
                out = self.memo[node[1]] = []
                out.extend(self.value(c) for c in node[3])
                return out
            items = [self.value(c) for c in node[3]]
            return tuple(items) if cls is tuple else cls(*items)
        if kind == "dict":
            out = self.memo[node[1]] = node[2]()
            for k, c in zip(node[3], node[4]):
                out[k] = self.value(c)
            return out
        if kind == "set":
            out = self.memo[node[1]] = node[2](self.value(c) for c in node[3])
            return out
        if kind == "slice":
            return slice(self.value(node[1]), self.value(node[2]), self.value(node[3]))
        if kind == "cell":
            cell = self.memo[node[1]] = types.CellType()
            if node[2] is not None:
                self.fills.append((cell, node[2]))
            return cell
        if kind == "cellin":
            cell = self.memo[node[1]] = self.inputs[node[2]]
            if node[3] is not None:
                self.fills.append((cell, node[3]))
            return cell
        if kind == "fn":
            defaults, kwdefaults = self.value(node[6]), self.value(node[7])
            fn = types.FunctionType(node[2], node[3], node[4], defaults, self.value(node[8]))
            fn.__kwdefaults__, fn.__qualname__ = kwdefaults, node[5]
            self.memo[node[1]] = fn
            return fn
        if kind == "meth":
            return types.MethodType(self.value(node[1]), self.value(node[2]))
        if kind == "bmeth":
            return getattr(self.value(node[2]), node[1])
        if kind == "iter":
            it = self.memo[node[1]] = node[2].__new__(node[2])
            for name, child in zip(node[2].STATE_FIELDS, node[3]):
                setattr(it, name, self.value(child))
            return it
        raise AssertionError(kind)

    def finish(self):
        while self.fills:
            cell, node = self.fills.pop(0)
            cell.cell_contents = self.value(node)


def rebuild(recipe, outs, inputs) -> FrameState:
    """The live Python state after a graph: ``outs`` are its output arrays, ``inputs`` the
    real objects of the state it started from (``flatten``'s ``objs``)."""
    r = Rebuilder(outs, inputs)
    index, kw_names, names, local_nodes, cell_names, cell_nodes, stack, exc = recipe
    local_values = {n: r.value(c) for n, c in zip(names, local_nodes)}
    cells = {n: r.value(c) for n, c in zip(cell_names, cell_nodes)}
    stack_values = [r.value(c) for c in stack]
    exc_value = r.value(exc)
    r.finish()
    return FrameState(local_values, cells, stack_values, index, kw_names, exc_value)
