"""The older functional names of MindSpore's ops that scripts still call.

MindSpore 2.10 keeps, beside its current functions, the 1.x-era names:
``reduce_sum/mean/max/min(x, axis=())`` (no ``keep_dims``: the reduced axes
go), ``unstack``, the ``tensor_*`` arithmetic names (``tensor_add`` is
``ops.add``'s Primitive, ``tensor_div`` true division (truncated for
integers), ``tensor_floordiv`` / ``tensor_mod`` floor division and its
remainder, ...), ``pows``,
``floordiv`` / ``floormod``, ``make_range`` and ``tuple_len`` (Python values
in a graph), ``scalar_cast`` / ``ScalarCast`` (a Python scalar to int64,
float64 or bool), ``mixed_precision_cast`` (the floating Tensors of a value
cast to a dtype) and ``FloatStatus`` (whether a Tensor holds inf or NaN:
``[1.]`` if so, else ``[0.]``, in the input's dtype). Each is a thin face over
the op rows; none adds a computation of its own beyond these rules.
"""
from __future__ import annotations

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports


def _ops():
    import msxla.ops as ops
    return ops


def _reduce(prim, x, axis):
    return getattr(_ops(), prim)(False)(x, axis)


@composite()
def reduce_sum(x, axis=()):
    """Sum over ``axis`` (all axes when ``()``), the axes removed; keeps ``x``'s dtype."""
    return _reduce("ReduceSum", x, axis)


@composite()
def reduce_mean(x, axis=()):
    """Mean over ``axis`` (all axes when ``()``), the axes removed."""
    return _reduce("ReduceMean", x, axis)


@composite()
def reduce_max(x, axis=()):
    """Maximum over ``axis`` (all axes when ``()``), the axes removed."""
    return _reduce("ReduceMax", x, axis)


@composite()
def reduce_min(x, axis=()):
    """Minimum over ``axis`` (all axes when ``()``), the axes removed."""
    return _reduce("ReduceMin", x, axis)


@composite()
def unstack(input_x, axis=0):
    """The slices of ``input_x`` along ``axis``, as a tuple (``Unstack``)."""
    return tuple(_ops().unbind(input_x, axis))


@composite()
def tensor_add(input, other):  # noqa: A002 - MindSpore's names
    """``input + other`` (``Add``)."""
    return _ops().add(input, other)


@composite()
def tensor_sub(input, other):  # noqa: A002
    """``input - other`` (``Sub``)."""
    return _ops().sub(input, other)


@composite()
def tensor_mul(input, other):  # noqa: A002
    """``input * other`` (``Mul``)."""
    return _ops().mul(input, other)


@composite(primitive="RealDiv")
def tensor_div(x, y):
    """``x / y`` (``RealDiv``): true division, truncated when both are integers (the
    integer dtype kept), as MindSpore's RealDiv kernel does."""
    def integral(v):
        return (mstype.is_int(v.dtype) if isinstance(v, Tensor)
                else isinstance(v, int) and not isinstance(v, bool))
    if integral(x) and integral(y):
        return _ops().div(x, y, rounding_mode="trunc")
    return _ops().div(x, y)


@composite(aliases=("floordiv",))
def tensor_floordiv(input, other):  # noqa: A002
    """Floor division (``FloorDiv``)."""
    return _ops().floor_divide(input, other)


@composite(aliases=("floormod",))
def tensor_mod(x, y):
    """The remainder of floor division, with the divisor's sign (``FloorMod``)."""
    return _ops().floor_mod(x, y)


@composite(aliases=("tensor_pow",))
def pows(input, exponent):  # noqa: A002
    """``input ** exponent`` (``Pow``)."""
    return _ops().pow(input, exponent)


@composite()
def tensor_exp(input):  # noqa: A002
    """``e ** input`` (``Exp``)."""
    return _ops().exp(input)


@composite()
def tensor_expm1(input):  # noqa: A002
    """``e ** input - 1`` (``Expm1``)."""
    return _ops().expm1(input)


@composite()
def tensor_ge(input, other):  # noqa: A002
    """``input >= other`` (``GreaterEqual``)."""
    return _ops().greater_equal(input, other)


@composite()
def tensor_le(input, other):  # noqa: A002
    """``input <= other`` (``LessEqual``)."""
    return _ops().less_equal(input, other)


@composite()
def make_range(*args):
    """``tuple(range(*args))``: ``make_range(stop)``, ``(start, stop)`` or
    ``(start, stop, step)`` with Python ints."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"For 'make_range', the number of arguments must be 1 to 3, but got "
                        f"{len(args)}.")
    for a in args:
        if not isinstance(a, int) or isinstance(a, bool):
            raise TypeError(f"For 'make_range', the arguments must be int, but got "
                            f"{type(a).__name__}.")
    if len(args) == 3 and args[2] == 0:
        raise ValueError("For 'make_range', the 'step' can not be 0.")
    return tuple(range(*args))


@composite()
def tuple_len(data):
    """The length of a tuple or list."""
    return len(data)


_SCALAR_TYPES = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}


def _scalar_cast(input_x, input_y):
    kind = _SCALAR_TYPES.get(input_y)
    if kind is None:
        raise ValueError("For 'ScalarCast', the supported type is in the list: [mindspore.int64, "
                         f"mindspore.float64, mindspore.bool], but got {input_y}.")
    if isinstance(input_x, Tensor):
        input_x = input_x.item()
    return kind(input_x)


@composite(primitive=PrimDef("ScalarCast", call=lambda prim, x, t: _scalar_cast(x, t)))
def scalar_cast(input_x, input_y):
    """The Python scalar ``input_x`` as ``input_y`` (``int64``: int, ``float64``:
    float, ``bool``: bool)."""
    return _scalar_cast(input_x, input_y)


@composite()
def mixed_precision_cast(dst_dtype, x):
    """``x`` with every floating-point Tensor (in tuples, lists and dict values too)
    cast to ``dst_dtype``; other values unchanged."""
    if isinstance(x, Tensor):
        return _ops().cast(x, dst_dtype) if mstype.is_float(x.dtype) else x
    if isinstance(x, (tuple, list)):
        return type(x)(mixed_precision_cast(dst_dtype, v) for v in x)
    if isinstance(x, dict):
        return {k: mixed_precision_cast(dst_dtype, v) for k, v in x.items()}
    return x


def _float_status(x):
    ops = _ops()
    bad = ops.logical_not(ops.isfinite(x)).any()
    return ops.reshape(ops.cast(bad, x.dtype), (1,))


@composite(public=False, primitive=PrimDef("FloatStatus", call=lambda prim, x: _float_status(x)))
def float_status(x):
    """``[1.]`` if ``x`` holds inf or NaN, else ``[0.]`` (``FloatStatus``)."""
    return _float_status(x)


__all__ = exports(__name__)
