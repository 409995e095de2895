"""How a graph's outputs become the live Python state after it (and back).

When a captured piece of a function ends at a graph break, its live state
(the frame's locals, cells and stack, made of traced values) must exist in
Python after the compiled graph runs. ``describe`` turns that state into a
*recipe* plus the list of arrays the graph outputs. At run time ``rebuild``
follows the recipe with the graph's outputs and the real objects of the
state the graph started from:

- ``Out``: a Tensor the graph computed (the k-th output); ``OutArray`` a bare
  array output;
- ``In``: an object of the starting state, unchanged (the real one, so its
  identity and aliases are kept);
- ``Const`` (``msxla/capture/values.py``): a value baked into the graph
  (guarded) or an object from outside;
- ``NewSeq``/``NewSet``/``NewDict``/``SliceOf``/``NewCell``/``NewFn``/
  ``MethOf``/``BoundBuiltin``/``NewIter``: a container, cell, function, bound
  method or iterator made by the captured code, rebuilt around its parts;
  ``CellIn`` writes a new value into a real cell of the starting state (a
  ``nonlocal`` of the frame itself);
- ``Ref``: the same object again (aliases stay aliases).

``slot`` numbers the objects a recipe makes, so a ``Ref`` can point back.

A live value that cannot be described (a generator or an unknown object made
during the capture) raises ``Unrepresentable``: the program then runs that
part of the function in Python.
"""
from __future__ import annotations

import types

import jax

from msxla.capture.bytecode.frame import NULL, UNBOUND, FrameState
from msxla.capture.bytecode.state import MethOf, Ref, SliceOf, Unrepresentable
from msxla.capture.bytecode.variables import iterators as I
from msxla.capture.bytecode.variables.opaque import Opaque
from msxla.capture.guards import is_data
from msxla.capture.values import Const, Node, const
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap
from msxla.common.cell_base import CellBase

_STABLE = (types.ModuleType, type, types.BuiltinFunctionType, types.MethodDescriptorType,
           types.WrapperDescriptorType)


class Out(Node):
    fields = ("slot", "k", "cls")


class OutArray(Node):
    fields = ("k",)


class In(Node):
    """Object number ``pos`` of the starting state (``flatten``'s ``objs``)."""
    fields = ("pos",)


class NewSeq(Node):
    fields = ("slot", "cls", "children")  # slot: None for a tuple (immutable, not memoised)


class NewDict(Node):
    fields = ("slot", "cls", "keys", "children")


class NewSet(Node):
    fields = ("slot", "cls", "children")


class NewCell(Node):
    fields = ("slot", "contents")  # contents: None for an empty cell


class CellIn(Node):
    fields = ("slot", "pos", "contents")


class NewFn(Node):
    fields = ("slot", "code", "globals", "name", "qualname", "defaults", "kwdefaults",
              "closure")


class BoundBuiltin(Node):
    fields = ("name", "owner")


class NewIter(Node):
    fields = ("slot", "cls", "children")


class FrameRecipe(Node):
    """The live state after a graph, as ``FrameSpec`` lays it out."""
    fields = ("index", "kw_names", "names", "locals", "cell_names", "cells", "stack", "exc")


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
            return Ref(self._memo[key])
        if value is NULL or value is UNBOUND:
            return const(value)
        cls = type(value)
        if cls is Parameter:
            return const(value)
        if isinstance(value, Tensor):
            if key in self.t.lifted:
                return In(self.t.lifted[key])
            if key in self.t.external:  # the caller's own Tensor (graph state if written)
                return const(value)
            slot = self._slot(value)
            self.outs.append(value._data)
            return Out(slot, len(self.outs) - 1, cls)
        if isinstance(value, (jax.Array, jax.core.Tracer)):
            self.outs.append(value)
            return OutArray(len(self.outs) - 1)
        if cls is Opaque:
            if key not in self.t.lifted:
                raise Unrepresentable("a Python value made during the capture")
            return In(self.t.lifted[key])
        if is_data(value) or cls is range:
            return const(value)
        if key in self.t.lifted and cls in (list, dict, set, tuple, types.FunctionType):
            return In(self.t.lifted[key])
        if key in self.t.inputs and not self.t.is_tracked(value):
            return In(self.t.inputs[key])
        if cls is tuple or (isinstance(value, tuple) and hasattr(value, "_fields")):
            return NewSeq(None, cls, tuple(self.node(v) for v in value))
        if cls is list:
            slot = self._slot(value)
            return NewSeq(slot, cls, tuple(self.node(v) for v in value))
        if cls is dict:
            slot = self._slot(value)
            return NewDict(slot, cls, tuple(value.keys()),
                           tuple(self.node(v) for v in value.values()))
        if cls is set or cls is frozenset:
            return NewSet(self._slot(value), cls, tuple(self.node(v) for v in value))
        if cls is slice:
            return SliceOf(self.node(value.start), self.node(value.stop), self.node(value.step))
        if cls is types.CellType:
            return self._cell(value, key)
        if cls is types.FunctionType:
            if not self.t.is_tracked(value):
                return const(value)
            slot = self._slot(value)
            return NewFn(slot, value.__code__, value.__globals__, value.__name__,
                         value.__qualname__, self.node(value.__defaults__),
                         self.node(value.__kwdefaults__), self.node(value.__closure__))
        if cls is types.MethodType:
            return MethOf(self.node(value.__func__), self.node(value.__self__))
        if cls is types.BuiltinMethodType and self.t.is_tracked(getattr(value, "__self__", None)):
            return BoundBuiltin(value.__name__, self.node(value.__self__))
        if cls in I.ITERATOR_TYPES:
            slot = self._slot(value)
            return NewIter(slot, cls, tuple(self.node(getattr(value, f))
                                            for f in cls.STATE_FIELDS))
        if self.t.is_tracked(value) or not self._stable(value):
            raise Unrepresentable(f"a live {cls.__name__} made during the capture")
        return const(value)

    def _cell(self, cell, key):
        try:
            contents = cell.cell_contents
            empty = False
        except ValueError:
            contents, empty = None, True
        if key in self.t.lifted:
            slot = self._slot(cell)
            return CellIn(slot, self.t.lifted[key], None if empty else self.node(contents))
        if not self.t.is_tracked(cell):
            return const(cell)
        slot = self._slot(cell)
        return NewCell(slot, None if empty else self.node(contents))

    def _stable(self, value) -> bool:
        """Objects from outside the capture that are safe to refer to by identity."""
        return isinstance(value, _STABLE + (CellBase,)) or id(value) in self.t.external


def describe(state: FrameState, tracking):
    """``(recipe, out_arrays)`` for the live frame ``state`` at the end of a capture."""
    d = Describer(tracking)
    names = tuple(state.locals)
    cell_names = tuple(state.cells)
    recipe = FrameRecipe(state.index, state.kw_names,
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
        kind = type(node)
        if kind is Const:
            return node.value
        if kind is In:
            return self.inputs[node.pos]
        if kind is Ref:
            # the object may be described inside a cell whose contents are still to be
            # filled (a closure variable of a function on the stack): fill cells until it is
            while node.slot not in self.memo and self.fills:
                self._fill_next()
            return self.memo[node.slot]
        if kind is Out:
            t = wrap(self.outs[node.k])
            if node.cls is not Tensor:
                try:
                    t.__class__ = node.cls
                except TypeError:
                    pass
            self.memo[node.slot] = t
            return t
        if kind is OutArray:
            return self.outs[node.k]
        if kind is NewSeq:
            cls = node.cls
            if cls is list:
                out = self.memo[node.slot] = []
                out.extend(self.value(c) for c in node.children)
                return out
            items = [self.value(c) for c in node.children]
            return tuple(items) if cls is tuple else cls(*items)
        if kind is NewDict:
            out = self.memo[node.slot] = node.cls()
            for k, c in zip(node.keys, node.children):
                out[k] = self.value(c)
            return out
        if kind is NewSet:
            out = self.memo[node.slot] = node.cls(self.value(c) for c in node.children)
            return out
        if kind is SliceOf:
            return slice(self.value(node.start), self.value(node.stop), self.value(node.step))
        if kind is NewCell:
            cell = self.memo[node.slot] = types.CellType()
            if node.contents is not None:
                self.fills.append((cell, node.contents))
            return cell
        if kind is CellIn:
            cell = self.memo[node.slot] = self.inputs[node.pos]
            if node.contents is not None:
                self.fills.append((cell, node.contents))
            return cell
        if kind is NewFn:
            defaults, kwdefaults = self.value(node.defaults), self.value(node.kwdefaults)
            fn = types.FunctionType(node.code, node.globals, node.name, defaults,
                                    self.value(node.closure))
            fn.__kwdefaults__, fn.__qualname__ = kwdefaults, node.qualname
            self.memo[node.slot] = fn
            return fn
        if kind is MethOf:
            return types.MethodType(self.value(node.func), self.value(node.owner))
        if kind is BoundBuiltin:
            return getattr(self.value(node.owner), node.name)
        if kind is NewIter:
            it = self.memo[node.slot] = node.cls.__new__(node.cls)
            for name, child in zip(node.cls.STATE_FIELDS, node.children):
                setattr(it, name, self.value(child))
            return it
        raise AssertionError(node)

    def _fill_next(self):
        cell, node = self.fills.pop(0)
        cell.cell_contents = self.value(node)

    def finish(self):
        while self.fills:
            self._fill_next()


def rebuild(recipe, outs, inputs) -> FrameState:
    """The live Python state after a graph: ``outs`` are its output arrays, ``inputs`` the
    real objects of the state it started from (``flatten``'s ``objs``)."""
    r = Rebuilder(outs, inputs)
    local_values = {n: r.value(c) for n, c in zip(recipe.names, recipe.locals)}
    cells = {n: r.value(c) for n, c in zip(recipe.cell_names, recipe.cells)}
    stack_values = [r.value(c) for c in recipe.stack]
    exc_value = r.value(recipe.exc)
    r.finish()
    return FrameState(local_values, cells, stack_values, recipe.index, recipe.kw_names,
                      exc_value)
