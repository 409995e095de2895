"""Loop Primitives: ``ops.WhileLoop``, ``ops.ForiLoop`` and ``ops.Scan``.

``WhileLoop()(cond_func, loop_func, init_val)`` runs ``loop_func`` while
``cond_func`` holds; ``ForiLoop()(lower, upper, loop_func, init_val)`` calls
``loop_func(i, val)`` for ``i`` in ``range(lower, upper)``; ``Scan()(loop_func,
init, xs, length)`` threads a carry through ``loop_func(carry, x)`` over the
elements of ``xs`` (a list or tuple, or ``None`` with ``length``) and returns the
carry and the list of per-step outputs. As in MindSpore they run as Python loops
when the loop's extent is known in Python (eagerly, and unrolled into a graph
under jit); a ``WhileLoop`` whose condition is a Tensor being captured, or a
``ForiLoop`` with Tensor bounds, becomes one ``lax.while_loop`` / ``lax.fori_loop``
in the graph, with the loop values as its carry.
"""
from __future__ import annotations

import jax

from msxla.common.tensor import Tensor, wrap
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports


def _is_leaf(v):
    return isinstance(v, Tensor)


def _arrays(tree):
    return jax.tree_util.tree_map(lambda t: t._data if isinstance(t, Tensor) else t, tree,
                                  is_leaf=_is_leaf)


def _tensors(tree):
    return jax.tree_util.tree_map(wrap, tree)


def _concrete(value):
    """A Python bool for a condition known now, None for one being captured."""
    if isinstance(value, Tensor):
        if isinstance(value._data, jax.core.Tracer):
            return None
        return bool(value)
    return bool(value)


def _while(prim, cond_func, loop_func, init_val):
    val = init_val
    while True:
        go = cond_func(val)
        known = _concrete(go)
        if known is None:
            break
        if not known:
            return val
        val = loop_func(val)
    # The condition depends on a captured value: the rest of the loop is one lax.while_loop.
    start = _arrays(val)
    out = jax.lax.while_loop(lambda a: _arrays(cond_func(_tensors(a))).astype(bool).reshape(()),
                             lambda a: _arrays(loop_func(_tensors(a))), start)
    return _tensors(out)


def _fori(prim, lower, upper, loop_func, init_val, unroll=True):
    if isinstance(lower, Tensor) or isinstance(upper, Tensor):
        lo = lower._data if isinstance(lower, Tensor) else lower
        hi = upper._data if isinstance(upper, Tensor) else upper
        out = jax.lax.fori_loop(lo, hi, lambda i, a: _arrays(loop_func(wrap(i), _tensors(a))),
                                _arrays(init_val))
        return _tensors(out)
    val = init_val
    for i in range(int(lower), int(upper)):
        val = loop_func(i, val)
    return val


def _scan(prim, loop_func, init, xs, length=None, unroll=True):
    if xs is None:
        if length is None:
            raise ValueError("For 'Scan', 'length' must be given when 'xs' is None.")
        items = [None] * int(length)
    elif isinstance(xs, (list, tuple)):
        items = list(xs)
    elif isinstance(xs, Tensor):  # MindSpore takes lists; a Tensor is scanned along axis 0
        items = list(xs)
    else:
        raise TypeError(f"For 'Scan', 'xs' must be a list, tuple or None, but got "
                        f"{type(xs).__name__}.")
    if length is not None and xs is not None and int(length) != len(items):
        raise ValueError(f"For 'Scan', 'length' ({length}) must equal the number of elements "
                         f"of 'xs' ({len(items)}).")
    carry, ys = init, []
    for x in items:
        carry, y = loop_func(carry, x)
        ys.append(y)
    return carry, ys


@composite(public=False, primitive=PrimDef("WhileLoop", call=_while))
def _while_loop(cond_func, loop_func, init_val):
    """``while cond_func(val): val = loop_func(val)``."""
    return _while(None, cond_func, loop_func, init_val)


@composite(public=False, primitive=PrimDef("ForiLoop", call=_fori))
def _fori_loop(lower, upper, loop_func, init_val, unroll=True):
    """``for i in range(lower, upper): val = loop_func(i, val)``."""
    return _fori(None, lower, upper, loop_func, init_val, unroll)


@composite(public=False, primitive=PrimDef("Scan", call=_scan))
def _scan_loop(loop_func, init, xs, length=None, unroll=True):
    """``carry, y = loop_func(carry, x)`` over ``xs``; ``(carry, [y, ...])``."""
    return _scan(None, loop_func, init, xs, length, unroll)


__all__ = exports(__name__)
