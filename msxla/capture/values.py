"""Typed nodes describing Python values: the one encoding capture uses for them.

A call's arguments (``signature.py``), a function's return value, a variable's
value across the paths of a converted branch or loop (``ast/layout.py``) and
a frame's live state at a graph break (``bytecode/state.py``, rebuilt by
``bytecode/recipe.py``) are all described by trees of nodes. The kinds every
description shares are here; each module adds the few kinds only it needs,
as subclasses of ``Node``:

- ``TensorLeaf(cls)``: a Tensor (of class ``cls``) whose array is a graph
  input or output;
- ``ArrayLeaf()``: a bare jax array; ``NumpyLeaf(dtype)``: a numpy array
  passed as a graph input;
- ``ScalarLeaf(cls, base)``: a Python scalar passed as a 0-d array
  (``mutable()``, the recompile brake, a graph value standing for a Python
  scalar);
- ``Const(cls, value)``: a Python value baked in, compared by type and value;
- ``ByIdentity(key)``: an object compared by identity (``key`` is an
  ``IdKey``; ``obj`` the object): a Parameter, a Cell, a module...;
- ``ConstTensor(key, data)``: a Tensor marked ``const_arg``, by identity and
  by its array's identity;
- ``Seq(cls, children)`` and ``Dict(cls, keys, children)``: containers;
- ``Sparse(cls, children, shape)``: a ``CSRTensor``/``COOTensor``, the nodes of
  its Tensors (``cls._PARTS``) and its dense shape (a ``Seq`` to code that only
  walks containers).

A node is a tuple whose first item is its class, with named fields: two
nodes are equal only when they are the same kind with equal fields, and
hashing and comparing run at tuple speed (a description is a cache key).
Code reads nodes by field name and dispatches on their type, never on
positions.
"""
from __future__ import annotations

from operator import itemgetter


class Node(tuple):
    """Base of the value nodes (see the module doc). ``fields`` names the items."""

    __slots__ = ()
    fields: tuple = ()

    def __new__(cls, *values):
        return tuple.__new__(cls, (cls, *values))

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for i, name in enumerate(cls.__dict__.get("fields", ()), 1):
            setattr(cls, name, property(itemgetter(i)))

    def __getnewargs__(self):
        return tuple(self[1:])

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(map(repr, self[1:]))})"


class IdKey:
    """Hashes and compares an object by identity (keeps it alive)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, IdKey) and other.obj is self.obj

    def __repr__(self):
        return f"<{type(self.obj).__name__}>"


class TensorLeaf(Node):
    fields = ("cls",)


class ArrayLeaf(Node):
    fields = ()


class NumpyLeaf(Node):
    fields = ("dtype",)


class ScalarLeaf(Node):
    fields = ("cls", "base")


class Const(Node):
    fields = ("cls", "value")


class ByIdentity(Node):
    fields = ("key",)

    @property
    def obj(self):
        return self[1].obj


class ConstTensor(Node):
    fields = ("key", "data")

    @property
    def obj(self):
        return self[1].obj


class Seq(Node):
    fields = ("cls", "children")


class Dict(Node):
    fields = ("cls", "keys", "children")


class Sparse(Seq):
    fields = ("cls", "children", "shape")


LEAVES = (TensorLeaf, ArrayLeaf, NumpyLeaf, ScalarLeaf)


class _TensorLeaves(dict):
    """``tensor_leaf[cls]``: the one ``TensorLeaf(cls)`` node of each Tensor class, made
    once (the builders that run per call look it up instead of allocating it)."""

    def __missing__(self, cls):
        node = self[cls] = TensorLeaf(cls)
        return node


tensor_leaf = _TensorLeaves()


def const(value) -> Const:
    return Const(type(value), value)


def walk(node, path=""):
    """``(path, node)`` for ``node`` and every node inside its containers, depth first
    in leaf order (``path`` grows by ``[i]`` / ``[key]``)."""
    yield path, node
    cls = type(node)
    if cls is Seq or cls is Sparse:
        for i, child in enumerate(node.children):
            yield from walk(child, f"{path}[{i}]")
    elif cls is Dict:
        for key, child in zip(node.keys, node.children):
            yield from walk(child, f"{path}[{key!r}]")


def leaf_paths(node, path=""):
    """The path of each leaf under ``node``, in leaf order."""
    return [p for p, n in walk(node, path) if isinstance(n, LEAVES)]


def describe_kind(node) -> str:
    """What kind of value a node stands for, in words (for messages)."""
    return _KIND_WORDS.get(type(node), type(node).__name__)


_KIND_WORDS = {TensorLeaf: "Tensor", ArrayLeaf: "array", NumpyLeaf: "numpy array",
               ScalarLeaf: "mutable scalar", Const: "constant", ByIdentity: "object",
               ConstTensor: "const Tensor", Seq: "sequence", Dict: "dict",
               Sparse: "sparse Tensor"}
