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

Node kinds: ``T`` Tensor leaf, ``J`` raw jax array leaf, ``P`` Parameter,
``S`` data, ``O`` object by identity, ``X`` opaque, ``seq``/``set``/``dict``
containers, ``cell``, ``fn`` (a function made inside the frame: code +
defaults + closure), ``meth``/``bmeth`` bound methods, ``iter`` interpreter
iterators, ``ref`` (the same object met again), ``mark`` (NULL / unbound).
"""
from __future__ import annotations

import types

import jax

from msxla.capture.bytecode.frame import NULL, UNBOUND, FrameState
from msxla.capture.bytecode.variables import iterators as I
from msxla.capture.bytecode.variables.opaque import Opaque, is_opaque_value
from msxla.capture.guards import is_data
from msxla.capture.signature import IdKey
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap

_MEMO_TYPES = (list, dict, set, types.CellType, types.FunctionType) + I.ITERATOR_TYPES


class Unrepresentable(Exception):
    """A live value that cannot cross a graph break (a generator, ...)."""


class Flattener:
    def __init__(self):
        self.leaves, self.owners, self.objs = [], [], []
        self._memo: dict = {}

    def node(self, value):
        index = len(self.objs)
        self.objs.append(value)
        key = id(value)
        if key in self._memo:
            return ("ref", self._memo[key])
        cls = type(value)
        if cls in _MEMO_TYPES or isinstance(value, Tensor):
            self._memo[key] = index
        if value is NULL or value is UNBOUND:
            return ("mark", value.name)
        if cls is Parameter:
            return ("P", IdKey(value))
        if isinstance(value, Tensor):
            if value.const_arg or value._data is None:
                return ("O", IdKey(value))
            self.leaves.append(value._data)
            self.owners.append(value)
            return ("T", cls)
        if isinstance(value, (jax.Array, jax.core.Tracer)):
            self.leaves.append(value)
            self.owners.append(None)
            return ("J",)
        if is_opaque_value(value):
            return ("X",)
        if cls is Opaque:
            return ("X",)
        if is_data(value) or cls is range:
            return ("S", cls, value)
        if cls is tuple or cls is list or (isinstance(value, tuple) and hasattr(value, "_fields")):
            return ("seq", cls, tuple(self.node(v) for v in value))
        if cls is dict:
            return ("dict", cls, tuple(value.keys()), tuple(self.node(v) for v in value.values()))
        if cls is set or cls is frozenset:
            return ("set", cls, tuple(self.node(v) for v in value))
        if cls is slice:
            return ("slice", self.node(value.start), self.node(value.stop), self.node(value.step))
        if cls is types.CellType:
            try:
                contents = value.cell_contents
            except ValueError:
                return ("cell", None)
            return ("cell", self.node(contents))
        if cls is types.FunctionType:
            return ("fn", IdKey(value.__code__), IdKey(value.__globals__), value.__name__,
                    value.__qualname__, self.node(value.__defaults__),
                    self.node(value.__kwdefaults__), self.node(value.__closure__))
        if cls is types.MethodType:
            return ("meth", self.node(value.__func__), self.node(value.__self__))
        if cls in I.ITERATOR_TYPES:
            return ("iter", cls, tuple(self.node(getattr(value, f)) for f in cls.STATE_FIELDS))
        if _generator_like(value):
            raise Unrepresentable(f"a live {cls.__name__} object")
        return ("O", IdKey(value))


def _generator_like(value) -> bool:
    return isinstance(value, (types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType)) \
        or type(value).__name__.endswith("iterator") or type(value) in (zip, map, filter,
                                                                        enumerate, reversed)


def flatten(state: FrameState):
    """``(spec, leaves, owners, objs)`` of a frame state (see the module doc)."""
    f = Flattener()
    local_names = tuple(sorted(state.locals))
    cell_names = tuple(sorted(state.cells))
    spec = ("state", state.index, state.kw_names,
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
        kind = node[0]
        if kind == "ref":
            return self.made.get(node[1]) if node[1] in self.made else _Pending(node[1])
        out = self._build(node, kind, index)
        self.made[index] = out
        return out

    def _build(self, node, kind, index):
        if kind == "mark":
            return NULL if node[1] == "NULL" else UNBOUND
        if kind == "T":
            return self._lift(index, next(self.tensors))
        if kind == "J":
            return self._lift(index, next(self.tensors)._data)
        if kind in ("P", "O"):
            return self.objs[index]
        if kind == "S":
            return node[2]
        if kind == "X":
            return self._lift(index, Opaque(self.objs[index]))
        if kind == "seq":
            cls = node[1]
            if cls is list:
                out = self._lift(index, [])
                out.extend(self.value(c) for c in node[2])
                return out
            items = [self.value(c) for c in node[2]]
            return self._lift(index, cls(items) if cls is tuple else cls(*items))
        if kind == "set":
            return self._lift(index, node[1](self.value(c) for c in node[2]))
        if kind == "dict":
            out = self._lift(index, node[1]())
            for k, c in zip(node[2], node[3]):
                out[k] = self.value(c)
            return out
        if kind == "slice":
            return slice(self.value(node[1]), self.value(node[2]), self.value(node[3]))
        if kind == "cell":
            cell = self._lift(index, types.CellType())
            if node[1] is not None:
                contents = self.value(node[1])
                if isinstance(contents, _Pending):
                    self.deferred.append((cell, contents.index))
                else:
                    cell.cell_contents = contents
            return cell
        if kind == "fn":
            defaults, kwdefaults = self.value(node[5]), self.value(node[6])
            closure = self.value(node[7])
            fn = types.FunctionType(node[1].obj, node[2].obj, node[3], defaults, closure)
            fn.__kwdefaults__, fn.__qualname__ = kwdefaults, node[4]
            return self._lift(index, fn)
        if kind == "meth":
            return types.MethodType(self.value(node[1]), self.value(node[2]))
        if kind == "iter":
            it = self._lift(index, node[1].__new__(node[1]))
            for name, child in zip(node[1].STATE_FIELDS, node[2]):
                setattr(it, name, self.value(child))
            return it
        raise AssertionError(kind)

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
    _, index, kw_names, local_names, local_nodes, cell_names, cell_nodes, stack, exc = spec
    local_values = {n: lifter.value(c) for n, c in zip(local_names, local_nodes)}
    cells = {n: lifter.value(c) for n, c in zip(cell_names, cell_nodes)}
    stack_values = [lifter.value(c) for c in stack]
    exc_value = lifter.value(exc)
    lifter.finish()
    return FrameState(local_values, cells, stack_values, index, kw_names, exc_value)


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
