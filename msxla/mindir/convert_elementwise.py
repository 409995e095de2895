"""Element-wise StableHLO (and CHLO) ops -> MindSpore element-wise primitives.

Most ops are one primitive (``stablehlo.add`` -> ``Add``); MindSpore's
element-wise primitives broadcast like numpy, so a lazily broadcast operand
(``convert.Lazy``) is passed un-broadcast when the result keeps its shape::

    add(x[2, 3], broadcast_in_dim(b[3]))  ->  Add(x, Reshape(b, (1, 3)))

A few ops pick by dtype (``and`` -> ``LogicalAnd`` on bool, ``BitwiseAnd``
on integers); ``clamp`` is ``Minimum(Maximum(x, lo), hi)``;
``round_nearest_afz`` (round half away from zero) is
``Sign(x) * Floor(Abs(x) + 0.5)``.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.mindir.convert import Lazy
from msxla.mindir.registry import mindir_converter

_UNARY = {
    "stablehlo.negate": "Neg", "stablehlo.sqrt": "Sqrt", "stablehlo.rsqrt": "Rsqrt",
    "stablehlo.exponential": "Exp", "stablehlo.log": "Log", "stablehlo.log_plus_one": "Log1p",
    "stablehlo.exponential_minus_one": "Expm1", "stablehlo.tanh": "Tanh",
    "stablehlo.sine": "Sin", "stablehlo.cosine": "Cos", "stablehlo.tan": "Tan",
    "stablehlo.floor": "Floor", "stablehlo.ceil": "Ceil", "stablehlo.sign": "Sign",
    "stablehlo.logistic": "Sigmoid", "stablehlo.abs": "Abs",
    "chlo.square": "Square", "chlo.erf": "Erf", "chlo.erfc": "Erfc", "chlo.erf_inv": "Erfinv",
    "chlo.asin": "Asin", "chlo.atan": "Atan", "chlo.sinh": "Sinh", "chlo.cosh": "Cosh",
    "chlo.asinh": "Asinh", "chlo.acosh": "Acosh", "chlo.atanh": "Atanh", "chlo.tan": "Tan",
}
_PREDICATES = {"stablehlo.is_finite": "IsFinite", "chlo.is_inf": "IsInf"}
_BINARY = {
    "stablehlo.add": "Add", "stablehlo.subtract": "Sub", "stablehlo.multiply": "Mul",
    "stablehlo.maximum": "Maximum", "stablehlo.minimum": "Minimum", "stablehlo.power": "Pow",
    "stablehlo.atan2": "Atan2",
}
_COMPARE = {"EQ": "Equal", "NE": "NotEqual", "LT": "Less", "LE": "LessEqual", "GT": "Greater",
            "GE": "GreaterEqual"}
_LOGICAL = {"stablehlo.and": ("LogicalAnd", "BitwiseAnd"), "stablehlo.or": ("LogicalOr",
                                                                            "BitwiseOr"),
            "stablehlo.xor": ("NotEqual", "BitwiseXor")}


def _out(op, i=0):
    return parse.value_type(op.results[i])


def operands(ctx, op, shape):
    """The op's operands, lazily broadcast ones un-broadcast while numpy broadcasting of
    what is passed still gives ``shape``."""
    vals = [ctx.get_lazy(v) for v in op.operands]
    srcs = [v.src if isinstance(v, Lazy) else v for v in vals]
    if tuple(np.broadcast_shapes(*[s.shape for s in srcs])) == tuple(shape):
        return srcs
    out = []
    for k, v in enumerate(vals):  # write out broadcasts until the result is full size
        out.append(ctx.materialise(v) if isinstance(v, Lazy) else v)
        rest = out + srcs[k + 1:]
        if tuple(np.broadcast_shapes(*[s.shape for s in rest])) == tuple(shape):
            return rest
    return out


def binary(ctx, op, name, shape=None, dtype=None):
    out_shape, out_dtype = _out(op)
    x, y = operands(ctx, op, out_shape)
    return ctx.b.fn(name, x, y, out_shape=shape or out_shape, out_dtype=dtype or out_dtype)


@mindir_converter(*_UNARY)
def _unary(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.fn(_UNARY[op.name], x)]


@mindir_converter(*_PREDICATES)
def _predicate(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.fn(_PREDICATES[op.name], x, out_dtype=np.bool_)]


@mindir_converter(*_BINARY)
def _binary(ctx, op):
    _, dtype = _out(op)
    name = _BINARY[op.name]
    if dtype == np.bool_ and name in ("Add", "Mul", "Maximum", "Minimum"):
        name = "LogicalOr" if name in ("Add", "Maximum") else "LogicalAnd"
    return [binary(ctx, op, name)]


@mindir_converter("stablehlo.divide")
def _divide(ctx, op):
    _, dtype = _out(op)
    if dtype.kind not in "fc":
        raise ctx.unsupported(op, "on integers")
    return [binary(ctx, op, "Div")]


@mindir_converter("stablehlo.remainder")
def _remainder(ctx, op):
    """C's fmod: x - trunc(x / y) * y (for floats)."""
    _, dtype = _out(op)
    if dtype.kind != "f":
        raise ctx.unsupported(op, "on integers")
    shape, _ = _out(op)
    x, y = operands(ctx, op, shape)
    b = ctx.b
    q = b.fn("Trunc", b.fn("Div", x, y, out_shape=shape))
    return [b.fn("Sub", x, b.fn("Mul", q, y, out_shape=shape), out_shape=shape)]


@mindir_converter(*_LOGICAL)
def _logical(ctx, op):
    _, dtype = _out(op)
    logical, bitwise = _LOGICAL[op.name]
    if dtype != np.bool_:
        raise ctx.unsupported(op, "on integers")
    return [binary(ctx, op, logical)]


@mindir_converter("stablehlo.not")
def _not(ctx, op):
    (x,) = ctx.inputs(op)
    if x.dtype != np.bool_:
        raise ctx.unsupported(op, "on integers")
    return [ctx.b.fn("LogicalNot", x)]


@mindir_converter("stablehlo.compare")
def _compare(ctx, op):
    direction, kind = parse.comparison(op)
    if kind == "TOTALORDER":
        raise ctx.unsupported(op, "with a total order")
    return [binary(ctx, op, _COMPARE[direction], dtype=np.bool_)]


@mindir_converter("stablehlo.select")
def _select(ctx, op):
    shape, dtype = _out(op)
    c, a, x = [ctx.broadcast(v, shape) for v in ctx.inputs(op)]
    return [ctx.b.fn("Select", c, a, x, out_shape=shape, out_dtype=dtype)]


@mindir_converter("stablehlo.clamp")
def _clamp(ctx, op):
    shape, dtype = _out(op)
    lo, x, hi = ctx.inputs(op)
    b = ctx.b
    return [b.fn("Minimum", b.fn("Maximum", x, lo, out_shape=shape), hi, out_shape=shape)]


@mindir_converter("stablehlo.convert")
def _convert(ctx, op):
    (x,) = ctx.inputs(op)
    _, dtype = _out(op)
    if x.dtype.kind == "c" or dtype.kind == "c":
        raise ctx.unsupported(op, "of complex numbers")
    return [ctx.cast(x, dtype)]


@mindir_converter("stablehlo.round_nearest_even")
def _round_even(ctx, op):
    (x,) = ctx.inputs(op)
    return [ctx.b.fn("Round", x, 0)]


@mindir_converter("stablehlo.round_nearest_afz")
def _round_afz(ctx, op):
    b = ctx.b
    (x,) = ctx.inputs(op)
    half = b.const(np.asarray(0.5, x.dtype))
    mag = b.fn("Floor", b.fn("Add", b.fn("Abs", x), half))
    return [b.fn("Mul", b.fn("Sign", x), mag)]
