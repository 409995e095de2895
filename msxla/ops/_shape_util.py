"""Argument checks shared by the shape, creation and linear-algebra families.

Axes, shapes and permutations are static (compile-time) arguments; these
helpers normalise them and raise the errors MindSpore raises for bad values.
They run while a row traces, so a ValueError raised here reaches the user as
a ``ShapeError`` naming the op (see ``_dispatch.translate_error``); an
``ArgTypeError`` (a wrong argument type) reaches the user as a TypeError
naming the op through ``op``, this family's wrapper of the row decorator.
"""
from __future__ import annotations

import functools
import numbers

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.errors import DTypeError, user_error
from msxla.ops import opdef


class ArgTypeError(TypeError):
    """An argument of the wrong type, reported as ``For '<op>', <message>``."""


def op(name=None, **kwargs):
    """``opdef.op`` whose implementation reports ``ArgTypeError`` with the op's name."""

    def deco(impl):
        label = kwargs.get("prim") or name or impl.__name__

        @functools.wraps(impl)
        def run(*args, **kw):
            try:
                return impl(*args, **kw)
            except ArgTypeError as err:
                raise user_error(DTypeError, f"For '{label}', {err}") from None

        return opdef.op(name, **kwargs)(run)

    return deco


def norm_axis(axis, ndim, what="axis"):
    """``axis`` in ``[-ndim, ndim)`` as a non-negative int (a 0-d input counts as rank 1)."""
    n = max(ndim, 1)
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise ArgTypeError(f"the '{what}' must be an int, but got {type(axis).__name__}.")
    axis = int(axis)
    if not -n <= axis < n:
        raise ValueError(f"the '{what}' must be in range [{-n}, {n}), but got {axis}.")
    return axis % n


def norm_axes(axes, ndim, what="axis"):
    """An int or a sequence of ints as a tuple of non-negative axes."""
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        axes = (axes,)
    if not isinstance(axes, (tuple, list)):
        raise ArgTypeError(f"the '{what}' must be an int or a tuple of ints, but got "
                           f"{type(axes).__name__}.")
    return tuple(norm_axis(a, ndim, what) for a in axes)


def as_shape(shape, what="shape"):
    """An int, a sequence of ints or an int Tensor as a tuple of ints."""
    if isinstance(shape, Tensor):
        arr = shape.asnumpy()
        return (int(arr),) if arr.ndim == 0 else tuple(int(s) for s in arr.tolist())
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        return (int(shape),)
    if isinstance(shape, (tuple, list)):
        out = []
        for s in shape:
            if isinstance(s, Tensor):
                s = int(s)
            if isinstance(s, bool) or not isinstance(s, numbers.Integral):
                raise ArgTypeError(f"each element of '{what}' must be an int, but got "
                                f"{type(s).__name__} in {tuple(shape)}.")
            out.append(int(s))
        return tuple(out)
    raise ArgTypeError(f"'{what}' must be an int, a tuple or a list of ints, but got "
                    f"{type(shape).__name__}.")


def as_dtype(dtype):
    """A MindSpore Type from a Type, numpy dtype or Python type."""
    return mstype.to_ms(dtype)


def deep_tuple(value):
    """Nested lists as nested tuples (static arguments must be hashable)."""
    if isinstance(value, (list, tuple)):
        return tuple(deep_tuple(v) for v in value)
    return value


def varargs_shape(args, kwargs=None, name="shape"):
    """The shape of a method taking ``*shape`` or one sequence (``x.reshape(2, 3)`` or
    ``x.reshape((2, 3))``)."""
    if kwargs and name in kwargs:
        if args:
            raise TypeError(f"got multiple values for argument '{name}'")
        return kwargs[name]
    if len(args) == 1 and isinstance(args[0], (tuple, list, Tensor)):
        return args[0]
    return tuple(args)
