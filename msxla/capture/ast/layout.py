"""Layouts: how Python values pass through a graph branch or loop.

A ``lax.cond`` returns, and a ``lax.while_loop`` carries, a flat tuple of
arrays; the variables of converted code hold Tensors, Python scalars,
tuples, dicts, None, Cells... A *layout* describes one variable's value on
every path, and says which parts become arrays. Layouts are value nodes
(``msxla/capture/values.py``):

- ``TensorOf(shape, dtype)``  a Tensor (one array); a Parameter on some path
                              only joins as one;
- ``Const(cls, value)``       the same Python value on every path (no array);
- ``VarScalar(dtype)``        a Python scalar whose value depends on the path (a
                              0-d array: MindSpore's "variable scalar"; int ->
                              int64, float -> float32, bool -> bool);
- ``Undef()``                 undefined on every path;
- ``MaybeUndef(layout)``      undefined on some path only (resolved by the
                              caller: an error if the variable is used later,
                              else ``Dropped``);
- ``Dropped()``               not handed on (nothing later reads it);
- ``ZerosIfUndef(layout)``    undefined on some path, zeros there (the return
                              value of a function that has not returned there);
- ``Seq(type, children)`` / ``Dict(type, keys, children)``;
- ``Sparse(type, children, shape)``: a CSRTensor/COOTensor, its Tensors' layouts.

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
from msxla.capture.values import Const, Dict, Node, Seq, Sparse, const
from msxla.common._sparse_base import SparseBase
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap

_NUMBERS = (bool, int, float)
_SCALAR_DTYPE = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float32)}
_PYTYPE = {np.dtype(np.bool_): bool, np.dtype(np.int64): int, np.dtype(np.float32): float}
_RANK = {np.dtype(np.bool_): 0, np.dtype(np.int64): 1, np.dtype(np.float32): 2}


class TensorOf(Node):
    fields = ("shape", "dtype")


class VarScalar(Node):
    fields = ("dtype",)


class Undef(Node):
    fields = ()


class MaybeUndef(Node):
    fields = ("layout",)


class Dropped(Node):
    fields = ()


class ZerosIfUndef(Node):
    fields = ("layout",)


UNDEF, DROP = Undef(), Dropped()
_PARTIAL = (MaybeUndef, ZerosIfUndef)


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
            return VarScalar(dtype)
        return TensorOf(tuple(value._data.shape), dtype)
    cls = type(value)
    if cls is tuple or cls is list or (isinstance(value, tuple) and hasattr(value, "_fields")):
        return Seq(cls, tuple(observe(v) for v in value))
    if cls is dict:
        return Dict(cls, tuple(value), tuple(observe(v) for v in value.values()))
    if isinstance(value, SparseBase):
        return Sparse(cls, tuple(observe(p) for p in value._parts()), value.shape)
    return const(value)


def _same(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b) or not (is_data(a) and is_data(b)):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _number(node) -> bool:
    return type(node) is VarScalar or (type(node) is Const and type(node.value) in _NUMBERS)


def _scalar_dtype(node):
    return node.dtype if type(node) is VarScalar else _SCALAR_DTYPE[type(node.value)]


def join(a, b):
    ka, kb = type(a), type(b)
    if ka is Dropped or kb is Dropped:
        return DROP
    if ka is Undef or kb is Undef:
        if ka is kb:
            return UNDEF
        other = b if ka is Undef else a
        return other if isinstance(other, _PARTIAL) else MaybeUndef(other)
    if ka in _PARTIAL or kb in _PARTIAL:
        wrap_kind = ZerosIfUndef if ZerosIfUndef in (ka, kb) else MaybeUndef
        inner = join(a.layout if ka in _PARTIAL else a, b.layout if kb in _PARTIAL else b)
        return wrap_kind(inner)
    if ka is TensorOf and kb is TensorOf:
        if a.dtype != b.dtype:
            raise JoinFailure("dtype", a, b)
        if a.shape != b.shape:
            raise JoinFailure("shape", a, b)
        return a
    if ka is Const and kb is Const and _same(a.value, b.value):
        return a
    if _parameter(a) or _parameter(b):  # a Parameter joins as a Tensor of its shape and dtype
        return join(_as_tensor(a), _as_tensor(b))
    if _number(a) and _number(b):
        dts = {_scalar_dtype(a), _scalar_dtype(b)}
        for dt in (np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_)):
            if dt in dts:
                return VarScalar(dt)
    if ka is TensorOf and _number(b) or kb is TensorOf and _number(a):
        tensor = a if ka is TensorOf else b
        if tensor.shape == ():
            return tensor
        raise JoinFailure("value", a, b)
    if ka is kb is Seq and a.cls is b.cls and len(a.children) == len(b.children):
        return Seq(a.cls, tuple(join(x, y) for x, y in zip(a.children, b.children)))
    if ka is kb is Sparse and a.cls is b.cls and a.shape == b.shape:
        return Sparse(a.cls, tuple(join(x, y) for x, y in zip(a.children, b.children)), a.shape)
    if ka is kb is Dict and a.keys == b.keys:
        return Dict(a.cls, a.keys, tuple(join(x, y) for x, y in zip(a.children, b.children)))
    raise JoinFailure("value", a, b)


def _parameter(node) -> bool:
    return type(node) is Const and isinstance(node.value, Parameter)


def _as_tensor(node):
    if not _parameter(node):
        return node
    data = node.value._data
    return TensorOf(tuple(data.shape), np.dtype(data.dtype))


def _strong(x):
    aval = getattr(x, "aval", None)
    if aval is not None and getattr(aval, "weak_type", False):
        return lax.convert_element_type(x, x.dtype)
    return x


def pack(node, value, out):
    """Append ``value``'s arrays under ``node`` to ``out`` (or raise Misfit)."""
    kind = type(node)
    if kind is Dropped:
        return
    if kind is ZerosIfUndef:
        if is_undefined(value):
            zeros(node.layout, out)
        else:
            pack(node.layout, value, out)
        return
    if kind is Undef or kind is MaybeUndef:
        if not is_undefined(value):
            raise Misfit()
        return
    if is_undefined(value):
        raise Misfit()
    if kind is TensorOf:
        if isinstance(value, Tensor):  # a Parameter too: its value now
            data = value._data
            if tuple(data.shape) == node.shape and np.dtype(data.dtype) == node.dtype:
                out.append(_strong(data))
                return
        elif type(value) in _NUMBERS and node.shape == ():
            out.append(jnp.asarray(value, node.dtype))
            return
        raise Misfit()
    if kind is Const:
        if not _same(node.value, value):
            raise Misfit()
        return
    if kind is VarScalar:
        if type(value) in _NUMBERS:
            if _RANK[_SCALAR_DTYPE[type(value)]] > _RANK[node.dtype]:
                raise Misfit()  # e.g. a float where only ints were seen: widen first
            out.append(jnp.asarray(value, node.dtype))
            return
        if isinstance(value, Tensor) and value._data.shape == () and \
                np.dtype(value._data.dtype) == node.dtype:
            out.append(_strong(value._data))
            return
        raise Misfit()
    if kind is Seq:
        if type(value) is not node.cls or len(value) != len(node.children):
            raise Misfit()
        for child, v in zip(node.children, value):
            pack(child, v, out)
        return
    if kind is Sparse:
        if type(value) is not node.cls or value.shape != node.shape:
            raise Misfit()
        for child, v in zip(node.children, value._parts()):
            pack(child, v, out)
        return
    if kind is Dict:
        if type(value) is not node.cls or tuple(value) != node.keys:
            raise Misfit()
        for child, v in zip(node.children, value.values()):
            pack(child, v, out)
        return
    raise AssertionError(node)


def zeros(node, out):
    kind = type(node)
    if kind is TensorOf:
        out.append(jnp.zeros(node.shape, node.dtype))
    elif kind is VarScalar:
        out.append(jnp.zeros((), node.dtype))
    elif kind is ZerosIfUndef:
        zeros(node.layout, out)
    elif kind is Seq or kind is Dict or kind is Sparse:
        for c in node.children:
            zeros(c, out)


def unpack(node, it, name):
    kind = type(node)
    if kind is TensorOf:
        return wrap(next(it))
    if kind is VarScalar:
        return scalar_value(next(it), _PYTYPE[node.dtype])
    if kind is Const:
        return node.value
    if kind is ZerosIfUndef:
        return unpack(node.layout, it, name)
    if kind is Undef or kind is MaybeUndef or kind is Dropped:
        return Undefined(name)
    if kind is Sparse:
        return node.cls._from_parts(node.shape, *(unpack(c, it, name) for c in node.children))
    if kind is Seq:
        items = [unpack(c, it, name) for c in node.children]
        cls = node.cls
        return cls(items) if cls in (tuple, list) else cls(*items)
    if kind is Dict:
        return node.cls(zip(node.keys, (unpack(c, it, name) for c in node.children)))
    raise AssertionError(node)


def describe(node) -> str:
    """A short description for error messages: ``Tensor[Float32] shape (2,)``."""
    from msxla.common.dtype import from_np
    kind = type(node)
    if kind is TensorOf:
        return f"Tensor[{from_np(node.dtype)}] shape {node.shape}"
    if kind is VarScalar:
        return f"a scalar of dtype {from_np(node.dtype)}"
    if kind is Const:
        text = repr(node.value) if is_data(node.value) else f"<{type(node.value).__name__}>"
        return text if len(text) < 50 else text[:47] + "..."
    if kind is Seq:
        return f"{node.cls.__name__} of {len(node.children)} items"
    if kind is Dict:
        return f"dict with keys {list(node.keys)}"
    if kind is Sparse:
        return f"{node.cls.__name__} of shape {node.shape}"
    return "undefined"
