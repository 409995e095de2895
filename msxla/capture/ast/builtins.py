"""Built-ins that accept Tensors which only exist in the graph.

Python's ``int(t)``, ``float(t)``, ``bool(t)``, ``max(a, b)``, ``min(a, b)``
ask a Tensor for its value. In a MindSpore graph they give *variable
scalars* instead: 0-d graph values (int64, float32, bool). These versions do
that when an argument is a graph Tensor and call the built-in otherwise, so
Python values keep Python semantics. ``max`` / ``min`` choose like Python
(the first of equal values wins) with graph conditions; operands must have
one element each, as in PyNative. ``str``, ``repr`` and ``format`` of graph
Tensors give strings formatted when the graph runs (``strings.py``).
"""
from __future__ import annotations

import builtins as _b

import jax.numpy as jnp

from msxla.capture import staged_print
from msxla.capture.ast import strings
from msxla.capture.ast.values import condition, is_traced, scalar_value, traced_tensor


def _scalar(t, what):
    data = t._data
    if data.size != 1:
        raise TypeError(f"Only a Tensor with one element can be converted by {what}; this "
                        f"one has shape {tuple(data.shape)}.")
    return data.reshape(())


def int_(x=0, *args, **kwargs):
    if traced_tensor(x) and not args and not kwargs:
        data = _scalar(x, "int()")
        if jnp.issubdtype(data.dtype, jnp.floating):
            data = jnp.trunc(data)
        return scalar_value(data.astype(jnp.int64), int)
    return _b.int(x, *args, **kwargs)


def float_(x=0.0):
    if traced_tensor(x):
        return scalar_value(_scalar(x, "float()").astype(jnp.float32), float)
    return _b.float(x)


def bool_(x=False):
    if traced_tensor(x):
        _scalar(x, "bool()")
        return scalar_value(condition(x), bool)
    return _b.bool(x)


def _extreme(name, builtin, pick_second):
    def choose(*args, **kwargs):
        items = args[0] if len(args) == 1 else args
        if kwargs or not _any_traced(items):
            return builtin(*args, **kwargs)
        if traced_tensor(items):
            items = list(items)
        items = list(items)
        if not items:
            raise ValueError(f"{name}() arg is an empty sequence")
        best = items[0]
        for item in items[1:]:
            best = _pick(item, best, pick_second)
        return best
    choose.__name__ = name
    return choose


def _pick(item, best, pick_second):
    """``item if pick_second(item, best) else best``, as a graph choice when needed."""
    from msxla.capture.ast.runtime_cond import if_exp
    for v in (item, best):
        if traced_tensor(v):
            _scalar(v, "a comparison")
    pred = pick_second(item, best)
    if not is_traced(condition(pred)):
        return item if condition(pred) else best
    return if_exp(pred, lambda: item, lambda: best, _INFO)


def _any_traced(items):
    if traced_tensor(items):
        return True
    try:
        return _b.any(traced_tensor(v) for v in items)
    except TypeError:
        return False


_INFO = ("<built-in>", (0, None, None, "max"), (0, None, None, ""), (0, None, None, ""))

max_ = _extreme("max", _b.max, lambda a, b: a > b)
min_ = _extreme("min", _b.min, lambda a, b: a < b)


def _lazy(fn):
    def lazy(*args, **kwargs):
        return strings.lazy_call(fn, args, kwargs)
    lazy.__name__ = fn.__name__
    return lazy


SPECIAL = {
    _b.int: int_, _b.float: float_, _b.bool: bool_, _b.max: max_, _b.min: min_,
    _b.str: _lazy(_b.str), _b.repr: _lazy(_b.repr), _b.format: _lazy(_b.format),
    staged_print._original_print: strings.print_,
    staged_print._print_dispatch: strings.print_,
}
