"""Ops with effects: Parameter assignment, ordering, gradient stopping, printing.

These are not pure rows: ``assign`` writes through ``Tensor._data`` (for a
Parameter, into the active state frame, so under jit the write becomes a
graph output written back after the call), and ``print_`` prints now in
PyNative but is staged as an ordered runtime callback while a graph is
captured, so it prints on every call of the compiled graph, in program order.
"""
from __future__ import annotations

import jax
from jax.core import Tracer

from msxla.common.state import is_capturing
from msxla.common.tensor import Tensor, to_array, wrap
from msxla.errors import ShapeError, user_error
from msxla.ops._dispatch import cast_array
from msxla.ops.surface import composite, exports


def _value_for(name, variable, value):
    if not isinstance(variable, Tensor):
        raise TypeError(f"For '{name}', 'variable' must be a Parameter or Tensor, but got "
                        f"{type(variable).__name__}.")
    old = variable._data
    new = value._data if isinstance(value, Tensor) else to_array(value, variable.dtype)
    if new.ndim != old.ndim:
        raise user_error(ShapeError, f"For '{name}','value' must have the same rank as "
                         f"'variable'. But got 'value' rank: {new.ndim}, 'variable' rank: "
                         f"{old.ndim}.")
    if tuple(new.shape) != tuple(old.shape):
        raise user_error(ShapeError, f"For '{name}','value' must have the same shape as "
                         f"'variable'. But got 'value' shape: {tuple(new.shape)}, 'variable' "
                         f"shape: {tuple(old.shape)}.")
    return old, cast_array(new, variable.dtype)


@composite(prim="Assign", primitive=True)
def assign(variable, value):
    """Write ``value`` into ``variable`` (cast to its dtype); returns the new value."""
    _, new = _value_for("Assign", variable, value)
    variable._data = new
    return wrap(new)


@composite(prim="AssignAdd", primitive=True)
def assign_add(variable, value):
    """``variable += value`` in place; returns the new value."""
    old, inc = _value_for("AssignAdd", variable, value)
    new = old + inc
    variable._data = new
    return wrap(new)


@composite(prim="AssignSub", primitive=True)
def assign_sub(variable, value):
    """``variable -= value`` in place; returns the new value."""
    old, dec = _value_for("AssignSub", variable, value)
    new = old - dec
    variable._data = new
    return wrap(new)


@composite(prim="Depend", primitive=True)
def depend(value, expr):
    """Return ``value``; ``expr`` must run first (program order already ensures it)."""
    return value


@composite(prim="StopGradient", primitive=True)
def stop_gradient(value):
    """``value`` with no gradient flowing back through it."""
    if isinstance(value, Tensor):
        return wrap(jax.lax.stop_gradient(value._data))
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    return value


def _format(item):
    if isinstance(item, Tensor):
        return repr(item)
    return str(item)


def _print_now(items):
    for item in items:
        print(_format(item), flush=True)


@composite(prim="Print", primitive=True)
def print_(*input_x):
    """Print each argument on its own line (Tensors as ``Tensor(shape=..., value=...)``).

    Inside a graph being captured, printing is staged: it happens every time
    the compiled graph runs, in program order."""
    if not (is_capturing() or any(isinstance(x, Tensor) and isinstance(x._data, Tracer)
                                  for x in input_x)):
        _print_now(input_x)
        return None
    slots = [i for i, x in enumerate(input_x) if isinstance(x, Tensor)]
    arrays = [input_x[i]._data for i in slots]
    items = list(input_x)

    def emit(*values):
        for i, v in zip(slots, values):
            items[i] = wrap(v)
        _print_now(items)

    jax.debug.callback(emit, *arrays, ordered=True)
    return None


__all__ = exports(__name__)
