"""dtype rules shared by the elementwise op families (unary, compare, bitwise, arith).

A rule is a function ``key -> Type`` (see ``msxla.ops.opdef``): ``key`` holds
the Types of the Tensor arguments and the Python types of scalar arguments.
The rule returns the dtype the arguments are cast to before the jax
implementation runs, or raises MindSpore's TypeError (naming the op) for
dtypes MindSpore rejects.

MindSpore checks dtypes by category (bool, int, float, complex); these rules
mirror the category checks. A few MindSpore kernels also reject single widths
inside an accepted category (``exp`` of int32, ``hypot`` of float16); msxla
accepts those and computes them like their neighbours.
"""
from __future__ import annotations

from msxla.common import dtype as mstype
from msxla.errors import DTypeError, user_error

BOOL, INT, FLOAT, COMPLEX = "bool", "int", "float", "complex"
ALL = (BOOL, INT, FLOAT, COMPLEX)
NUM = (INT, FLOAT, COMPLEX)
REAL = (BOOL, INT, FLOAT)
FLOATS = (FLOAT,)
INTEGRAL = (BOOL, INT)
_KINDS = (BOOL, INT, FLOAT, COMPLEX)
_PY_KIND = {bool: BOOL, int: INT, float: FLOAT, complex: COMPLEX}


def kind(k) -> str:
    """The category of a key entry (a Type or a Python scalar type)."""
    if isinstance(k, mstype.Type):
        return _KINDS[mstype.category(k)]
    return _PY_KIND[k]


def describe(k) -> str:
    return str(k) if isinstance(k, mstype.Type) else f"Python {k.__name__}"


def reject(prim, what, got):
    """Raise MindSpore's TypeError for a rejected dtype."""
    raise user_error(DTypeError, f"For '{prim}', {what}, but got {got}.")


def _allowed(kinds):
    return "{" + ", ".join(kinds) + "}"


def as_type(k):
    return k if isinstance(k, mstype.Type) else mstype._SCALAR_DEFAULT[k]


def unary(prim, allow=ALL, to_float=False, complex_ok=True):
    """One input: check its category; ``to_float`` turns bool/int results into float32."""
    allowed = frozenset(allow)

    def rule(key):
        t = as_type(key[0])
        if kind(t) not in allowed:
            reject(prim, f"the input dtype must be one of {_allowed(allow)}", t)
        if to_float and mstype.category(t) < 2:
            return mstype.float32
        return t

    rule.__qualname__ = f"unary_rule[{prim}]"
    return rule


def binary(prim, allow=ALL, scalars=ALL, result=None, out="promote", same=False,
           scalar_as=None):
    """Several inputs promoted together (MindSpore's implicit type conversion).

    Args:
        allow: categories each Tensor input may have.
        scalars: categories a Python scalar input may have (``()``: Tensors only).
        result: categories the promoted dtype may have.
        out: ``"promote"``, ``"float"`` (bool/int results become float32), or a
            function ``(promoted, key) -> Type``.
        same: all Tensor inputs must share one dtype.
        scalar_as: a Type that Python scalars count as (a Tensor of that dtype, not a
            weak scalar that only lifts the category).
    """
    allowed, scal = frozenset(allow), frozenset(scalars)
    res = frozenset(result) if result is not None else None

    def rule(key):
        tensors = []
        for k in key:
            if isinstance(k, mstype.Type):
                if kind(k) not in allowed:
                    reject(prim, f"the input dtypes must be one of {_allowed(allow)}", k)
                tensors.append(k)
            elif kind(k) not in scal:
                what = ("the inputs must be Tensors" if not scalars else
                        f"a scalar input must be one of {_allowed(scalars)}")
                reject(prim, what, describe(k))
        if same and len(set(tensors)) > 1:
            reject(prim, "the input dtypes must be the same",
                   ", ".join(str(t) for t in tensors))
        if scalar_as is not None:
            key = tuple(k if isinstance(k, mstype.Type) else scalar_as for k in key)
        t = mstype.result_type(key)
        if res is not None and kind(t) not in res:
            reject(prim, f"the promoted dtype must be one of {_allowed(result)}", t)
        if out == "float":
            if mstype.category(t) < 2:
                t = mstype.float32
        elif out != "promote":
            t = out(t, key)
        return t

    rule.__qualname__ = f"binary_rule[{prim}]"
    return rule


def float_of(t):
    """Float results of int/bool inputs are float32."""
    return mstype.float32 if mstype.category(t) < 2 else t
