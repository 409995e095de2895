"""``mindspore.numpy`` elementwise math and reductions (add, exp, sum, mean, max, clip, ...).

The elementwise functions are generated from a table mapping each numpy name
to its op row; each takes numpy's ``dtype=None`` keyword to cast the result.
Op rows are looked up when a function is called, so this module imports even
when a family it uses is not there.
"""
from __future__ import annotations

from msxla import ops
from msxla.numpy._util import operand, to_tensor, with_dtype

_UNARY = {
    "abs": "abs", "absolute": "abs", "fabs": "abs", "negative": "neg", "positive": "positive",
    "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2",
    "log10": "log10", "log1p": "log1p", "sqrt": "sqrt", "square": "square",
    "reciprocal": "reciprocal", "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin",
    "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "deg2rad": "deg2rad",
    "rad2deg": "rad2deg", "radians": "deg2rad", "degrees": "rad2deg", "sign": "sign",
    "floor": "floor", "ceil": "ceil", "trunc": "trunc", "fix": "trunc", "rint": "round",
    "invert": "invert", "bitwise_not": "invert",
}
_BINARY = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div",
    "floor_divide": "floor_divide", "remainder": "remainder", "mod": "remainder",
    "fmod": "fmod", "power": "pow", "float_power": "float_power", "maximum": "maximum",
    "minimum": "minimum", "arctan2": "atan2", "hypot": "hypot", "logaddexp": "logaddexp",
    "logaddexp2": "logaddexp2", "copysign": "copysign", "heaviside": "heaviside", "gcd": "gcd",
    "lcm": "lcm", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor",
}

__all__ = sorted(_UNARY) + sorted(_BINARY) + [
    "cbrt", "clip", "around", "round", "sum", "mean", "amax", "amin", "max", "min", "argmax",
    "argmin", "std", "var", "cumsum", "cumprod", "ptp", "average", "count_nonzero", "nansum",
    "diff"]


def _make_unary(name, opname):
    def fn(x, dtype=None):
        return with_dtype(getattr(ops, opname)(to_tensor(x)), dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}`` (``ops.{opname}``), cast to ``dtype`` if given."
    return fn


def _make_binary(name, opname):
    def fn(x1, x2, dtype=None):
        return with_dtype(getattr(ops, opname)(operand(x1), operand(x2)), dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}`` (``ops.{opname}``) with broadcasting, cast to " \
                 "``dtype`` if given."
    return fn


def _generate(table, make):
    """One function per op row: numpy names of one row are one object, as in MindSpore."""
    made = {}
    for name, opname in table.items():
        if opname not in made:
            made[opname] = make(name, opname)
        globals()[name] = made[opname]


_generate(_UNARY, _make_unary)
_generate(_BINARY, _make_binary)


def cbrt(x, dtype=None):
    """Elementwise cube root (negative inputs give negative roots)."""
    x = to_tensor(x)
    out = ops.mul(ops.sign(x), ops.pow(ops.abs(x), 1.0 / 3.0))
    return with_dtype(out, dtype)


def clip(x, xmin, xmax, dtype=None):
    """``x`` limited to ``[xmin, xmax]`` (either may be None)."""
    return with_dtype(ops.clip(to_tensor(x), xmin, xmax), dtype)


def around(a, decimals=0):
    """``a`` rounded half to even to ``decimals`` decimals."""
    return ops.round(to_tensor(a), decimals=decimals)


round = around  # noqa: A001 - numpy's name


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    """The sum over ``axis`` (plus ``initial``)."""
    out = ops.sum(to_tensor(a), axis, keepdims, dtype=dtype)
    return out if initial is None else ops.add(out, initial)


def mean(a, axis=None, keepdims=False, dtype=None):
    """The arithmetic mean over ``axis`` in the input's dtype, cast to ``dtype`` if given."""
    return with_dtype(ops.mean(to_tensor(a), axis, keepdims), dtype)


def _where(where):
    return None if where is True else to_tensor(where)


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """The maximum over ``axis``."""
    return ops.amax(to_tensor(a), axis, keepdims, initial=initial, where=_where(where))


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """The minimum over ``axis``."""
    return ops.amin(to_tensor(a), axis, keepdims, initial=initial, where=_where(where))


max = amax  # noqa: A001 - numpy's name
min = amin  # noqa: A001 - numpy's name


def argmax(a, axis=None):
    """The index of the maximum (of the flattened ``a`` when ``axis`` is None)."""
    return ops.argmax(to_tensor(a), axis)


def argmin(a, axis=None):
    """The index of the minimum (of the flattened ``a`` when ``axis`` is None)."""
    return ops.argmin(to_tensor(a), axis)


def std(x, axis=None, ddof=0, keepdims=False):
    """The standard deviation over ``axis``."""
    return ops.std(to_tensor(x), axis, ddof, keepdims)


def var(x, axis=None, ddof=0, keepdims=False):
    """The variance over ``axis``."""
    return ops.var(to_tensor(x), axis, ddof, keepdims)


def cumsum(a, axis=None, dtype=None):
    """Cumulative sum along ``axis`` (of the flattened ``a`` when ``axis`` is None)."""
    a = to_tensor(a)
    if axis is None:
        a, axis = ops.ravel(a), 0
    return ops.cumsum(a, axis, dtype)


def cumprod(a, axis=None, dtype=None):
    """Cumulative product along ``axis`` (of the flattened ``a`` when ``axis`` is None)."""
    a = to_tensor(a)
    if axis is None:
        a, axis = ops.ravel(a), 0
    return ops.cumprod(a, axis, dtype)


def ptp(x, axis=None, keepdims=False):
    """Range (maximum - minimum) over ``axis``."""
    x = to_tensor(x)
    return ops.sub(ops.amax(x, axis, keepdims), ops.amin(x, axis, keepdims))


def average(x, axis=None, weights=None, returned=False):
    """The (weighted) average over ``axis``; ``returned`` adds the sum of weights."""
    x = to_tensor(x)
    if weights is None:
        avg = ops.mean(x, axis)
        count = x.size if axis is None else x.shape[axis]
        return (avg, ops.full_like(avg, count, dtype=avg.dtype)) if returned else avg
    w = to_tensor(weights)
    if w.shape != x.shape:
        if axis is None or w.ndim != 1:
            raise ValueError("For 'average', 'weights' must have the shape of 'x', or be 1-D "
                             "along 'axis'.")
        shape = [1] * x.ndim
        shape[axis] = w.shape[0]
        w = ops.reshape(w, tuple(shape))
    wsum = ops.sum(ops.broadcast_to(w, x.shape), axis)
    avg = ops.div(ops.sum(ops.mul(x, w), axis), wsum)
    return (avg, wsum) if returned else avg


def count_nonzero(x, axis=None, keepdims=False):
    """The number of non-zero elements over ``axis``."""
    return ops.count_nonzero(to_tensor(x), () if axis is None else axis, keepdims)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """The sum over ``axis`` treating NaN as 0."""
    return ops.nansum(to_tensor(a), axis, keepdims, dtype=dtype)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th discrete difference along ``axis``."""
    a = to_tensor(a)
    parts = [to_tensor(p) for p in (prepend,) if p is not None] + [a] + \
        [to_tensor(p) for p in (append,) if p is not None]
    if len(parts) > 1:
        parts = [ops.broadcast_to(p, a.shape[:axis % a.ndim] + (-1,) + a.shape[axis % a.ndim + 1:])
                 if p.ndim == a.ndim else _along(p, a, axis) for p in parts]
        a = ops.concat(parts, axis)
    for _ in range(n):
        length = a.shape[axis]
        a = ops.sub(ops.narrow(a, axis, 1, length - 1), ops.narrow(a, axis, 0, length - 1))
    return a


def _along(p, a, axis):
    ax = axis % a.ndim
    shape = a.shape[:ax] + (1,) + a.shape[ax + 1:]
    return ops.broadcast_to(ops.reshape(p, (1,) * a.ndim) if p.ndim == 0 else p, shape)
