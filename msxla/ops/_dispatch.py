"""Running one op row: unwrap Tensors, promote dtypes, call the jitted impl, wrap.

This is the eager hot path (every PyNative op goes through ``call_op``) and
also what runs under capture, where the same code sees jax tracers and the
row's ``jax.jit(inline=True)`` implementation inlines into the graph.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from msxla._jax_compat import ArrayImpl
from msxla.common import dtype as mstype
from msxla.common.cast import cast_array, float_to_int  # noqa: F401 - used by the op rows
from msxla.common.tensor import Tensor, VariableScalar, variable_scalar, wrap
from msxla.errors import DTypeError, ShapeError, user_error
from msxla.ops import _kernels

_from_np = mstype._FROM_NP.__getitem__
_new = object.__new__
_ArrayImpl = ArrayImpl  # importing msxla must not start jax's devices (distributed runtime)
_SCALARS = (bool, int, float, complex)


def cast_value(value, np_dtype):
    """Cast an unwrapped argument (array, Python scalar, None, sequence) to ``np_dtype``.

    Runs inside a row's jitted implementation, so it is traced, never eager."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return type(value)(cast_value(v, np_dtype) for v in value)
    if isinstance(value, _SCALARS):
        return jnp.asarray(value, dtype=np_dtype)
    if value.dtype == np_dtype:
        return value
    return value.astype(np_dtype)


def unwrap(value):
    """Tensor -> jax value; sequences of Tensors -> tuples of jax values."""
    if isinstance(value, Tensor):
        return value._data
    if isinstance(value, (tuple, list)):
        return tuple(unwrap(v) for v in value)
    if isinstance(value, np.generic):
        # a numpy scalar (np.float64 is even a float subclass) promotes like the
        # Python scalar it holds, as in MindSpore
        return value.item() if value.dtype.kind in "biufc" else jnp.asarray(value)
    if isinstance(value, np.ndarray):
        return jnp.asarray(value)
    return value


def dtype_key(values):
    """The promotion key of the dtype-carrying arguments: Types and Python types."""
    key = []
    for v in values:
        _add_key(v, key)
    return tuple(key)


def _add_key(v, key):
    if v is None:
        return
    t = type(v)
    if t in _SCALARS:
        key.append(t)
    elif t is VariableScalar:  # promotes like the Python scalar it stands for
        key.append(v.pytype)
    elif isinstance(v, (tuple, list)):
        for x in v:
            _add_key(x, key)
    elif hasattr(v, "dtype"):
        key.append(_from_np(v.dtype))


def variable_scalars(args, key_pos) -> set:
    """Positions (of ``key_pos``) holding variable scalars (``tensor.VariableScalar``)."""
    return {i for i in key_pos if i < len(args) and type(args[i]) is VariableScalar}


def only_scalars(args, key_pos) -> bool:
    """Whether every dtype-carrying argument is a Python or variable scalar (or None)."""
    return all(args[i] is None or type(args[i]) in _SCALARS or type(args[i]) is VariableScalar
               for i in key_pos if i < len(args))


def wrap_scalar(out):
    """An op of variable scalars gives a variable scalar (``float(t) * 2`` still
    promotes like a Python float)."""
    if not hasattr(out, "dtype") or getattr(out, "ndim", 1) != 0:
        return wrap_output(out)
    kind = np.dtype(out.dtype).kind
    pytype = bool if kind == "b" else int if kind in "iu" else float if kind == "f" else None
    return wrap_output(out) if pytype is None else variable_scalar(out, pytype)


def wrap_output(out):
    """An op's result as Tensors (an O0 capture first ends the op's kernel there)."""
    if out.__class__ is _ArrayImpl:
        t = _new(Tensor)
        t._data = out
        return t
    if _kernels.per_op():
        out = _kernels.end_kernel(out)
    return _wrap_tree(out)


def _wrap_tree(out):
    if out.__class__ is _ArrayImpl:
        t = _new(Tensor)
        t._data = out
        return t
    if isinstance(out, tuple):
        return tuple(_wrap_tree(o) for o in out)
    if isinstance(out, list):
        return [_wrap_tree(o) for o in out]
    if out is None or isinstance(out, _SCALARS):
        return out
    return wrap(out)


def translate_error(row, err, shapes):
    """A jax error from inside a row, as MindSpore's exception type with the op's name."""
    msg = str(err).split("\n")[0]
    name = row.prim_name
    if msg.startswith("For '"):  # already MindSpore's message, raised by the row itself
        return user_error(ShapeError if isinstance(err, (ValueError, IndexError)) else DTypeError,
                          str(err))
    if isinstance(err, TypeError) and ("shape" in msg or "broadcast" in msg):
        return user_error(ShapeError, f"For '{name}', the input shapes {shapes} do not fit: {msg}")
    if isinstance(err, TypeError) and "dtype" in msg:
        return user_error(DTypeError, f"For '{name}', {msg}")
    if isinstance(err, (ValueError, IndexError)):
        return user_error(ShapeError, f"For '{name}', {msg} (input shapes {shapes})")
    return None


def shapes_of(args):
    out = []
    for a in args:
        if isinstance(a, Tensor):
            out.append(a.shape)
        elif isinstance(a, (tuple, list)) and any(isinstance(x, Tensor) for x in a):
            out.append([x.shape if isinstance(x, Tensor) else x for x in a])
    return out
