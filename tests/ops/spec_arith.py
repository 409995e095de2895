"""OpSpecs: binary and ternary arithmetic and binary math functions."""
import numpy as np

from optable import OpSpec

F = (np.float32, np.float64, np.float16)
N = F + (np.int32, np.int64)


def fl(fn):
    """Reference of a float-result op: integer inputs compute and return float32."""
    def ref(*xs, **kw):
        xs = [np.asarray(x) for x in xs]
        dt = np.result_type(*xs)
        if dt.kind in "biu":
            dt = np.dtype(np.float32)
        with np.errstate(all="ignore"):
            return np.asarray(fn(*[x.astype(dt) for x in xs], **kw)).astype(dt)
    return ref


def nonzero(rng, dtype):
    """Dividend and a divisor without zeros (signs mixed)."""
    a = (rng.standard_normal((2, 3)) * 5).astype(dtype)
    b = rng.choice([-3, -2, -1.5, 1, 1.5, 2, 3], size=(2, 3)).astype(dtype)
    if np.dtype(dtype).kind in "iu":
        a = rng.integers(-9, 10, (2, 3)).astype(dtype)
        b = rng.choice([-3, -2, 1, 2, 3], size=(2, 3)).astype(dtype)
    return [a, b]


def _trunc_div(a, b):
    return np.trunc(a / b).astype(np.result_type(a, b)) if a.dtype.kind == "f" else \
        (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(a.dtype)


def _xdivy(x, y):
    return np.where(x == 0, 0, x / np.where(x == 0, 1, y))


def _heaviside(x, values):
    return np.heaviside(x, values).astype(x.dtype)


def with_zeros(rng, dtype):
    x = rng.integers(-2, 3, (2, 4)).astype(dtype)
    return [x, (rng.standard_normal((2, 4)) * 3).astype(dtype)]


def ternary(rng, dtype):
    return [rng.standard_normal((2, 3)).astype(dtype), rng.standard_normal((3,)).astype(dtype),
            rng.uniform(0.5, 2.0, (2, 1)).astype(dtype)]


SPECS = [
    OpSpec("add", np.add, ((2, 3), (3,)), dtypes=N, grad=True),
    OpSpec("sub", np.subtract, ((2, 3), (2, 3)), dtypes=N, grad=True),
    OpSpec("mul", np.multiply, ((2, 3), (1, 3)), dtypes=N, grad=True),
    OpSpec("div", np.true_divide, ((2, 3), (2, 3)), dtypes=F, grad=True, domain="positive"),
    OpSpec("div", fl(np.true_divide), shapes=nonzero, id="int", dtypes=(np.int32, np.int64)),
    OpSpec("div", lambda a, b, rounding_mode: np.floor_divide(a, b), shapes=nonzero, id="floor",
           kwargs={"rounding_mode": "floor"}, dtypes=N),
    OpSpec("div", lambda a, b, rounding_mode: _trunc_div(a, b), shapes=nonzero, id="trunc",
           kwargs={"rounding_mode": "trunc"}, dtypes=N),
    OpSpec("divide", np.true_divide, shapes=nonzero, dtypes=F, grad=True),
    OpSpec("divide", lambda a, b, rounding_mode: _trunc_div(a, b), shapes=nonzero, id="trunc",
           kwargs={"rounding_mode": "trunc"}, dtypes=(np.float32, np.int32)),
    OpSpec("true_divide", fl(np.true_divide), shapes=nonzero, dtypes=N, grad=True),
    OpSpec("floor_divide", np.floor_divide, ((2, 3), (2, 3)), dtypes=(np.float32, np.int32),
           domain="positive"),
    OpSpec("floor_divide", np.floor_divide, shapes=nonzero, id="signs", dtypes=N),
    OpSpec("floor_div", np.floor_divide, shapes=nonzero, dtypes=N),
    OpSpec("remainder", np.remainder, ((2, 3), (2, 3)), dtypes=(np.float32, np.int64),
           domain="positive"),
    OpSpec("remainder", np.remainder, shapes=nonzero, id="signs", dtypes=N),
    OpSpec("floor_mod", np.remainder, shapes=nonzero, dtypes=N),
    OpSpec("truncate_div", _trunc_div, shapes=nonzero, dtypes=N),
    OpSpec("truncate_div", _trunc_div, shapes=lambda r, d: [x[:, :1] if i else x for i, x in
                                                            enumerate(nonzero(r, d))],
           id="broadcast", dtypes=(np.int32, np.float32)),
    OpSpec("truncate_mod", np.fmod, shapes=nonzero, dtypes=N),
    OpSpec("truncate_mod", np.fmod, shapes=lambda r, d: [x[:1] if i else x for i, x in
                                                         enumerate(nonzero(r, d))],
           id="broadcast", dtypes=(np.int32, np.int64)),
    OpSpec("pow", np.power, ((2, 3), (2, 3)), dtypes=(np.float32, np.float64), grad=True,
           domain="positive"),
    OpSpec("float_power", lambda a, b: np.power(a.astype(np.float64), b.astype(np.float64)),
           ((2, 3), (2, 3)), dtypes=(np.float32, np.float64, np.int32), grad=True,
           domain="positive"),
    OpSpec("maximum", np.maximum, ((2, 3), (2, 3)), dtypes=N, grad=True),
    OpSpec("minimum", np.minimum, ((2, 3), (2, 3)), dtypes=N, grad=True),
    OpSpec("fmax", np.fmax, shapes=lambda r, d: [np.array([[np.nan, 1, 2], [3, np.nan, -1]], d),
                                                 np.array([np.nan, np.nan, 5], d)],
           dtypes=F),
    OpSpec("fmax", np.fmax, id="grad", dtypes=(np.float32,), shapes=((2, 3), (2, 3)), grad=True),
    OpSpec("fmin", np.fmin, shapes=lambda r, d: [np.array([[np.nan, 1, 2], [3, np.nan, -1]], d),
                                                 np.array([np.nan, np.nan, 5], d)],
           dtypes=F),
    OpSpec("fmin", np.fmin, id="int", dtypes=(np.int32, np.int64), shapes=((2, 3), (3,))),
    OpSpec("neg", np.negative, ((2, 3),), dtypes=N, grad=True),
    OpSpec("subtract", np.subtract, ((2, 3), (3,)), dtypes=N, grad=True),
    OpSpec("subtract", lambda a, b, alpha: a - alpha * b, ((2, 3), (3,)), id="alpha",
           kwargs={"alpha": 2}, dtypes=N, grad=True),
    OpSpec("multiply", np.multiply, ((2, 3), (3,)), dtypes=N, grad=True),
    # binary math functions
    OpSpec("atan2", fl(np.arctan2), dtypes=N, grad=True, shapes=((2, 3), (2, 3))),
    OpSpec("arctan2", fl(np.arctan2), dtypes=F, grad=True, shapes=((2, 3), (1, 3))),
    OpSpec("hypot", np.hypot, dtypes=(np.float32, np.float64), grad=True,
           shapes=((2, 3), (2, 3))),
    OpSpec("fmod", np.fmod, shapes=nonzero, dtypes=N, grad=True, grad_inputs=(0,)),
    OpSpec("xlogy", fl(lambda x, y: x * np.log(y)), dtypes=(np.float32, np.float64, np.int32),
           domain="positive", grad=True, shapes=((2, 3), (2, 3))),
    OpSpec("xdivy", _xdivy, shapes=with_zeros, dtypes=(np.float32, np.float64), grad=True,
           grad_inputs=(1,)),
    OpSpec("logaddexp", np.logaddexp, shapes=((2, 3), (3,)), dtypes=F, grad=True),
    OpSpec("logaddexp2", np.logaddexp2, shapes=((2, 3), (3,)), dtypes=F, grad=True),
    OpSpec("copysign", np.copysign, shapes=((2, 3), (2, 3)), dtypes=F, grad=True,
           grad_inputs=(0,)),
    OpSpec("copysign", fl(np.copysign), id="int", shapes=((2, 3), (2, 3)),
           dtypes=(np.int32, np.int64)),
    OpSpec("heaviside", _heaviside, shapes=with_zeros, dtypes=(np.float32, np.float64)),
    OpSpec("heaviside", _heaviside, shapes=lambda r, d: [r.integers(-2, 3, (2, 4)).astype(d),
                                                         r.integers(5, 9, (4,)).astype(d)],
           id="int", dtypes=(np.int32, np.int64)),
    OpSpec("nextafter", np.nextafter, shapes=((2, 3), (2, 3)), dtypes=(np.float32, np.float64),
           rtol=0, atol=0),
    OpSpec("ldexp", fl(lambda x, e: x * np.exp2(e)), shapes=((2, 3), (2, 3)), dtypes=N,
           grad=True),
    # ternary
    OpSpec("lerp", lambda s, e, w: s + w * (e - s), shapes=ternary, dtypes=F, grad=True),
    OpSpec("lerp", lambda s, e, weight: s + weight * (e - s), shapes=((2, 3), (2, 3)),
           id="scalar", kwargs={"weight": 0.25}, dtypes=F, grad=True),
    OpSpec("addcmul", lambda a, b, c, value=1: a + value * b * c, shapes=ternary, dtypes=N,
           grad=True),
    OpSpec("addcmul", lambda a, b, c, value: a + value * b * c, shapes=ternary, id="value",
           kwargs={"value": 0.5}, dtypes=F, grad=True),
    OpSpec("addcdiv", lambda a, b, c, value=1: a + value * b / c, shapes=ternary, dtypes=F,
           grad=True),
    OpSpec("addcdiv", lambda a, b, c, value: a + value * b / c, shapes=ternary, id="value",
           kwargs={"value": -2.0}, dtypes=F, grad=True),
    OpSpec("addcdiv", lambda a, b, c, value: a + value * np.trunc(b / c).astype(a.dtype),
           shapes=lambda r, d: [r.integers(-9, 9, (2, 3)).astype(d),
                                r.integers(-9, 9, (3,)).astype(d), np.array([[2], [-3]], d)],
           id="int", kwargs={"value": 2}, dtypes=(np.int32, np.int64)),
]
