"""Op rows: comparisons, closeness, NaN/inf tests and logical ops (all give bool Tensors).

Comparisons promote their inputs like arithmetic does (``int32 < float32``
compares as float32); ordering comparisons reject complex inputs. The Tensor
operators follow MindSpore 2.10: ``t == None`` (or a string, list, numpy
array) is plain ``False`` and ``t != None`` is ``True``; ``~t`` is
``logical_not`` for every dtype (``~int_tensor`` gives a bool Tensor);
``Tensor.allclose`` returns a Python bool.
"""
from __future__ import annotations

import numbers

import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor, wrap
from msxla.ops._elementwise import ALL, BOOL, REAL, binary, unary
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports, tensor_method


def _cmp_row(name, fn, prim, ordered, method=None, operators=(), primitive=None):
    """Define ``name(input, other)`` comparing with ``fn``."""
    rule = binary(prim, ALL, result=REAL if ordered else ALL)
    ns = {"fn": fn}
    exec(f"def {name}(input, other):\n    return fn(input, other)\n", ns)  # noqa: S102
    impl = ns[name]
    impl.__doc__ = f"Elementwise ``input {_SYMBOL[prim]} other`` as a bool Tensor."
    impl.__module__ = __name__
    return op(dtype=rule, method=method or name, operators=operators, prim=prim,
              primitive=primitive, differentiable=False)(impl)


_SYMBOL = {"Equal": "==", "NotEqual": "!=", "Greater": ">", "GreaterEqual": ">=", "Less": "<",
           "LessEqual": "<="}

equal = _cmp_row("equal", jnp.equal, "Equal", False, primitive=True)
eq = _cmp_row("eq", jnp.equal, "Equal", False)
not_equal = _cmp_row("not_equal", jnp.not_equal, "NotEqual", False, primitive=True)
ne = _cmp_row("ne", jnp.not_equal, "NotEqual", False)
greater = _cmp_row("greater", jnp.greater, "Greater", True, primitive=True)
gt = _cmp_row("gt", jnp.greater, "Greater", True, operators=("__gt__",))
greater_equal = _cmp_row("greater_equal", jnp.greater_equal, "GreaterEqual", True,
                         primitive=True)
ge = _cmp_row("ge", jnp.greater_equal, "GreaterEqual", True, operators=("__ge__",))
less = _cmp_row("less", jnp.less, "Less", True, primitive=True)
lt = _cmp_row("lt", jnp.less, "Less", True, operators=("__lt__",))
less_equal = _cmp_row("less_equal", jnp.less_equal, "LessEqual", True, primitive=True)
le = _cmp_row("le", jnp.less_equal, "LessEqual", True, operators=("__le__",))


def _comparable(other):
    return isinstance(other, (Tensor, numbers.Number, np.generic))


@tensor_method("__eq__")
def _tensor_eq(self, other):
    """``self == other``: a bool Tensor, or False for None and non-numeric objects."""
    if not _comparable(other):
        return False
    return eq(self, other)


@tensor_method("__ne__")
def _tensor_ne(self, other):
    """``self != other``: a bool Tensor, or True for None and non-numeric objects."""
    if not _comparable(other):
        return True
    return ne(self, other)



def _isclose(input, other, rtol, atol, equal_nan):
    if input.dtype == jnp.bool_:
        return jnp.equal(input, other)
    return jnp.isclose(input, other, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _isclose_call(prim, input, other):
    a = prim.attrs
    return isclose(input, other, a["rtol"], a["atol"], a["equal_nan"])


@op(dtype=binary("IsClose", ALL, scalars=(), same=True), static=("rtol", "atol", "equal_nan"),
    method="isclose", prim="IsClose", differentiable=False,
    primitive=PrimDef(init=(("rtol", 1e-05), ("atol", 1e-08), ("equal_nan", False)),
                      call=_isclose_call))
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|input - other| <= atol + rtol * |other|`` (equal infinities are close; NaNs are
    close to each other only with ``equal_nan``). Both inputs: Tensors of one dtype."""
    return _isclose(input, other, rtol, atol, equal_nan)


@tensor_method("allclose")
def _tensor_allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``Tensor.allclose``: whether every element is close, as a Python bool.

    Inside a graph being captured the answer is a 0-d bool Tensor."""
    out = jnp.all(isclose(self, other, rtol, atol, equal_nan)._data)
    if isinstance(out, Tracer):
        return wrap(out)
    return bool(out)



@composite(method="is_floating_point")
def is_floating_point(input):
    """Whether ``input`` has a float dtype (a Python bool)."""
    return mstype.is_float(input.dtype)


@composite(method="is_complex")
def is_complex(input):
    """Whether ``input`` has a complex dtype (a Python bool)."""
    return mstype.category(input.dtype) == 3


@tensor_method("is_signed")
def _tensor_is_signed(self):
    """``Tensor.is_signed()``: whether the dtype is signed (a Python bool)."""
    return self.dtype in mstype.signed_type



def _exact(x):
    return not jnp.issubdtype(x.dtype, jnp.inexact)


@op(dtype=unary("IsNan", REAL), method="isnan", prim="IsNan", differentiable=False, primitive=True)
def isnan(input):
    """True where ``input`` is NaN."""
    return jnp.zeros(input.shape, bool) if _exact(input) else jnp.isnan(input)


@op(dtype=unary("IsInf"), method="isinf", prim="IsInf", differentiable=False, primitive=True)
def isinf(input):
    """True where ``input`` is +inf or -inf."""
    return jnp.zeros(input.shape, bool) if _exact(input) else jnp.isinf(input)


@op(dtype=unary("IsFinite", REAL), method="isfinite", prim="IsFinite", differentiable=False,
    primitive=True)
def isfinite(input):
    """True where ``input`` is neither NaN nor infinite."""
    return jnp.ones(input.shape, bool) if _exact(input) else jnp.isfinite(input)


@op(dtype=unary("IsNegInf", REAL), method="isneginf", prim="IsInf", differentiable=False)
def isneginf(input):
    """True where ``input`` is -inf."""
    return jnp.zeros(input.shape, bool) if _exact(input) else jnp.isneginf(input)


@op(dtype=unary("IsPosInf", REAL), method="isposinf", prim="IsInf", differentiable=False)
def isposinf(input):
    """True where ``input`` is +inf."""
    return jnp.zeros(input.shape, bool) if _exact(input) else jnp.isposinf(input)


@op(dtype=unary("IsReal"), method="isreal", prim="IsReal", differentiable=False)
def isreal(input):
    """True where the imaginary part is 0 (everywhere for real dtypes)."""
    return jnp.isreal(input)


@op(dtype=binary("LogicalAnd", ALL, scalars=(BOOL,)), method="logical_and", prim="LogicalAnd",
    differentiable=False, primitive=True)
def logical_and(input, other):
    """``input and other`` elementwise (non-zero is true); scalars must be Python bools."""
    return jnp.logical_and(input, other)


@op(dtype=binary("LogicalOr", ALL, scalars=(BOOL,)), method="logical_or", prim="LogicalOr",
    differentiable=False, primitive=True)
def logical_or(input, other):
    """``input or other`` elementwise."""
    return jnp.logical_or(input, other)


@op(dtype=binary("LogicalXor", ALL, scalars=(BOOL,)), method="logical_xor", prim="LogicalXor",
    differentiable=False, primitive=True)
def logical_xor(input, other):
    """``bool(input) != bool(other)`` elementwise."""
    return jnp.logical_xor(input, other)


@op(dtype=unary("LogicalNot"), method="logical_not", operators=("__invert__",),
    prim="LogicalNot", differentiable=False, primitive=True)
def logical_not(input):
    """``not input`` elementwise; also ``~tensor`` for every dtype, as in MindSpore."""
    return jnp.logical_not(input)


__all__ = exports(__name__)
