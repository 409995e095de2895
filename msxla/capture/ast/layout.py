"""Layouts: how Python values pass through a graph branch or loop.

A ``lax.cond`` returns, and a ``lax.while_loop`` carries, a flat tuple of
arrays; the variables of converted code hold Tensors, Python scalars,
tuples, dicts, None, Cells... A *layout* describes one variable's value on
every path, and says which parts become arrays:

- ``("T", shape, dtype)``  a Tensor (one array);
- ``("S", value)``         the same Python value on every path (no array);
- ``("D", dtype)``         a Python scalar whose value depends on the path (a
                           0-d array: MindSpore's "variable scalar"; int ->
                           int64, float -> float32, bool -> bool);
- ``("U",)``               undefined on every path;
- ``("UX", layout)``       undefined on some path only (resolved by the caller:
                           an error if the variable is used later, else "X");
- ``("X",)``               not handed on (nothing later reads it);
- ``("P", layout)``        undefined on some path, zeros there (the return value
                           of a function that has not returned on that path);
- ``("seq", type, children)`` / ``("dict", type, keys, children)``.

``observe`` describes one value, ``join`` merges two descriptions (or raises
``JoinFailure``), ``pack`` / ``unpack`` convert values to arrays and back.
"""
from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from msxla.capture.ast.values import Undefined, is_undefined, scalar_value
from msxla.capture.guards import is_data
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap

_NUMBERS = (bool, int, float)
_SCALAR_DTYPE = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float32)}
_PYTYPE = {np.dtype(np.bool_): bool, np.dtype(np.int64): int, np.dtype(np.float32): float}
_RANK = {np.dtype(np.bool_): 0, np.dtype(np.int64): 1, np.dtype(np.float32): 2}
UNDEF, DROP = ("U",), ("X",)


class Misfit(Exception):
    """A value does not fit the layout chosen so far (the caller re-plans)."""


class JoinFailure(Exception):
    """Two paths give values that cannot be one graph value."""

    def __init__(self, kind, left, right):
        super().__init__(kind)
        self.kind, self.left, self.right = kind, left, right  # kind: "dtype", "shape", "value"


def observe(value):
    if is_undefined(value):
        return UNDEF
    if isinstance(value, Tensor) and not isinstance(value, Parameter) and \
            value._data is not None:
        dtype = np.dtype(value._data.dtype)
        pytype = value.__dict__.get("_out_pytype")  # a variable scalar stays one
        if pytype is not None and value._data.shape == () and _SCALAR_DTYPE[pytype] == dtype:
            return ("D", dtype)
        return ("T", tuple(value._data.shape), dtype)
    cls = type(value)
    if cls is tuple or cls is list or (isinstance(value, tuple) and hasattr(value, "_fields")):
        return ("seq", cls, tuple(observe(v) for v in value))
    if cls is dict:
        return ("dict", cls, tuple(value), tuple(observe(v) for v in value.values()))
    return ("S", value)


def _same(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b) or not (is_data(a) and is_data(b)):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _number(node) -> bool:
    return node[0] == "D" or (node[0] == "S" and type(node[1]) in _NUMBERS)


def _scalar_dtype(node):
    return node[1] if node[0] == "D" else _SCALAR_DTYPE[type(node[1])]


def join(a, b):
    ka, kb = a[0], b[0]
    if ka == "X" or kb == "X":
        return DROP
    if ka == "U" or kb == "U":
        if ka == kb:
            return UNDEF
        other = b if ka == "U" else a
        return other if other[0] in ("UX", "P") else ("UX", other)
    if ka in ("UX", "P") or kb in ("UX", "P"):
        wrap_kind = "P" if "P" in (ka, kb) else "UX"
        inner = join(a[1] if ka in ("UX", "P") else a, b[1] if kb in ("UX", "P") else b)
        return (wrap_kind, inner)
    if ka == "T" and kb == "T":
        if a[2] != b[2]:
            raise JoinFailure("dtype", a, b)
        if a[1] != b[1]:
            raise JoinFailure("shape", a, b)
        return a
    if ka == "S" and kb == "S" and _same(a[1], b[1]):
        return a
    if _number(a) and _number(b):
        dts = {_scalar_dtype(a), _scalar_dtype(b)}
        for dt in (np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_)):
            if dt in dts:
                return ("D", dt)
    if ka == "T" and _number(b) or kb == "T" and _number(a):
        tensor = a if ka == "T" else b
        if tensor[1] == ():
            return tensor
        raise JoinFailure("value", a, b)
    if ka == kb == "seq" and a[1] is b[1] and len(a[2]) == len(b[2]):
        return ("seq", a[1], tuple(join(x, y) for x, y in zip(a[2], b[2])))
    if ka == kb == "dict" and a[2] == b[2]:
        return ("dict", a[1], a[2], tuple(join(x, y) for x, y in zip(a[3], b[3])))
    raise JoinFailure("value", a, b)


def _strong(x):
    aval = getattr(x, "aval", None)
    if aval is not None and getattr(aval, "weak_type", False):
        return lax.convert_element_type(x, x.dtype)
    return x


def pack(node, value, out):
    """Append ``value``'s arrays under ``node`` to ``out`` (or raise Misfit)."""
    kind = node[0]
    if kind == "X":
        return
    if kind == "P":
        if is_undefined(value):
            zeros(node[1], out)
        else:
            pack(node[1], value, out)
        return
    if kind in ("U", "UX"):
        if not is_undefined(value):
            raise Misfit()
        return
    if is_undefined(value):
        raise Misfit()
    if kind == "T":
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            data = value._data
            if tuple(data.shape) == node[1] and np.dtype(data.dtype) == node[2]:
                out.append(_strong(data))
                return
        elif type(value) in _NUMBERS and node[1] == ():
            out.append(jnp.asarray(value, node[2]))
            return
        raise Misfit()
    if kind == "S":
        if not _same(node[1], value):
            raise Misfit()
        return
    if kind == "D":
        if type(value) in _NUMBERS:
            if _RANK[_SCALAR_DTYPE[type(value)]] > _RANK[node[1]]:
                raise Misfit()  # e.g. a float where only ints were seen: widen first
            out.append(jnp.asarray(value, node[1]))
            return
        if isinstance(value, Tensor) and value._data.shape == () and \
                np.dtype(value._data.dtype) == node[1]:
            out.append(_strong(value._data))
            return
        raise Misfit()
    if kind == "seq":
        if type(value) is not node[1] or len(value) != len(node[2]):
            raise Misfit()
        for child, v in zip(node[2], value):
            pack(child, v, out)
        return
    if kind == "dict":
        if type(value) is not node[1] or tuple(value) != node[2]:
            raise Misfit()
        for child, v in zip(node[3], value.values()):
            pack(child, v, out)
        return
    raise AssertionError(node)


def zeros(node, out):
    kind = node[0]
    if kind == "T":
        out.append(jnp.zeros(node[1], node[2]))
    elif kind == "D":
        out.append(jnp.zeros((), node[1]))
    elif kind == "P":
        zeros(node[1], out)
    elif kind == "seq":
        for c in node[2]:
            zeros(c, out)
    elif kind == "dict":
        for c in node[3]:
            zeros(c, out)


def unpack(node, it, name):
    kind = node[0]
    if kind == "T":
        return wrap(next(it))
    if kind == "D":
        return scalar_value(next(it), _PYTYPE[node[1]])
    if kind == "S":
        return node[1]
    if kind == "P":
        return unpack(node[1], it, name)
    if kind in ("U", "UX", "X"):
        return Undefined(name)
    if kind == "seq":
        items = [unpack(c, it, name) for c in node[2]]
        cls = node[1]
        return cls(items) if cls in (tuple, list) else cls(*items)
    if kind == "dict":
        return node[1](zip(node[2], (unpack(c, it, name) for c in node[3])))
    raise AssertionError(node)


def describe(node) -> str:
    """A short description for error messages: ``Tensor[Float32] shape (2,)``."""
    from msxla.common.dtype import from_np
    kind = node[0]
    if kind == "T":
        return f"Tensor[{from_np(node[2])}] shape {node[1]}"
    if kind == "D":
        return f"a scalar of dtype {from_np(node[1])}"
    if kind == "S":
        text = repr(node[1]) if is_data(node[1]) else f"<{type(node[1]).__name__}>"
        return text if len(text) < 50 else text[:47] + "..."
    if kind == "seq":
        return f"{node[1].__name__} of {len(node[2])} items"
    if kind == "dict":
        return f"dict with keys {list(node[2])}"
    return "undefined"
