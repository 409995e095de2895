"""A frame's live state as a cache key and graph inputs, and back as traced values.

At a graph break the captured frame's state (fast locals, cells, value stack,
pending keyword names, the exception being handled) lives in Python. To
resume capture after it, ``flatten`` walks that state once and returns:

- a hashable *spec*: the structure, Python scalars by value, Cells, modules,
  functions and other objects by identity, Tensors by class (their shapes and
  dtypes are the leaves' avals);
- the *leaves*: the jax arrays of the Tensors, which become graph inputs;
- the *owners*: the Tensor object of each leaf (for in-place writes);
- the *objects*: the real object at each node of the spec, so the capture's
  end can point back at them (``recipe.py``).

``lift`` does the reverse inside the capture: it rebuilds the state with
traced Tensors, copies of containers and cells (recording each copy in the
``Tracking``), and ``Opaque`` wrappers around values that came from Python
(numpy arrays, exceptions).

The nodes are ``msxla/capture/values.py``'s (``TensorLeaf``, ``ArrayLeaf`` for
a raw jax array, ``Const``, ``ByIdentity`` for Parameters and other objects,
``Seq``, ``Dict``) plus the frame's own kinds below: ``OpaqueValue``,
``SetOf``, ``SliceOf``, ``CellOf``, ``FnOf`` (a function made inside the
frame: code + defaults + closure), ``MethOf`` (a bound method), ``IterOf``
(an interpreter iterator), ``Ref`` (the same object met again) and ``Mark``
(NULL / unbound); ``FrameSpec`` holds a whole state.
"""
from __future__ import annotations

import types

import jax

from msxla.capture.bytecode.frame import NULL, UNBOUND, FrameState
from msxla.capture.bytecode.variables import iterators as I
from msxla.capture.bytecode.variables.opaque import Opaque, is_opaque_value
from msxla.capture.guards import is_data
from msxla.capture.values import (ArrayLeaf, ByIdentity, Const, Dict, IdKey, Node, Seq,
                                  TensorLeaf, tensor_leaf)
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap

_MEMO_TYPES = (list, dict, set, types.CellType, types.FunctionType) + I.ITERATOR_TYPES
# ``flatten`` runs on every call of a program: its nodes are made with tuple.__new__
# directly (the same nodes as ``Kind(...)``, without a Python-level constructor call).
_new = tuple.__new__


class Unrepresentable(Exception):
    """A live value that cannot cross a graph break (a generator, ...)."""


class Ref(Node):
    """The object already described at node number ``slot`` (aliases stay aliases)."""
    fields = ("slot",)


class Mark(Node):
    """The interpreter's NULL or UNBOUND marker (by name)."""
    fields = ("name",)


class OpaqueValue(Node):
    """A value Python computed that the graph only carries (a numpy array, ...)."""
    fields = ()


class SetOf(Node):
    fields = ("cls", "children")


class SliceOf(Node):
    fields = ("start", "stop", "step")


class CellOf(Node):
    """A closure cell; ``contents`` is None for an empty cell."""
    fields = ("contents",)


class FnOf(Node):
    """A function made inside the frame: its code and globals by identity, and nodes
    of its defaults and closure."""
    fields = ("code", "globals", "name", "qualname", "defaults", "kwdefaults", "closure")


class MethOf(Node):
    fields = ("func", "owner")


class IterOf(Node):
    """An interpreter iterator: its class and the nodes of its state fields."""
    fields = ("cls", "children")


class FrameSpec(Node):
    """A frame's live state: instruction, pending keyword names, locals and cells (by
    sorted name), value stack and the exception being handled."""
    fields = ("index", "kw_names", "local_names", "locals", "cell_names", "cells", "stack",
              "exc")


class Flattener:
    def __init__(self):
        self.leaves, self.owners, self.objs = [], [], []
        self._memo: dict = {}

    def node(self, value):
        index = len(self.objs)
        self.objs.append(value)
        key = id(value)
        if key in self._memo:
            return _new(Ref, (Ref, self._memo[key]))
        cls = type(value)
        if cls in _MEMO_TYPES or isinstance(value, Tensor):
            self._memo[key] = index
        if value is NULL or value is UNBOUND:
            return _new(Mark, (Mark, value.name))
        if cls is Parameter:
            return _new(ByIdentity, (ByIdentity, IdKey(value)))
        if isinstance(value, Tensor):
            if value.const_arg or value._data is None:
                return _new(ByIdentity, (ByIdentity, IdKey(value)))
            self.leaves.append(value._data)
            self.owners.append(value)
            return tensor_leaf[cls]
        if isinstance(value, (jax.Array, jax.core.Tracer)):
            self.leaves.append(value)
            self.owners.append(None)
            return _ARRAY
        if cls is Opaque or is_opaque_value(value):
            return _OPAQUE
        if is_data(value) or cls is range:
            return _new(Const, (Const, cls, value))
        if cls is tuple or cls is list or (isinstance(value, tuple) and hasattr(value, "_fields")):
            return _new(Seq, (Seq, cls, tuple(self.node(v) for v in value)))
        if cls is dict:
            children = tuple(self.node(v) for v in value.values())
            return _new(Dict, (Dict, cls, tuple(value.keys()), children))
        if cls is set or cls is frozenset:
            return SetOf(cls, tuple(self.node(v) for v in value))
        if cls is slice:
            return SliceOf(self.node(value.start), self.node(value.stop), self.node(value.step))
        if cls is types.CellType:
            try:
                contents = value.cell_contents
            except ValueError:
                return CellOf(None)
            return CellOf(self.node(contents))
        if cls is types.FunctionType:
            return FnOf(IdKey(value.__code__), IdKey(value.__globals__), value.__name__,
                        value.__qualname__, self.node(value.__defaults__),
                        self.node(value.__kwdefaults__), self.node(value.__closure__))
        if cls is types.MethodType:
            return MethOf(self.node(value.__func__), self.node(value.__self__))
        if cls in I.ITERATOR_TYPES:
            return IterOf(cls, tuple(self.node(getattr(value, f)) for f in cls.STATE_FIELDS))
        if _generator_like(value):
            raise Unrepresentable(f"a live {cls.__name__} object")
        return _new(ByIdentity, (ByIdentity, IdKey(value)))


_ARRAY, _OPAQUE = ArrayLeaf(), OpaqueValue()


def _generator_like(value) -> bool:
    return isinstance(value, (types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType)) \
        or type(value).__name__.endswith("iterator") or type(value) in (zip, map, filter,
                                                                        enumerate, reversed)


def flatten(state: FrameState):
    """``(spec, leaves, owners, objs)`` of a frame state (see the module doc)."""
    f = Flattener()
    local_names = tuple(sorted(state.locals))
    cell_names = tuple(sorted(state.cells))
    spec = FrameSpec(state.index, state.kw_names,
                     local_names, tuple(f.node(state.locals[n]) for n in local_names),
                     cell_names, tuple(f.node(state.cells[n]) for n in cell_names),
                     tuple(f.node(v) for v in state.stack), f.node(state.exc))
    return spec, f.leaves, f.owners, f.objs


class _Pending:
    """A reference to a function whose closure is still being rebuilt (a cycle)."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class Lifter:
    """Rebuilds a spec inside a capture with ``tensors`` at the leaves."""

    def __init__(self, tensors, objs, tracking):
        self.tensors, self.objs, self.t = iter(tensors), objs, tracking
        self.index = 0
        self.made: dict = {}
        self.deferred = []

    def value(self, node):
        index = self.index
        self.index += 1
        self.t.inputs[id(self.objs[index])] = index
        kind = type(node)
        if kind is Ref:
            return self.made.get(node.slot) if node.slot in self.made else _Pending(node.slot)
        out = self._build(node, kind, index)
        self.made[index] = out
        return out

    def _build(self, node, kind, index):
        if kind is Mark:
            return NULL if node.name == "NULL" else UNBOUND
        if kind is TensorLeaf:
            return self._lift(index, next(self.tensors))
        if kind is ArrayLeaf:
            return self._lift(index, next(self.tensors)._data)
        if kind is ByIdentity:
            return self.objs[index]
        if kind is Const:
            return node.value
        if kind is OpaqueValue:
            return self._lift(index, Opaque(self.objs[index]))
        if kind is Seq:
            cls = node.cls
            if cls is list:
                out = self._lift(index, [])
                out.extend(self.value(c) for c in node.children)
                return out
            items = [self.value(c) for c in node.children]
            return self._lift(index, cls(items) if cls is tuple else cls(*items))
        if kind is SetOf:
            return self._lift(index, node.cls(self.value(c) for c in node.children))
        if kind is Dict:
            out = self._lift(index, node.cls())
            for k, c in zip(node.keys, node.children):
                out[k] = self.value(c)
            return out
        if kind is SliceOf:
            return slice(self.value(node.start), self.value(node.stop), self.value(node.step))
        if kind is CellOf:
            cell = self._lift(index, types.CellType())
            if node.contents is not None:
                contents = self.value(node.contents)
                if isinstance(contents, _Pending):
                    self.deferred.append((cell, contents.index))
                else:
                    cell.cell_contents = contents
            return cell
        if kind is FnOf:
            defaults, kwdefaults = self.value(node.defaults), self.value(node.kwdefaults)
            closure = self.value(node.closure)
            fn = types.FunctionType(node.code.obj, node.globals.obj, node.name, defaults, closure)
            fn.__kwdefaults__, fn.__qualname__ = kwdefaults, node.qualname
            return self._lift(index, fn)
        if kind is MethOf:
            return types.MethodType(self.value(node.func), self.value(node.owner))
        if kind is IterOf:
            it = self._lift(index, node.cls.__new__(node.cls))
            for name, child in zip(node.cls.STATE_FIELDS, node.children):
                setattr(it, name, self.value(child))
            return it
        raise AssertionError(node)

    def _lift(self, index, obj):
        self.made[index] = obj
        self.t.lift(obj, index)
        return obj

    def finish(self):
        for cell, index in self.deferred:
            cell.cell_contents = self.made[index]


def lift(spec, tensors, objs, tracking) -> FrameState:
    """The frame state described by ``spec`` with traced ``tensors`` at the leaves."""
    lifter = Lifter(tensors, objs, tracking)
    local_values = {n: lifter.value(c) for n, c in zip(spec.local_names, spec.locals)}
    cells = {n: lifter.value(c) for n, c in zip(spec.cell_names, spec.cells)}
    stack_values = [lifter.value(c) for c in spec.stack]
    exc_value = lifter.value(spec.exc)
    lifter.finish()
    return FrameState(local_values, cells, stack_values, spec.index, spec.kw_names, exc_value)


def lifted_tensors(leaves, owners):
    """Tensors around traced leaves, keeping each owner's Tensor class."""
    out = []
    for leaf, owner in zip(leaves, owners):
        t = wrap(leaf)
        if owner is not None and type(owner) is not Tensor and type(owner) is not Parameter:
            try:
                t.__class__ = type(owner)
            except TypeError:
                pass
        out.append(t)
    return out
