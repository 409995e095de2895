"""OpSpecs: elementwise unary math, special functions, rounding, sign and clamp."""
import numpy as np
from scipy import special

from optable import OpSpec

F = (np.float32, np.float64, np.float16)
FI = F + (np.int32, np.int64)
N = FI + (np.int8, np.uint8)


def fl(fn):
    """Reference of a float-math op: integers and bools compute and return float32."""
    def ref(x, *args, **kw):
        x = np.asarray(x)
        if x.dtype.kind in "biu":
            x = x.astype(np.float32)
        with np.errstate(all="ignore"):
            return np.asarray(fn(x, *args, **kw)).astype(x.dtype)
    ref.__name__ = getattr(fn, "__name__", "ref")
    return ref


def keep(fn):
    """Reference of a dtype-keeping op."""
    def ref(x, *args, **kw):
        return np.asarray(fn(x, *args, **kw)).astype(np.asarray(x).dtype)
    return ref


def above_one(rng, dtype):
    return [rng.uniform(1.2, 3.0, size=(2, 3)).astype(dtype)]


def with_edges(rng, dtype):
    x = rng.standard_normal((2, 4)) * 3
    x[0, :] = [0.5, -0.5, 1.5, -2.5]  # ties round to even
    return [x.astype(dtype)]


def specials(rng, dtype):
    x = rng.standard_normal((2, 4)).astype(dtype)
    x[0, :] = [np.nan, np.inf, -np.inf, -0.0]
    return [x]


def _sign(x):
    out = np.sign(x)
    if np.asarray(x).dtype.kind == "f":
        out = np.where(np.isnan(x), 0, out)
    return out


def _logit(x, eps=None):
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    return np.log(x / (1 - x))


def _clamp(x, min=None, max=None):  # noqa: A002 - MindSpore's names
    if min is not None:
        x = np.maximum(x, min)
    if max is not None:
        x = np.minimum(x, max)
    return x


def _nan_to_num(x, nan=None, posinf=None, neginf=None):
    return np.nan_to_num(x, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)


def _complex(rng, dtype):
    return [(rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))).astype(np.complex64)]


SPECS = [
    OpSpec("abs", np.abs, dtypes=N, grad=True),
    OpSpec("absolute", np.abs, dtypes=FI, grad=True),
    OpSpec("abs", lambda x: np.abs(x).astype(x.dtype), shapes=_complex, id="complex",
           dtypes=(np.complex64,)),
    OpSpec("exp", fl(np.exp), dtypes=FI, grad=True),
    OpSpec("exp2", fl(np.exp2), dtypes=FI, grad=True),
    OpSpec("expm1", fl(np.expm1), dtypes=FI, grad=True),
    OpSpec("log", fl(np.log), dtypes=FI, grad=True, domain="positive"),
    OpSpec("log2", fl(np.log2), dtypes=FI, grad=True, domain="positive"),
    OpSpec("log10", fl(np.log10), dtypes=FI, grad=True, domain="positive"),
    OpSpec("log1p", fl(np.log1p), dtypes=FI, grad=True, domain="positive"),
    OpSpec("sqrt", fl(np.sqrt), dtypes=FI, grad=True, domain="positive"),
    OpSpec("rsqrt", fl(lambda x: 1 / np.sqrt(x)), dtypes=FI, grad=True, domain="positive"),
    OpSpec("square", np.square, dtypes=N, grad=True),
    OpSpec("reciprocal", fl(np.reciprocal), dtypes=FI, grad=True, domain="positive"),
    OpSpec("inv", np.reciprocal, dtypes=F, grad=True, domain="positive"),
    OpSpec("inv", lambda x: np.where(np.abs(x) == 1, x, np.where(x == 0, np.iinfo(x.dtype).min,
                                                                  0)).astype(x.dtype),
           dtypes=(np.int32, np.int64), id="integer"),
    OpSpec("identity", lambda x: x.copy(), dtypes=FI + (np.bool_, np.float16), grad=True),
    OpSpec("sin", fl(np.sin), dtypes=FI, grad=True),
    OpSpec("cos", fl(np.cos), dtypes=FI, grad=True),
    OpSpec("tan", fl(np.tan), dtypes=F, grad=True, domain="unit"),
    OpSpec("asin", fl(np.arcsin), dtypes=F, grad=True, domain="unit"),
    OpSpec("arcsin", fl(np.arcsin), dtypes=F, grad=True, domain="unit"),
    OpSpec("acos", fl(np.arccos), dtypes=F, grad=True, domain="unit"),
    OpSpec("arccos", fl(np.arccos), dtypes=F, grad=True, domain="unit"),
    OpSpec("atan", fl(np.arctan), dtypes=FI, grad=True),
    OpSpec("arctan", fl(np.arctan), dtypes=F, grad=True),
    OpSpec("sinh", fl(np.sinh), dtypes=FI, grad=True),
    OpSpec("cosh", fl(np.cosh), dtypes=FI, grad=True),
    OpSpec("tanh", fl(np.tanh), dtypes=FI, grad=True),
    OpSpec("asinh", fl(np.arcsinh), dtypes=F, grad=True),
    OpSpec("arcsinh", fl(np.arcsinh), dtypes=F, grad=True),
    OpSpec("acosh", fl(np.arccosh), shapes=above_one, dtypes=F, grad=True),
    OpSpec("arccosh", fl(np.arccosh), shapes=above_one, dtypes=F, grad=True),
    OpSpec("atanh", fl(np.arctanh), dtypes=F, grad=True, domain="unit"),
    OpSpec("arctanh", fl(np.arctanh), dtypes=F, grad=True, domain="unit"),
    # special functions
    OpSpec("erf", fl(special.erf), dtypes=FI, grad=True),
    OpSpec("erfc", fl(special.erfc), dtypes=FI, grad=True),
    OpSpec("erfinv", fl(special.erfinv), dtypes=F, grad=True, domain="unit", rtol=1e-4),
    OpSpec("lgamma", fl(special.gammaln), dtypes=(np.float32, np.float64, np.int32), grad=True,
           domain="positive", atol=1e-5),
    OpSpec("digamma", fl(special.digamma), dtypes=(np.float32, np.float64), grad=True,
           domain="positive", rtol=1e-4),
    OpSpec("i0", fl(special.i0), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("bessel_i0", fl(special.i0), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("bessel_i0e", fl(special.i0e), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("bessel_i1", fl(special.i1), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("bessel_i1e", fl(special.i1e), dtypes=(np.float32, np.float64), grad=True),
    OpSpec("logit", fl(_logit), dtypes=F, grad=True, shapes=lambda r, d: [
        r.uniform(0.1, 0.9, (2, 3)).astype(d)]),
    OpSpec("logit", fl(_logit), dtypes=(np.float32, np.float64), kwargs={"eps": 0.2}, id="eps",
           shapes=lambda r, d: [r.uniform(-0.5, 1.5, (2, 3)).astype(d)]),
    OpSpec("sinc", fl(np.sinc), dtypes=FI, grad=True),
    OpSpec("deg2rad", fl(np.deg2rad), dtypes=F, grad=True),
    OpSpec("rad2deg", fl(np.rad2deg), dtypes=F, grad=True),
    OpSpec("angle", lambda x: np.angle(x).astype(np.float32), shapes=_complex,
           dtypes=(np.complex64,)),
    OpSpec("angle", fl(np.angle), id="real", dtypes=(np.float32, np.float64)),
    OpSpec("real", lambda x: np.real(x).astype(np.float32), shapes=_complex,
           dtypes=(np.complex64,)),
    OpSpec("real", np.real, id="float", dtypes=FI, grad=True),
    OpSpec("imag", lambda x: np.imag(x).astype(np.float32), shapes=_complex,
           dtypes=(np.complex64,)),
    OpSpec("imag", keep(np.zeros_like), id="float", dtypes=FI),
    OpSpec("conj", np.conj, shapes=_complex, dtypes=(np.complex64,)),
    OpSpec("conj", np.conj, id="float", dtypes=FI, grad=True),
    # rounding, sign, range
    OpSpec("floor", np.floor, dtypes=N),
    OpSpec("ceil", np.ceil, dtypes=F),
    OpSpec("round", np.round, shapes=with_edges, dtypes=FI),
    OpSpec("round", lambda x, decimals: np.round(x, decimals), id="decimals",
           kwargs={"decimals": 2}, dtypes=(np.float32, np.float64)),
    OpSpec("round", lambda x, decimals: np.round(x, decimals), id="int_decimals",
           kwargs={"decimals": -1}, dtypes=(np.int32, np.int64),
           shapes=lambda r, d: [r.integers(-200, 200, (2, 5)).astype(d)]),
    OpSpec("trunc", np.trunc, dtypes=N),
    OpSpec("frac", lambda x: keep(lambda v: v - np.trunc(v))(x), dtypes=N),
    OpSpec("sign", _sign, shapes=specials, dtypes=F),
    OpSpec("sign", np.sign, id="int", dtypes=(np.int32, np.int64)),
    OpSpec("sgn", _sign, dtypes=FI),
    OpSpec("sgn", lambda x: np.where(x == 0, 0, x / np.abs(np.where(x == 0, 1, x))).astype(
        x.dtype), shapes=_complex, id="complex", dtypes=(np.complex64,)),
    OpSpec("signbit", np.signbit, shapes=specials, dtypes=F),
    OpSpec("signbit", np.signbit, id="int", dtypes=(np.int32, np.int8)),
    OpSpec("positive", lambda x: x, dtypes=N + (np.bool_,), grad=True),
    OpSpec("negative", np.negative, dtypes=FI + (np.int8,), grad=True),
    OpSpec("nan_to_num", _nan_to_num, shapes=specials, dtypes=F),
    OpSpec("nan_to_num", _nan_to_num, shapes=specials, id="values", dtypes=F,
           kwargs={"nan": 1.0, "posinf": 9.0, "neginf": -9.0}),
    OpSpec("nan_to_num", _nan_to_num, id="int", dtypes=(np.int32, np.int64)),
    OpSpec("clamp", _clamp, kwargs={"min": -0.5, "max": 0.5}, dtypes=F, grad=True),
    OpSpec("clamp", keep(_clamp), id="int", kwargs={"min": -2, "max": 3},
           dtypes=(np.int32, np.int64, np.int8)),
    OpSpec("clamp", _clamp, id="tensors", shapes=((2, 3), (2, 3), (3,)), dtypes=F, grad=True),
    OpSpec("clamp", _clamp, id="min_only", kwargs={"min": 0.1}, dtypes=F),
    OpSpec("clip", _clamp, kwargs={"max": 0.3}, dtypes=F, grad=True),
    OpSpec("clip", _clamp, id="tensors", shapes=((2, 3), (1, 3), (2, 1)), dtypes=FI),
    OpSpec("clip_by_value", lambda x, lo, hi: np.clip(x, lo, hi), shapes=((2, 3), (1, 3), (2, 1)),
           dtypes=F, grad=True, grad_inputs=(0,)),
    OpSpec("clip_by_value", lambda x, clip_value_min, clip_value_max: np.clip(
        x, int(clip_value_min), int(clip_value_max)).astype(x.dtype), id="int_keeps_dtype",
           kwargs={"clip_value_min": -1.5, "clip_value_max": 2.5}, dtypes=(np.int32, np.int64)),
]
