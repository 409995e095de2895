"""Op rows: rounding, sign and range ops (floor, ceil, round, trunc, frac, sign, clamp, nan_to_num).

dtypes follow MindSpore 2.10: rounding keeps the dtype (integer inputs are
returned unchanged, except ``ceil``, which takes float Tensors only);
``round`` rounds half to even; ``sign`` maps NaN to 0; ``clamp`` promotes
``input``, ``min`` and ``max`` together and rejects bool with a ValueError.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._elementwise import ALL, FLOATS, NUM, REAL, binary, unary
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports, tensor_method


def _is_exact(x):
    """Integer and bool arrays are already whole numbers."""
    return not jnp.issubdtype(x.dtype, jnp.inexact)


@op(dtype=unary("Floor", REAL), method="floor", prim="Floor", primitive=True)
def floor(input):
    """Round toward negative infinity."""
    return input if _is_exact(input) else jnp.floor(input)


@op(dtype=unary("Ceil", FLOATS), method="ceil", prim="Ceil", primitive=True)
def ceil(input):
    """Round toward positive infinity (float Tensors only)."""
    return jnp.ceil(input)


def _round_call(prim, input, decimals=0):
    return round(input, decimals=decimals)


@op(dtype=unary("Round"), static=("decimals",), prim="Round",
    primitive=(PrimDef(call=_round_call), PrimDef("Rint", call=_round_call)))
def round(input, *, decimals=0):  # noqa: A001 - MindSpore's name
    """Round half to even, to ``decimals`` decimal places (negative: to tens, hundreds...)."""
    if input.dtype == jnp.bool_:
        return input
    if not _is_exact(input):
        return jnp.round(input, decimals)
    if decimals >= 0:
        return input
    scale = 10.0 ** -decimals
    return (jnp.round(input.astype(jnp.float64) / scale) * scale).astype(input.dtype)


@op(dtype=unary("Trunc", REAL), method="trunc", prim="Trunc", primitive=True)
def trunc(input):
    """Round toward zero."""
    return input if _is_exact(input) else jnp.trunc(input)


def _frac_rule(key):
    t = unary("Frac", REAL)(key)
    return mstype.int64 if t is mstype.bool_ else t


@op(dtype=_frac_rule, method="frac", prim="Frac")
def frac(x):
    """The fractional part ``x - trunc(x)`` (zeros for integers; bool gives int64)."""
    if _is_exact(x):
        return jnp.zeros_like(x)
    return x - jnp.trunc(x)


def _sign(x):
    if x.dtype == jnp.bool_:
        return x
    out = jnp.sign(x)
    if jnp.issubdtype(x.dtype, jnp.floating):
        out = jnp.where(jnp.isnan(x), jnp.zeros_like(x), out)
    return out


@op(dtype=unary("Sign"), method="sign", prim="Sign", primitive=True)
def sign(input):
    """-1, 0 or 1 by the sign of ``input`` (NaN gives 0); ``z / |z|`` for complex ``z``."""
    return _sign(input)


@op(dtype=unary("Sign"), method="sgn", prim="Sign")
def sgn(input):
    """``sign`` extended to complex numbers: ``z / |z|`` (0 at 0)."""
    return _sign(input)


@op(dtype=unary("SignBit", REAL), method="signbit", prim="SignBit")
def signbit(input):
    """True where the sign bit is set (``-0.0`` included), as a bool Tensor."""
    if input.dtype == jnp.bool_:
        return jnp.zeros_like(input)
    return jnp.signbit(input)


@op(dtype=unary("Positive"), method="positive", operators=("__pos__",), prim="Positive")
def positive(input):
    """``+input``: the input itself."""
    return input


@op(dtype=unary("Neg", NUM), method="negative", prim="Neg")
def negative(input):
    """``-input`` (bool Tensors are rejected)."""
    return jnp.negative(input)


def _nan_to_num_call(prim, input):
    a = prim.attrs
    return nan_to_num(input, a["nan"], a["posinf"], a["neginf"])


@op(dtype=unary("NanToNum"), static=("nan", "posinf", "neginf"), method="nan_to_num",
    prim="NanToNum",
    primitive=PrimDef(init=(("nan", None), ("posinf", None), ("neginf", None)),
                      call=_nan_to_num_call))
def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """Replace NaN by ``nan`` (0.0), +inf by ``posinf`` and -inf by ``neginf`` (default:
    the largest / lowest finite value of the dtype). Integer Tensors are unchanged."""
    if _is_exact(input):
        return input
    return jnp.nan_to_num(input, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)


def _clamp_rule(key):
    if any(k is bool or k is mstype.bool_ for k in key):
        raise ValueError("For 'Clamp', the dtype of 'input', 'min' and 'max' must not be bool.")
    return binary("Clamp", ALL)(key)


def _clamp(input, min, max, ties_split=False):  # noqa: A002 - MindSpore's names
    if min is None and max is None:
        raise ValueError("For 'Clamp', at least one of 'min' or 'max' must not be None.")
    out, inside = input, True
    if min is not None:
        out, inside = jnp.maximum(out, min), inside & (input >= min)
    if max is not None:
        out, inside = jnp.minimum(out, max), inside & (input <= max)
    if ties_split:  # ClipByValue's gradient splits a tie at a bound, as jax's does
        return out
    # the value is the same; inside [min, max], bounds included, the input's
    # derivative is 1 (MindSpore's ClampGrad), where jax would split a tie
    return jnp.where(inside, input, out)


@op(dtype=_clamp_rule, method="clamp", prim="Clamp")
def clamp(input, min=None, max=None):  # noqa: A002 - MindSpore's names
    """Clamp into ``[min, max]`` (Tensors or scalars; where ``min > max`` the result is
    ``max``). ``input``, ``min`` and ``max`` are promoted together."""
    return _clamp(input, min, max)


@op(dtype=_clamp_rule, method="clip", prim="Clamp")
def clip(input, min=None, max=None):  # noqa: A002 - MindSpore's names
    """Alias of ``clamp``."""
    return _clamp(input, min, max)


@op(prim="ClipByValue")
def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Clamp ``x`` (a Tensor, or a list/tuple of Tensors, giving a tuple) into
    ``[clip_value_min, clip_value_max]``; unlike ``clamp`` the result keeps ``x``'s dtype."""
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("For 'clip_by_value', at least one of 'clip_value_min' or "
                         "'clip_value_max' must not be None.")
    if isinstance(x, (tuple, list)):
        return tuple(_clip_keep_dtype(t, clip_value_min, clip_value_max) for t in x)
    return _clip_keep_dtype(x, clip_value_min, clip_value_max)


def _clip_keep_dtype(x, lo, hi):
    def cast(v):
        return None if v is None else jnp.asarray(v).astype(x.dtype)
    return _clamp(x, cast(lo), cast(hi), ties_split=True)


@tensor_method("round")
def _tensor_round(self, decimals=0):
    """``Tensor.round(decimals=0)``."""
    return round(self, decimals=decimals)


@tensor_method("__round__")
def _tensor_dunder_round(self):
    return round(self)



__all__ = exports(__name__)
