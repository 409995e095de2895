"""Element-wise StableHLO (and CHLO) ops -> GE element-wise operators.

Most ops are one GE operator (``stablehlo.add`` -> ``Add``); a few pick by
dtype (``divide`` -> ``RealDiv`` for floats, ``TruncateDiv`` for integers;
``and`` -> ``LogicalAnd`` on i1, ``BitwiseAnd`` on integers). Where StableHLO
defines a result that GE leaves undefined, a guard makes it explicit::

    divide(x, y), integers   ->  SelectV2(y == 0, -1, TruncateDiv(x, SelectV2(y == 0, 1, y)))
    shift_left(x, s)         ->  SelectV2(s >= bits, 0, LeftShift(x, s))

``round_nearest_afz`` and ``cbrt`` have no GE operator and are decomposed.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.ge.dtypes import to_cpp
from msxla.ge.registry import ge_converter

_UNARY = {
    "stablehlo.negate": "Neg", "stablehlo.sqrt": "Sqrt", "stablehlo.rsqrt": "Rsqrt",
    "stablehlo.exponential": "Exp", "stablehlo.log": "Log", "stablehlo.log_plus_one": "Log1p",
    "stablehlo.exponential_minus_one": "Expm1", "stablehlo.tanh": "Tanh",
    "stablehlo.sine": "Sin", "stablehlo.cosine": "Cos", "stablehlo.tan": "Tan",
    "stablehlo.floor": "Floor", "stablehlo.ceil": "Ceil", "stablehlo.sign": "Sign",
    "stablehlo.logistic": "Sigmoid", "stablehlo.round_nearest_even": "Rint",
    "chlo.square": "Square", "chlo.erf": "Erf", "chlo.erfc": "Erfc", "chlo.erf_inv": "Erfinv",
    "chlo.asin": "Asin", "chlo.acos": "Acos", "chlo.atan": "Atan", "chlo.sinh": "Sinh",
    "chlo.cosh": "Cosh", "chlo.asinh": "Asinh", "chlo.acosh": "Acosh", "chlo.atanh": "Atanh",
    "chlo.lgamma": "Lgamma", "chlo.digamma": "Digamma", "chlo.tan": "Tan",
    "chlo.bessel_i1e": "BesselI1e",
}
_PREDICATES = {"stablehlo.is_finite": "IsFinite", "chlo.is_inf": "IsInf"}
_BINARY = {
    "stablehlo.subtract": "Sub", "stablehlo.maximum": "Maximum", "stablehlo.minimum": "Minimum",
    "stablehlo.power": "Pow", "stablehlo.atan2": "Atan2", "chlo.next_after": "NextAfter",
}
_COMPARE = {"EQ": "Equal", "NE": "NotEqual", "LT": "Less", "LE": "LessEqual", "GT": "Greater",
            "GE": "GreaterEqual"}
_LOGICAL = {"stablehlo.and": ("LogicalAnd", "BitwiseAnd"),
            "stablehlo.or": ("LogicalOr", "BitwiseOr"),
            "stablehlo.xor": ("NotEqual", "BitwiseXor")}


def _out(op, i=0):
    return parse.value_type(op.results[i])


@ge_converter(*_UNARY)
def _unary(ctx, op):
    (x,) = ctx.inputs(op)
    _, dtype = _out(op)
    return [ctx.b.unary(_UNARY[op.name], x, dtype)]


@ge_converter(*_PREDICATES)
def _predicate(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.unary(_PREDICATES[op.name], x, np.bool_)]


@ge_converter("stablehlo.abs")
def _abs(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.unary("Abs", x, _out(op)[1])]


@ge_converter(*_BINARY)
def _binary(ctx, op):
    x, y = ctx.inputs(op)
    return [ctx.b.binary(_BINARY[op.name], x, y, _out(op)[1])]


@ge_converter("stablehlo.add", "stablehlo.multiply")
def _add_mul(ctx, op):
    x, y = ctx.inputs(op)
    if x.dtype == np.bool_:
        kind = "LogicalOr" if op.name == "stablehlo.add" else "LogicalAnd"
    else:
        kind = "Add" if op.name == "stablehlo.add" else "Mul"
    return [ctx.b.binary(kind, x, y)]


@ge_converter(*_LOGICAL)
def _logical(ctx, op):
    x, y = ctx.inputs(op)
    logical, bitwise = _LOGICAL[op.name]
    if x.dtype == np.bool_:
        return [ctx.b.binary(logical, x, y, np.bool_)]
    return [ctx.b.binary(bitwise, x, y)]


@ge_converter("stablehlo.not")
def _not(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.unary("LogicalNot" if x.dtype == np.bool_ else "Invert", x)]


@ge_converter("stablehlo.compare")
def _compare(ctx, op):
    x, y = ctx.inputs(op)
    direction, kind = parse.comparison(op)
    if kind == "TOTALORDER" and x.dtype.kind == "f":
        x, y = _total_order_key(ctx.b, x), _total_order_key(ctx.b, y)
    return [ctx.b.compare(_COMPARE[direction], x, y)]


def _total_order_key(b, x):
    """An integer with the float's total order (-NaN < -inf < ... < -0 < +0 < ... < NaN):
    the bits as a signed integer, negative ones with all but the sign bit flipped."""
    ints = np.dtype(f"i{x.dtype.itemsize}")
    bits = b.unary("Bitcast", x, ints, type=ints)
    flipped = b.binary("BitwiseXor", bits, b.const(np.asarray(np.iinfo(ints).max, ints)))
    return b.select(b.compare("Less", bits, b.const(np.zeros((), ints))), flipped, bits)


def _zero_guard(b, y):
    """(y == 0, y with zeros replaced by ones)."""
    zero = b.const(np.zeros((), y.dtype))
    is_zero = b.compare("Equal", y, zero)
    return is_zero, b.select(is_zero, b.const(np.ones((), y.dtype)), y)


@ge_converter("stablehlo.divide")
def _divide(ctx, op):
    b = ctx.b
    x, y = ctx.inputs(op)
    if x.dtype.kind in "fc":
        return [b.binary("RealDiv", x, y)]
    is_zero, safe = _zero_guard(b, y)
    q = b.binary("TruncateDiv", x, safe)
    minus_one = b.const(np.array(-1).astype(x.dtype))  # all bits set (unsigned: the max)
    return [b.select(is_zero, minus_one, q)]


@ge_converter("stablehlo.remainder")
def _remainder(ctx, op):
    b = ctx.b
    x, y = ctx.inputs(op)
    if x.dtype.kind in "fc":
        return [b.binary("Mod", x, y)]
    is_zero, safe = _zero_guard(b, y)
    return [b.select(is_zero, x, b.binary("TruncateMod", x, safe))]


def _shift_overflow(b, s):
    bits = b.const(np.asarray(s.dtype.itemsize * 8, s.dtype))
    over = b.compare("GreaterEqual", s, bits)
    if s.dtype.kind == "i":
        over = b.binary("LogicalOr", over, b.compare("Less", s, b.const(np.zeros((), s.dtype))),
                        np.bool_)
    safe = b.select(over, b.const(np.zeros((), s.dtype)), s)
    return over, safe


@ge_converter("stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
              "stablehlo.shift_right_logical")
def _shift(ctx, op):
    b = ctx.b
    x, s = ctx.inputs(op)
    over, safe = _shift_overflow(b, s)
    zero = b.const(np.zeros((), x.dtype))
    if op.name == "stablehlo.shift_left":
        return [b.select(over, zero, b.binary("LeftShift", x, safe))]
    if op.name == "stablehlo.shift_right_arithmetic":
        fill = b.select(b.compare("Less", x, zero), b.const(np.array(-1).astype(x.dtype)), zero)
        return [b.select(over, fill, b.binary("RightShift", x, safe))]
    if x.dtype.kind == "i":  # logical shift of a signed type: shift its unsigned bits
        unsigned = np.dtype(f"u{x.dtype.itemsize}")
        ux = b.unary("Bitcast", x, unsigned, type=unsigned)
        us = b.unary("Bitcast", safe, unsigned, type=unsigned)
        shifted = b.unary("Bitcast", b.binary("RightShift", ux, us), x.dtype, type=x.dtype)
    else:
        shifted = b.binary("RightShift", x, safe)
    return [b.select(over, zero, shifted)]


@ge_converter("stablehlo.popcnt")
def _popcnt(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.cast(ctx.b.unary("PopulationCount", x, np.uint8), x.dtype)]


@ge_converter("stablehlo.round_nearest_afz")
def _round_afz(ctx, op):
    """sign(x) * floor(|x| + 0.5): GE's Round/Rint round half to even."""
    b = ctx.b
    (x,) = ctx.inputs(op)
    half = b.const(np.asarray(0.5, x.dtype))
    mag = b.unary("Floor", b.binary("Add", b.unary("Abs", x), half))
    return [b.binary("Mul", b.unary("Sign", x), mag)]


@ge_converter("stablehlo.cbrt")
def _cbrt(ctx, op):
    """sign(x) * |x| ** (1/3)."""
    b = ctx.b
    (x,) = ctx.inputs(op)
    third = b.const(np.asarray(1.0 / 3.0, x.dtype))
    return [b.binary("Mul", b.unary("Sign", x), b.binary("Pow", b.unary("Abs", x), third))]


@ge_converter("stablehlo.select")
def _select(ctx, op):
    c, a, x = ctx.inputs(op)
    return [ctx.b.select(c, a, x)]


@ge_converter("stablehlo.clamp")
def _clamp(ctx, op):
    lo, x, hi = ctx.inputs(op)
    return [ctx.b.clip(x, lo, hi)]


@ge_converter("stablehlo.convert")
def _convert(ctx, op):
    b = ctx.b
    (x,) = ctx.inputs(op)
    _, dtype = _out(op)
    if x.dtype.kind == "c" and dtype.kind != "c":
        real = np.dtype(np.float32 if x.dtype == np.complex64 else np.float64)
        x = b.unary("Real", x, real, Tout=to_cpp(real))
    return [b.cast(x, dtype)]


@ge_converter("stablehlo.bitcast_convert")
def _bitcast(ctx, op):
    (x,) = ctx.inputs(op)
    shape, dtype = _out(op)
    return [ctx.b.add1("Bitcast", [x], dtype, shape, type=dtype)]


@ge_converter("stablehlo.real", "stablehlo.imag")
def _real_imag(ctx, op):
    (x,) = ctx.inputs(op)
    _, dtype = _out(op)
    kind = "Real" if op.name == "stablehlo.real" else "Imag"
    if x.dtype.kind != "c":  # real/imag of a real tensor: x / zeros
        return [x if kind == "Real" else ctx.b.fill(0, x.dtype, x.shape)]
    return [ctx.b.unary(kind, x, dtype, Tout=to_cpp(dtype))]


@ge_converter("stablehlo.complex")
def _complex(ctx, op):
    re, im = ctx.inputs(op)
    shape, dtype = _out(op)
    return [ctx.b.add1("Complex", [re, im], dtype, shape, Tout=to_cpp(dtype))]
