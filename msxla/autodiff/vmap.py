"""``mindspore.vmap`` / ``ops.vmap`` on ``jax.vmap``.

``vmap(fn, in_axes=0, out_axes=0)`` maps ``fn`` over an axis of its Tensor
arguments. ``in_axes`` is an int or None for every argument, or a tuple/list
with one entry per argument, each an int, None or (for a tuple/list argument)
a nested tuple; ``out_axes`` is the same for the outputs. Python values in the
arguments are passed to every call unchanged. MindSpore's checks come first,
with its messages (a single None, a wrong number of axes, an axis out of
range, unequal mapped sizes), then the function is traced once by
``jax.vmap``, so it runs the same eagerly and inside a captured graph.
"""
from __future__ import annotations

import numbers

import jax

from msxla.common.tensor import Tensor, wrap


def _is_axis(a):
    return a is None or (isinstance(a, numbers.Integral) and not isinstance(a, bool))


def _check_axes_type(axes, what):
    if _is_axis(axes):
        return
    if isinstance(axes, (tuple, list)):
        for a in axes:
            _check_axes_type(a, what)
        return
    raise RuntimeError(f"The axis in vmap's '{what}' should be a None or a scalar of type "
                       f"Int64Imm, but got a {axes}.")


def _leaf_axes(value, axes):
    """(Tensor leaf, axis) pairs of one argument under its ``in_axes`` entry."""
    if isinstance(value, Tensor):
        if not _is_axis(axes):
            raise RuntimeError(f"The axis in vmap's 'in_axes' should be a None or a scalar of "
                               f"type Int64Imm, but got a {axes}.")
        return [(value, axes)]
    if isinstance(value, (tuple, list)):
        if isinstance(axes, (tuple, list)):
            if len(axes) != len(value):
                raise RuntimeError(f"The size of vmap's 'in_axes' entry {tuple(axes)} must equal "
                                   f"the size of its argument ({len(value)}).")
            return [p for v, a in zip(value, axes) for p in _leaf_axes(v, a)]
        return [p for v in value for p in _leaf_axes(v, axes)]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _leaf_axes(v, axes)]
    return []


def _rebuild(value, arrays):
    if isinstance(value, Tensor):
        return wrap(next(arrays))
    if isinstance(value, (tuple, list)):
        return type(value)(_rebuild(v, arrays) for v in value)
    if isinstance(value, dict):
        return {k: _rebuild(v, arrays) for k, v in value.items()}
    return value


def _normalise(axis, ndim):
    if axis is None:
        return None
    if not -ndim <= axis < ndim:
        raise RuntimeError(f"The axis: {axis} in 'in_axes' is out of bounds for array of "
                           f"dimension [{-ndim},{ndim}).")
    return axis % ndim


def _out_tree(out):
    return jax.tree_util.tree_map(lambda t: t._data if isinstance(t, Tensor) else t, out,
                                  is_leaf=lambda t: isinstance(t, Tensor))


def _place_all(axes, out):
    """Every array of ``out`` (batched on axis 0) placed by its ``out_axes`` entry, as
    Tensors; an int or None entry applies to a whole sub-tree."""
    if isinstance(out, (tuple, list)):
        if isinstance(axes, (tuple, list)):
            if len(axes) != len(out):
                raise RuntimeError(f"The size of vmap's 'out_axes' ({len(axes)}) must equal "
                                   f"the number of outputs ({len(out)}).")
            return type(out)(_place_all(a, o) for a, o in zip(axes, out))
        return type(out)(_place_all(axes, o) for o in out)
    if isinstance(out, dict):
        return {k: _place_all(axes, v) for k, v in out.items()}
    if isinstance(axes, (tuple, list)):
        raise RuntimeError(f"The 'out_axes' entry {tuple(axes)} of vmap does not match an "
                           "output that is a single Tensor.")
    return wrap(_place(axes, out))


def _place(axis, array):
    """A result batched on axis 0 moved to ``axis`` (None: not batched, one copy)."""
    if axis is None:
        return array[0]
    ndim = array.ndim
    if not -ndim <= axis < ndim:
        raise RuntimeError(f"The axis: {axis} in 'out_axes' is out of bounds for array of "
                           f"dimension [{-ndim},{ndim}).")
    return jax.numpy.moveaxis(array, 0, axis % ndim)


def vmap(fn, in_axes=0, out_axes=0):
    """``fn`` mapped over axis ``in_axes`` of its inputs, results stacked on ``out_axes``."""
    if not callable(fn):
        raise TypeError(f"For 'vmap', 'fn' must be a function or a Cell, but got "
                        f"{type(fn).__name__}.")
    _check_axes_type(in_axes, "in_axes")
    _check_axes_type(out_axes, "out_axes")

    def mapped(*args):
        if in_axes is None:
            raise RuntimeError("The 'in_axes' of 'vmap' cannot be a single None while 'fn' is "
                               "not a 'CellList'.")
        if isinstance(in_axes, (tuple, list)):
            if len(in_axes) != len(args):
                raise RuntimeError(f"When vmap`s 'in_axes' is a tuple or list, and its size must "
                                   f"be equal to the number of arguments of 'fn': {len(args)}, "
                                   f"but got size: {len(in_axes)}.")
            pairs = [p for a, ax in zip(args, in_axes) for p in _leaf_axes(a, ax)]
        else:
            pairs = [p for a in args for p in _leaf_axes(a, in_axes)]
        arrays = [t._data for t, _ in pairs]
        axes = [_normalise(ax, max(t.ndim, 1)) for t, ax in pairs]
        sizes = [a.shape[ax] for a, ax in zip(arrays, axes) if ax is not None]
        if not sizes:
            raise RuntimeError("For 'vmap', at least one argument must be mapped: every axis "
                               "in 'in_axes' is None.")
        for s in sizes[1:]:
            if s != sizes[0]:
                raise RuntimeError(f"The 'axis_size' of each argument in the scope of 'vmap' "
                                   f"should be equal, but got {sizes[0]} and {s}.")
        def inner(flat):
            it = iter(flat)
            return _out_tree(fn(*[_rebuild(a, it) for a in args]))

        result = jax.vmap(inner, in_axes=(axes,), out_axes=0)(arrays)
        return _place_all(out_axes, result)

    mapped.__wrapped__ = fn
    return mapped
