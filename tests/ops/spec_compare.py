"""OpSpecs: comparisons, closeness, NaN/inf tests, logical and bitwise ops."""
import numpy as np

from optable import OpSpec

F = (np.float32, np.float64, np.float16)
FI = F + (np.int32, np.int64)
INTS = (np.int32, np.int64, np.int8, np.uint8)
BI = (np.bool_,) + INTS


def with_ties(rng, dtype):
    """Two inputs that are equal in some places."""
    a = rng.integers(-3, 4, size=(2, 4)).astype(dtype)
    b = rng.integers(-3, 4, size=(4,)).astype(dtype)
    return [a, b]


def specials(rng, dtype):
    x = rng.standard_normal((2, 4)).astype(dtype)
    x[0, :] = [np.nan, np.inf, -np.inf, 0.0]
    return [x]


def near(rng, dtype):
    a = rng.standard_normal((2, 4)).astype(dtype)
    b = a + np.asarray([0.0, 1e-7, 1e-3, 1.0], dtype)
    a[1, 0], b[1, 0] = np.nan, np.nan
    a[1, 1] = b[1, 1] = np.inf
    return [a, b]


def shifts(rng, dtype):
    bits = np.iinfo(dtype).bits
    return [rng.integers(-50 if np.iinfo(dtype).min < 0 else 0, 50, (2, 3)).astype(dtype),
            rng.integers(0, bits - 1, (2, 3)).astype(dtype)]


def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _rshift(a, b):
    return np.right_shift(a, b)


SPECS = [
    *(OpSpec(name, fn, shapes=with_ties, dtypes=FI + (np.int8, np.uint8))
      for name, fn in [("equal", np.equal), ("eq", np.equal), ("not_equal", np.not_equal),
                       ("ne", np.not_equal), ("greater", np.greater), ("gt", np.greater),
                       ("greater_equal", np.greater_equal), ("ge", np.greater_equal),
                       ("less", np.less), ("lt", np.less), ("less_equal", np.less_equal),
                       ("le", np.less_equal)]),
    OpSpec("equal", np.equal, shapes=((2, 3), (3,)), id="bool", dtypes=(np.bool_,)),
    OpSpec("isclose", _isclose, shapes=near, dtypes=(np.float32, np.float64)),
    OpSpec("isclose", _isclose, shapes=near, id="equal_nan", dtypes=(np.float32, np.float64),
           kwargs={"rtol": 1e-3, "atol": 0.0, "equal_nan": True}),
    OpSpec("isclose", _isclose, shapes=with_ties, id="int", dtypes=(np.int32, np.int64)),
    OpSpec("isnan", np.isnan, shapes=specials, dtypes=F),
    OpSpec("isnan", np.isnan, id="int", dtypes=(np.int32, np.bool_)),
    OpSpec("isinf", np.isinf, shapes=specials, dtypes=F),
    OpSpec("isinf", np.isinf, id="int", dtypes=(np.int64,)),
    OpSpec("isfinite", np.isfinite, shapes=specials, dtypes=F),
    OpSpec("isfinite", np.isfinite, id="int", dtypes=(np.int32,)),
    OpSpec("isneginf", np.isneginf, shapes=specials, dtypes=F),
    OpSpec("isposinf", np.isposinf, shapes=specials, dtypes=F),
    OpSpec("isposinf", np.isposinf, id="int", dtypes=(np.int32,)),
    OpSpec("isreal", np.isreal, dtypes=(np.float32, np.complex64, np.int32)),
    *(OpSpec(name, fn, shapes=((2, 3), (3,)), dtypes=(np.bool_,) + FI)
      for name, fn in [("logical_and", np.logical_and), ("logical_or", np.logical_or),
                       ("logical_xor", np.logical_xor)]),
    OpSpec("logical_not", np.logical_not, dtypes=(np.bool_,) + FI),
    *(OpSpec(name, fn, shapes=((2, 3), (3,)), dtypes=BI)
      for name, fn in [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                       ("bitwise_xor", np.bitwise_xor)]),
    OpSpec("invert", np.invert, dtypes=INTS),
    OpSpec("bitwise_left_shift", np.left_shift, shapes=shifts, dtypes=INTS),
    OpSpec("bitwise_right_shift", _rshift, shapes=shifts, dtypes=INTS),
    OpSpec("gcd", np.gcd, shapes=lambda r, d: [r.integers(-30, 30, (2, 4)).astype(d),
                                               r.integers(0, 30, (4,)).astype(d)],
           dtypes=(np.int32, np.int64, np.int16)),
    OpSpec("lcm", np.lcm, shapes=lambda r, d: [r.integers(-12, 12, (2, 4)).astype(d),
                                               r.integers(0, 12, (4,)).astype(d)],
           dtypes=(np.int32, np.int64)),
]
