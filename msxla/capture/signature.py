"""Call signatures: how a call's arguments become graph inputs and back.

``flatten_args`` walks the arguments once and returns a hashable *spec* (the
structure plus everything baked in: Python scalars by type and value, Cells
and other objects by identity, Parameters by identity) and the *leaves* (the
jax arrays of the Tensors, which become graph inputs). Tensors inside tuples,
lists and dicts are leaves too, never constants; ``mutable(...)`` scalars are
leaves instead of constants.

For the hot path, ``make_matcher(spec)`` generates a small Python function
that checks a new call against the spec and returns its leaves (or None) with
no generic tree walking: ``(a, b, c)`` of Tensors becomes
``if len(args) == 3: ... return (a._data, b._data, c._data)``.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from msxla.capture.guards import is_data
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap
from msxla.options import MUTABLE_CONTAINERS, MUTABLE_SCALARS

_SCALAR_DTYPES = {bool: np.bool_, int: np.int64, float: np.float32}


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


def flatten_args(args, kwargs, dynamic_scalars=frozenset()):
    """``(spec, leaves, owners)``: the call's structure, graph inputs, and the
    Tensor object each leaf came from (None for scalars made into leaves)."""
    leaves, owners = [], []
    children = tuple(_flatten(a, leaves, owners, (i,) in dynamic_scalars, False)
                     for i, a in enumerate(args))
    keys = tuple(sorted(kwargs)) if kwargs else ()
    kw_children = tuple(_flatten(kwargs[k], leaves, owners, (k,) in dynamic_scalars, False)
                        for k in keys)
    return ("args", children, keys, kw_children), leaves, owners


def _flatten(x, leaves, owners, dynamic, in_mutable):
    cls = type(x)
    if cls is Parameter:
        return ("P", IdKey(x))
    if isinstance(x, Tensor):
        if x.const_arg:
            return ("C", IdKey(x), IdKey(x._data))
        leaves.append(x._data)
        owners.append(x)
        return ("T", cls)
    if cls in MUTABLE_SCALARS or ((dynamic or in_mutable) and cls in _SCALAR_DTYPES):
        base = bool if isinstance(x, bool) else (int if isinstance(x, int) else float)
        leaves.append(jnp.asarray(x, _SCALAR_DTYPES[base]))
        owners.append(None)
        return ("M", cls, base)
    if cls in MUTABLE_CONTAINERS:
        return _container(x, cls, leaves, owners, True)
    if cls is tuple or cls is list or cls is dict:
        return _container(x, cls, leaves, owners, in_mutable)
    if isinstance(x, np.ndarray):
        leaves.append(jnp.asarray(x))
        owners.append(None)
        return ("N", x.dtype)
    if is_data(x):
        if cls is float and x == 0.0 and math.copysign(1.0, x) < 0:
            return ("O", IdKey(_NEG_ZERO))  # -0.0 == 0.0 as a key, not as a constant
        return ("S", cls, x)
    return ("O", IdKey(x))


_NEG_ZERO = -0.0


def _container(x, cls, leaves, owners, in_mutable):
    if cls is dict or issubclass(cls, dict):
        keys = tuple(x.keys())
        return ("dict", cls, keys,
                tuple(_flatten(x[k], leaves, owners, False, in_mutable) for k in keys))
    return ("seq", cls, tuple(_flatten(v, leaves, owners, False, in_mutable) for v in x))


def rebuild_args(spec, leaf_tensors):
    """Arguments for the captured function, with ``leaf_tensors`` (Tensors) at the leaves."""
    it = iter(leaf_tensors)
    _, children, keys, kw_children = spec
    args = tuple(_rebuild(c, it) for c in children)
    kwargs = {k: _rebuild(c, it) for k, c in zip(keys, kw_children)}
    return args, kwargs


def _rebuild(node, it):
    kind = node[0]
    if kind == "T" or kind == "M" or kind == "N":
        return next(it)
    if kind == "P" or kind == "O":
        return node[1].obj
    if kind == "C":
        return node[1].obj
    if kind == "S":
        return node[2]
    if kind == "dict":
        return node[1](zip(node[2], (_rebuild(c, it) for c in node[3])))
    if kind == "seq":
        items = [_rebuild(c, it) for c in node[2]]
        return node[1](items) if node[1] is not tuple else tuple(items)
    raise AssertionError(kind)


def spec_params(spec):
    """Parameters passed as arguments (they are state, not leaves)."""
    out = []

    def walk(node):
        if node[0] == "P":
            out.append(node[1].obj)
        elif node[0] == "dict":
            for c in node[3]:
                walk(c)
        elif node[0] == "seq":
            for c in node[2]:
                walk(c)
    for c in spec[1] + spec[3]:
        walk(c)
    return out


def leaf_avals(leaves):
    return tuple(jax.ShapeDtypeStruct(x.shape, x.dtype) for x in leaves)


def aval_key(leaves):
    return tuple((tuple(x.shape), x.dtype) for x in leaves)


# ------------------------------------------------------------- codegen
def make_matcher(spec, guard_src="", namespace=None):
    """Generate ``match(args, kwargs) -> leaves tuple | None`` for ``spec``."""
    ns = {"_MISSING": object()}
    if namespace:
        ns.update(namespace)
    lines, leaves = [], []
    _, children, keys, kw_children = spec
    lines.append(f"if len(args) != {len(children)}: return None")
    if keys:
        lines.append(f"if len(kwargs) != {len(keys)}: return None")
    else:
        lines.append("if kwargs: return None")
    counter = [0]
    for i, child in enumerate(children):
        _gen(child, f"args[{i}]", lines, leaves, ns, counter)
    for k, child in zip(keys, kw_children):
        var = f"_k{counter[0]}"
        counter[0] += 1
        lines.append(f"{var} = kwargs.get({k!r}, _MISSING)")
        _gen(child, var, lines, leaves, ns, counter)
    if guard_src:
        lines.append(f"if not ({guard_src}): return None")
    ret = "(" + "".join(f"{x}, " for x in leaves) + ")"
    body = "\n    ".join(lines + [f"return {ret}"])
    src = f"def match(args, kwargs):\n    {body}\n"
    exec(compile(src, "<msxla signature matcher>", "exec"), ns)  # noqa: S102 - generated
    match = ns["match"]
    match.source = src
    return match


def _name(ns, prefix, value, counter):
    key = f"_{prefix}{counter[0]}"
    counter[0] += 1
    ns[key] = value
    return key


def _gen(node, expr, lines, leaves, ns, counter):
    kind = node[0]
    var = f"_a{counter[0]}"
    counter[0] += 1
    lines.append(f"{var} = {expr}")
    if kind == "T":
        cls = _name(ns, "cls", node[1], counter)
        lines.append(f"if {var}.__class__ is not {cls}: return None")
        leaves.append(f"{var}._data")
    elif kind == "P" or kind == "O":
        obj = _name(ns, "obj", node[1].obj, counter)
        lines.append(f"if {var} is not {obj}: return None")
    elif kind == "C":
        obj = _name(ns, "obj", node[1].obj, counter)
        data = _name(ns, "dat", node[2].obj, counter)
        lines.append(f"if {var} is not {obj} or {var}._data is not {data}: return None")
    elif kind == "S":
        cls = _name(ns, "cls", node[1], counter)
        val = _name(ns, "val", node[2], counter)
        if node[1] is float and node[2] == 0.0:  # 0.0, not -0.0 (keyed apart, see _flatten)
            ns["_copysign"] = math.copysign
            lines.append(f"if {var}.__class__ is not {cls} or {var} != 0.0 or "
                         f"_copysign(1.0, {var}) < 0: return None")
        elif node[1] is float:
            lines.append(f"if {var}.__class__ is not {cls} or not ({var} == {val} or "
                         f"({var} != {var} and {val} != {val})): return None")
        else:
            lines.append(f"if {var}.__class__ is not {cls} or {var} != {val}: return None")
    elif kind == "M":
        cls = _name(ns, "cls", node[1], counter)
        dt = _name(ns, "dt", _SCALAR_DTYPES[node[2]], counter)
        ns["_asarray"] = jnp.asarray
        lines.append(f"if {var}.__class__ is not {cls}: return None")
        leaves.append(f"_asarray({var}, {dt})")
    elif kind == "N":
        ns["_ndarray"], ns["_asarray"] = np.ndarray, jnp.asarray
        lines.append(f"if not isinstance({var}, _ndarray): return None")
        leaves.append(f"_asarray({var})")
    elif kind == "seq":
        cls = _name(ns, "cls", node[1], counter)
        lines.append(f"if {var}.__class__ is not {cls} or len({var}) != {len(node[2])}: "
                     "return None")
        for j, child in enumerate(node[2]):
            _gen(child, f"{var}[{j}]", lines, leaves, ns, counter)
    elif kind == "dict":
        cls = _name(ns, "cls", node[1], counter)
        keys = _name(ns, "keys", list(node[2]), counter)
        lines.append(f"if {var}.__class__ is not {cls} or list({var}) != {keys}: return None")
        for k, child in zip(node[2], node[3]):
            _gen(child, f"{var}[{k!r}]", lines, leaves, ns, counter)
    else:
        raise AssertionError(kind)


# ------------------------------------------------------------- outputs
def flatten_output(out):
    """``(spec, leaves)`` of a function's return value: Tensors are leaves. A Tensor
    marked with ``_out_pytype`` (a graph value standing for a Python scalar, e.g. a
    loop counter in a graph loop) comes back as that Python type."""
    leaves = []
    return _out(out, leaves), leaves


def _out(x, leaves):
    if isinstance(x, Tensor):
        leaves.append(x._data)
        pytype = x.__dict__.get("_out_pytype")  # a graph value standing for a Python scalar
        return ("T",) if pytype is None else ("PS", pytype)
    if isinstance(x, (jax.Array, jax.core.Tracer)):
        leaves.append(x)
        return ("T",)
    if type(x) in (tuple, list) or isinstance(x, tuple):
        return ("seq", type(x), tuple(_out(v, leaves) for v in x))
    if isinstance(x, dict):
        return ("dict", type(x), tuple(x.keys()), tuple(_out(v, leaves) for v in x.values()))
    return ("S", x)


def make_output_builder(spec):
    """``build(out_leaves) -> value`` with Tensors around the graph's outputs."""
    if spec == ("T",):
        return lambda outs: wrap(outs[0])
    if spec[0] == "seq" and spec[1] is tuple and all(c == ("T",) for c in spec[2]):
        return lambda outs: tuple(wrap(o) for o in outs)

    def build(outs):
        it = iter(outs)
        return _build(spec, it)
    return build


def _build(node, it):
    kind = node[0]
    if kind == "T":
        return wrap(next(it))
    if kind == "PS":
        return node[1](next(it).item())
    if kind == "S":
        return node[1]
    if kind == "seq":
        items = [_build(c, it) for c in node[2]]
        cls = node[1]
        if cls is tuple or cls is list:
            return cls(items)
        try:
            return cls(*items)  # namedtuple
        except TypeError:
            return cls(items)
    if kind == "dict":
        return node[1](zip(node[2], (_build(c, it) for c in node[3])))
    raise AssertionError(kind)
