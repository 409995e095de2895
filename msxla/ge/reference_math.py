"""Reference kernels: GE element-wise operators (math, comparison, logic, casts).

GE's binary operators take two inputs of one dtype and broadcast numpy-style;
the kernels insist on the single dtype (a converter that mixes dtypes is a
bug). Special functions (Erf, Lgamma, ...) use scipy, computing half-precision
inputs in float32.
"""
from __future__ import annotations

import numpy as np
import scipy.special as sp

from msxla.ge.dtypes import from_cpp
from msxla.ge.reference import GeExecutionError, contiguous, kernel


def _same(call, *xs):
    kinds = {x.dtype for x in xs}
    if len(kinds) != 1:
        raise GeExecutionError(f"{call.node.type} '{call.node.name}' got inputs of dtypes "
                               f"{sorted(map(str, kinds))}; GE needs one dtype")
    return xs[0].dtype


def _r(value, dtype):
    return np.asarray(value).astype(dtype, copy=False)


_BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Maximum": np.maximum,
           "Minimum": np.minimum, "Atan2": np.arctan2, "NextAfter": np.nextafter,
           "BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or,
           "BitwiseXor": np.bitwise_xor, "LeftShift": np.left_shift,
           "RightShift": np.right_shift, "LogicalAnd": np.logical_and,
           "LogicalOr": np.logical_or}
_COMPARE = {"Equal": np.equal, "NotEqual": np.not_equal, "Less": np.less,
            "LessEqual": np.less_equal, "Greater": np.greater, "GreaterEqual": np.greater_equal}


@kernel(*_BINARY)
def _binary(call, x, y):
    dtype = _same(call, x, y)
    return _r(_BINARY[call.node.type](x, y), dtype)


@kernel(*_COMPARE)
def _compare(call, x, y):
    _same(call, x, y)
    return _r(_COMPARE[call.node.type](x, y), np.bool_)


@kernel("RealDiv")
def _real_div(call, x, y):
    dtype = _same(call, x, y)
    return _r(np.true_divide(x, y), dtype)


def _trunc_div(x, y):
    if x.dtype.kind == "u":
        return x // y
    if x.dtype.kind in "fc":
        return np.trunc(x / y)
    q = np.abs(x) // np.abs(y)
    return np.where((x < 0) != (y < 0), -q, q)


@kernel("TruncateDiv")
def _truncate_div(call, x, y):
    dtype = _same(call, x, y)
    return _r(_trunc_div(x, y), dtype)


@kernel("TruncateMod", "Mod")
def _truncate_mod(call, x, y):
    dtype = _same(call, x, y)
    if dtype.kind in "fc":
        return _r(np.fmod(x, y), dtype)
    return _r(x - _trunc_div(x, y) * y, dtype)


@kernel("Pow")
def _pow(call, x, y):
    dtype = _same(call, x, y)
    if dtype.kind not in "iu":
        return _r(np.power(x, y), dtype)
    neg = y < 0
    pos = np.power(x, np.where(neg, 0, y))
    odd = (np.abs(y) % 2) == 1
    small = np.where(x == 1, 1, np.where(x == -1, np.where(odd, -1, 1), 0))
    return _r(np.where(neg, small, pos), dtype)


def _float(fn):
    def run(x):
        if x.dtype.itemsize < 4 and x.dtype.kind == "f" or str(x.dtype) == "bfloat16":
            return fn(x.astype(np.float32))
        return fn(x)
    return run


_UNARY = {
    "Neg": np.negative, "Sqrt": np.sqrt, "Rsqrt": lambda x: 1 / np.sqrt(x),
    "Square": np.square, "Reciprocal": lambda x: 1 / x, "Sign": np.sign, "Floor": np.floor,
    "Ceil": np.ceil, "Rint": np.rint, "Expm1": np.expm1, "Log1p": np.log1p, "Sin": np.sin,
    "Cos": np.cos, "Tan": np.tan, "Sinh": np.sinh, "Cosh": np.cosh, "Asin": np.arcsin,
    "Acos": np.arccos, "Atan": np.arctan, "Asinh": np.arcsinh, "Acosh": np.arccosh,
    "Atanh": np.arctanh, "Tanh": np.tanh, "Sigmoid": _float(sp.expit), "Erf": _float(sp.erf),
    "Erfc": _float(sp.erfc), "Erfinv": _float(sp.erfinv), "Lgamma": _float(sp.gammaln),
    "Digamma": _float(sp.digamma), "BesselI1e": _float(sp.i1e), "Invert": np.invert,
    "LogicalNot": np.logical_not,
    "Identity": lambda x: x,
}


@kernel(*_UNARY)
def _unary(call, x):
    return _r(_UNARY[call.node.type](x), x.dtype)


@kernel("Abs")
def _abs(call, x):
    return _r(np.abs(x), call.out[0][0])


@kernel("IsFinite", "IsInf", "IsNan")
def _predicate(call, x):
    fn = {"IsFinite": np.isfinite, "IsInf": np.isinf, "IsNan": np.isnan}[call.node.type]
    return _r(fn(x), np.bool_)


@kernel("PopulationCount")
def _popcount(call, x):
    bits = x.view(np.dtype(f"u{x.dtype.itemsize}")) if x.dtype.kind == "i" else x
    return _r(np.bitwise_count(bits), np.uint8)  # of the bit pattern (numpy: of |x|)


@kernel("Round")
def _round(call, x):
    return _r(np.round(x, call.attr("decimals")), x.dtype)


@kernel("Exp")
def _exp(call, x):
    base, scale, shift = call.attr("base"), call.attr("scale"), call.attr("shift")
    z = x * scale + shift if (scale, shift) != (1.0, 0.0) else x
    y = np.exp(z) if base == -1.0 else np.power(base, z)
    return _r(y, x.dtype)


@kernel("Log")
def _log(call, x):
    base, scale, shift = call.attr("base"), call.attr("scale"), call.attr("shift")
    z = x * scale + shift if (scale, shift) != (1.0, 0.0) else x
    y = np.log(z) if base == -1.0 else np.log(z) / np.log(base)
    return _r(y, x.dtype)


@kernel("Cast")
def _cast(call, x):
    return _r(x, from_cpp(call.attr("dst_type")))


@kernel("Bitcast")
def _bitcast(call, x):
    dtype, shape = call.out[0]
    return contiguous(x).view(dtype).reshape(shape)


@kernel("Real", "Imag")
def _real_imag(call, x):
    fn = np.real if call.node.type == "Real" else np.imag
    return _r(fn(x), call.out[0][0])


@kernel("Complex")
def _complex(call, re, im):
    _same(call, re, im)
    return _r(re + 1j * im, call.out[0][0])


@kernel("SelectV2")
def _select(call, cond, a, b):
    dtype = _same(call, a, b)
    if cond.dtype != np.bool_:
        raise GeExecutionError(f"SelectV2 '{call.node.name}' condition must be bool")
    return _r(np.where(cond, a, b), dtype)


@kernel("ClipByValue")
def _clip(call, x, lo, hi):
    dtype = _same(call, x, lo, hi)
    return _r(np.minimum(np.maximum(x, lo), hi), dtype)
