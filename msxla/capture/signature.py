"""Call signatures: how a call's arguments become graph inputs and back.

``flatten_args`` walks the arguments once and returns a hashable *spec* (a
``Call`` of value nodes, ``values.py``: the structure plus everything baked
in: Python scalars by type and value, Cells and other objects by identity,
Parameters by identity) and the *leaves* (the jax arrays of the Tensors,
which become graph inputs). Tensors inside tuples, lists and dicts are leaves
too, never constants; ``mutable(...)`` scalars are leaves instead of
constants.

For the hot path, ``make_matcher(spec)`` generates a small Python function
that checks a new call against the spec and returns its leaves (or None) with
no generic tree walking: ``(a, b, c)`` of Tensors becomes
``if len(args) == 3: ... return (a._data, b._data, c._data)``.
``matcher_code`` gives the checks and leaf expressions themselves, so the
jit fast path (``msxla/jit/fastpath.py``) builds its own function from them.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from msxla.capture.guards import is_data
from msxla.capture.values import (ByIdentity, Const, ConstTensor, Dict, IdKey, Node,  # noqa: F401
                                  NumpyLeaf, ScalarLeaf, Seq, Sparse, TensorLeaf, leaf_paths,
                                  tensor_leaf)
from msxla.common._sparse_base import SparseBase
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, concretization_error, wrap
from msxla.options import MUTABLE_CONTAINERS, MUTABLE_SCALARS

_SCALAR_DTYPES = {bool: np.bool_, int: np.int64, float: np.float32}
# Nodes built per call are made with tuple.__new__ directly: the same node as
# ``TensorLeaf(cls)`` (values.Node), without a Python-level constructor call.
_new = tuple.__new__


class Call(Node):
    """A call's spec: the nodes of its positional arguments, its keyword names (sorted)
    and their nodes."""

    fields = ("args", "kwnames", "kwargs")

    def children(self):
        return self.args + self.kwargs

    def leaf_paths(self):
        """A path (``args[0][1]``) for each leaf, in leaf order."""
        out = []
        for i, child in enumerate(self.args):
            out += leaf_paths(child, f"args[{i}]")
        for k, child in zip(self.kwnames, self.kwargs):
            out += leaf_paths(child, f"kwargs[{k!r}]")
        return out


def flatten_args(args, kwargs, dynamic_scalars=frozenset()):
    """``(spec, leaves, owners)``: the call's structure, graph inputs, and the
    Tensor object each leaf came from (None for scalars made into leaves)."""
    leaves, owners = [], []
    children = tuple(_flatten(a, leaves, owners, (i,) in dynamic_scalars, False)
                     for i, a in enumerate(args))
    keys = tuple(sorted(kwargs)) if kwargs else ()
    kw_children = tuple(_flatten(kwargs[k], leaves, owners, (k,) in dynamic_scalars, False)
                        for k in keys)
    return _new(Call, (Call, children, keys, kw_children)), leaves, owners


def _flatten(x, leaves, owners, dynamic, in_mutable):
    cls = type(x)
    if cls is Parameter:
        return _new(ByIdentity, (ByIdentity, IdKey(x)))
    if isinstance(x, Tensor):
        if x.const_arg:
            return _new(ConstTensor, (ConstTensor, IdKey(x), IdKey(x._data)))
        leaves.append(x._data)
        owners.append(x)
        return tensor_leaf[cls]
    if cls in MUTABLE_SCALARS or ((dynamic or in_mutable) and cls in _SCALAR_DTYPES):
        base = bool if isinstance(x, bool) else (int if isinstance(x, int) else float)
        leaves.append(jnp.asarray(x, _SCALAR_DTYPES[base]))
        owners.append(None)
        return _new(ScalarLeaf, (ScalarLeaf, cls, base))
    if cls in MUTABLE_CONTAINERS:
        return _container(x, cls, leaves, owners, True)
    if cls is tuple or cls is list or cls is dict:
        return _container(x, cls, leaves, owners, in_mutable)
    if isinstance(x, np.ndarray):
        leaves.append(jnp.asarray(x))
        owners.append(None)
        return _new(NumpyLeaf, (NumpyLeaf, x.dtype))
    if isinstance(x, SparseBase):  # its Tensors are leaves, its shape is baked in
        children = tuple(_flatten(p, leaves, owners, False, in_mutable) for p in x._parts())
        return _new(Sparse, (Sparse, cls, children, x.shape))
    if is_data(x):
        if cls is float and x == 0.0 and math.copysign(1.0, x) < 0:
            # -0.0 == 0.0 as a key, not as a constant
            return _new(ByIdentity, (ByIdentity, IdKey(_NEG_ZERO)))
        return _new(Const, (Const, cls, x))
    return _new(ByIdentity, (ByIdentity, IdKey(x)))


_NEG_ZERO = -0.0


def _container(x, cls, leaves, owners, in_mutable):
    if cls is dict or issubclass(cls, dict):
        keys = tuple(x.keys())
        children = tuple(_flatten(x[k], leaves, owners, False, in_mutable) for k in keys)
        return _new(Dict, (Dict, cls, keys, children))
    children = tuple(_flatten(v, leaves, owners, False, in_mutable) for v in x)
    return _new(Seq, (Seq, cls, children))


def rebuild_args(spec, leaf_tensors):
    """Arguments for the captured function, with ``leaf_tensors`` (Tensors) at the leaves."""
    it = iter(leaf_tensors)
    args = tuple(_rebuild(c, it) for c in spec.args)
    kwargs = {k: _rebuild(c, it) for k, c in zip(spec.kwnames, spec.kwargs)}
    return args, kwargs


def _rebuild(node, it):
    kind = type(node)
    if kind is TensorLeaf or kind is ScalarLeaf:
        return next(it)
    if kind is NumpyLeaf:  # a numpy argument: returned as it came, it comes back as numpy
        t = next(it)
        t.__dict__["_from_numpy"] = True
        return t
    if kind is ByIdentity or kind is ConstTensor:
        return node.obj
    if kind is Const:
        return node.value
    if kind is Dict:
        return node.cls(zip(node.keys, (_rebuild(c, it) for c in node.children)))
    if kind is Sparse:
        return node.cls._from_parts(node.shape, *(_rebuild(c, it) for c in node.children))
    if kind is Seq:
        items = [_rebuild(c, it) for c in node.children]
        return node.cls(items) if node.cls is not tuple else tuple(items)
    raise AssertionError(node)


def spec_params(spec):
    """Parameters passed as arguments (they are state, not leaves)."""
    out = []

    def walk(node):
        kind = type(node)
        if kind is ByIdentity and type(node.obj) is Parameter:
            out.append(node.obj)
        elif kind is Dict or kind is Seq:
            for c in node.children:
                walk(c)
    for c in spec.children():
        walk(c)
    return out


def leaf_avals(leaves):
    return tuple(jax.ShapeDtypeStruct(x.shape, x.dtype) for x in leaves)


def aval_key(leaves):
    return tuple((tuple(x.shape), x.dtype) for x in leaves)


# ------------------------------------------------------------- codegen
def make_matcher(spec, guard_src="", namespace=None):
    """Generate ``match(args, kwargs) -> leaves tuple | None`` for ``spec``."""
    ns = dict(namespace or {})
    lines, leaves = matcher_code(spec, ns)
    if guard_src:
        lines.append(f"if not ({guard_src}): return None")
    ret = "(" + "".join(f"{x}, " for x in leaves) + ")"
    body = "\n    ".join(lines + [f"return {ret}"])
    src = f"def match(args, kwargs):\n    {body}\n"
    exec(compile(src, "<msxla signature matcher>", "exec"), ns)  # noqa: S102 - generated
    match = ns["match"]
    match.source = src
    return match


def matcher_code(spec, ns, miss="None"):
    """``(lines, leaf_exprs)``: the statements that check ``args``/``kwargs`` against
    ``spec`` (each failed check returns ``miss``) and the expressions of the leaves.
    The names the code uses are added to the namespace ``ns``."""
    ns.setdefault("_MISSING", object())
    gen = _Gen(ns, miss)
    if spec.kwnames:
        gen.lines.append(f"if len(kwargs) != {len(spec.kwnames)}: return {miss}")
    else:
        gen.lines.append(f"if kwargs: return {miss}")
    # one unpacking checks the count and names the arguments (cheaper per call than
    # len() and an index per argument)
    names = [gen.name("a", None) for _ in spec.args]
    if names:
        gen.lines += ["try:", f"    {', '.join(names)}, = args", "except ValueError:",
                      f"    return {miss}"]
    else:
        gen.lines.append(f"if args: return {miss}")
    for name, child in zip(names, spec.args):
        gen.node(child, name, named=True)
    for k, child in zip(spec.kwnames, spec.kwargs):
        var = gen.name("k", None)
        gen.lines.append(f"{var} = kwargs.get({k!r}, _MISSING)")
        gen.node(child, var)
    return gen.lines, gen.leaves


class _Gen:
    def __init__(self, ns, miss):
        self.ns, self.miss = ns, miss
        self.lines, self.leaves = [], []
        self.counter = 0

    def name(self, prefix, value):
        key = f"_{prefix}{self.counter}"
        self.counter += 1
        if value is not None:
            self.ns[key] = value
        return key

    def check(self, cond):
        self.lines.append(f"if {cond}: return {self.miss}")

    def node(self, node, expr, named=False):
        """Check the value of ``expr`` against ``node`` (``named``: ``expr`` is already
        a local name of its own)."""
        kind = type(node)
        if named:
            var = expr
        else:
            var = self.name("a", None)
            self.lines.append(f"{var} = {expr}")
        if kind is TensorLeaf:
            self.check(f"{var}.__class__ is not {self.name('cls', node.cls)}")
            self.leaves.append(f"{var}._data")
        elif kind is ByIdentity:
            self.check(f"{var} is not {self.name('obj', node.obj)}")
        elif kind is ConstTensor:
            obj, data = self.name("obj", node.obj), self.name("dat", node.data.obj)
            self.check(f"{var} is not {obj} or {var}._data is not {data}")
        elif kind is Const:
            self._const(node, var)
        elif kind is ScalarLeaf:
            cls, dt = self.name("cls", node.cls), self.name("dt", _SCALAR_DTYPES[node.base])
            self.ns["_asarray"] = jnp.asarray
            self.check(f"{var}.__class__ is not {cls}")
            self.leaves.append(f"_asarray({var}, {dt})")
        elif kind is NumpyLeaf:
            self.ns["_ndarray"], self.ns["_asarray"] = np.ndarray, jnp.asarray
            self.check(f"not isinstance({var}, _ndarray)")
            self.leaves.append(f"_asarray({var})")
        elif kind is Seq:
            cls = self.name("cls", node.cls)
            self.check(f"{var}.__class__ is not {cls} or len({var}) != {len(node.children)}")
            for j, child in enumerate(node.children):
                self.node(child, f"{var}[{j}]")
        elif kind is Sparse:
            cls, shape = self.name("cls", node.cls), self.name("shp", node.shape)
            self.check(f"{var}.__class__ is not {cls} or {var}._shape != {shape}")
            for part, child in zip(node.cls._PARTS, node.children):
                self.node(child, f"{var}.{part}")
        elif kind is Dict:
            cls, keys = self.name("cls", node.cls), self.name("keys", list(node.keys))
            self.check(f"{var}.__class__ is not {cls} or list({var}) != {keys}")
            for k, child in zip(node.keys, node.children):
                self.node(child, f"{var}[{k!r}]")
        else:
            raise AssertionError(node)

    def _const(self, node, var):
        cls, val = self.name("cls", node.cls), self.name("val", node.value)
        if node.cls is float and node.value == 0.0:  # 0.0, not -0.0 (keyed apart, _flatten)
            self.ns["_copysign"] = math.copysign
            self.check(f"{var}.__class__ is not {cls} or {var} != 0.0 or "
                       f"_copysign(1.0, {var}) < 0")
        elif node.cls is float:
            self.check(f"{var}.__class__ is not {cls} or not ({var} == {val} or "
                       f"({var} != {var} and {val} != {val}))")
        else:
            self.check(f"{var}.__class__ is not {cls} or {var} != {val}")


# ------------------------------------------------------------- outputs
TENSOR_OUT = TensorLeaf(Tensor)  # the spec of an output that is one Tensor


def flatten_output(out):
    """``(spec, leaves)`` of a function's return value: Tensors are leaves. A Tensor
    marked with ``_out_pytype`` (a graph value standing for a Python scalar, e.g. a
    loop counter in a graph loop) comes back as that Python type."""
    leaves = []
    return _out(out, leaves), leaves


def _out(x, leaves):
    if isinstance(x, Tensor):
        leaves.append(x._data)
        extra = x.__dict__
        if extra.get("_from_numpy"):  # a numpy argument handed back (MindSpore keeps it numpy)
            return NumpyLeaf(np.dtype(x._data.dtype))
        pytype = extra.get("_out_pytype")  # a graph value standing for a Python scalar
        return TENSOR_OUT if pytype is None else ScalarLeaf(pytype, pytype)
    if isinstance(x, (jax.Array, jax.core.Tracer)):
        leaves.append(x)
        return TENSOR_OUT
    if type(x) in (tuple, list) or isinstance(x, tuple):
        return Seq(type(x), tuple(_out(v, leaves) for v in x))
    if isinstance(x, SparseBase):
        return Sparse(type(x), tuple(_out(p, leaves) for p in x._parts()), x.shape)
    if isinstance(x, dict):
        return Dict(type(x), tuple(x.keys()), tuple(_out(v, leaves) for v in x.values()))
    graph_only = getattr(type(x), "graph_only", None)
    if graph_only:  # a value that only exists when the graph runs (a formatted string)
        raise concretization_error(graph_only)
    return Const(type(x), x)


def make_output_builder(spec):
    """``build(out_leaves) -> value`` with Tensors around the graph's outputs."""
    if spec == TENSOR_OUT:
        return lambda outs: wrap(outs[0])
    if type(spec) is Seq and spec.cls is tuple and all(c == TENSOR_OUT for c in spec.children):
        return lambda outs: tuple(wrap(o) for o in outs)

    def build(outs):
        it = iter(outs)
        return _build(spec, it)
    return build


def _build(node, it):
    kind = type(node)
    if kind is TensorLeaf:
        return wrap(next(it))
    if kind is ScalarLeaf:
        return node.cls(next(it).item())
    if kind is NumpyLeaf:
        return np.asarray(next(it))
    if kind is Const:
        return node.value
    if kind is Sparse:
        return node.cls._from_parts(node.shape, *(_build(c, it) for c in node.children))
    if kind is Seq:
        items = [_build(c, it) for c in node.children]
        cls = node.cls
        if cls is tuple or cls is list:
            return cls(items)
        try:
            return cls(*items)  # namedtuple
        except TypeError:
            return cls(items)
    if kind is Dict:
        return node.cls(zip(node.keys, (_build(c, it) for c in node.children)))
    raise AssertionError(node)
