"""Printing and formatting Tensors that only exist in the graph.

``print`` inside a graph prints every time the graph runs, with the values
of that run, formatted exactly as PyNative prints them (MindSpore's graph
``print`` does the same). Strings that format graph Tensors (f-strings,
``%``, ``str.format``, ``str(t)``) cannot be built at capture time, so they
become a ``LazyStr``: ``print`` formats it when the graph runs; ``+`` with
other strings stays lazy. Any other use (its length, comparing it, using it
as a key) needs the text at capture time and raises a ``ConcretizationError``
(under ``fullgraph=False`` the function then runs in Python).
"""
from __future__ import annotations

import jax

from msxla.capture.ast.values import traced_tensor
from msxla.capture.staged_print import _original_print
from msxla.common.state import is_capturing
from msxla.common.tensor import concretization_error, wrap


class _Slot:
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class LazyStr:
    """Text with pieces formatted when the graph runs (see the module doc)."""

    __slots__ = ("items",)
    graph_only = "Returning a string that formats a graph Tensor"  # see signature._out

    def __init__(self, items):
        self.items = tuple(items)   # str, or (render, payload) rendered at run time

    def __add__(self, other):
        if isinstance(other, (str, LazyStr)):
            return LazyStr(self.items + (other.items if isinstance(other, LazyStr) else (other,)))
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, str):
            return LazyStr((other,) + self.items)
        return NotImplemented

    def _needs(self, *args, **kwargs):
        raise concretization_error("Using a string that formats a graph Tensor (other than "
                                   "printing it)")

    __str__ = __len__ = __eq__ = __hash__ = __iter__ = __getitem__ = __format__ = _needs
    __lt__ = __contains__ = __bool__ = _needs

    def __repr__(self):
        return "<string formatted when the graph runs>"

    def render(self, values):
        out = []
        for item in self.items:
            if isinstance(item, str):
                out.append(item)
            else:
                render, payload = item
                out.append(render(_rebuild(payload, values)))
        return "".join(out)


def needs_runtime(value, depth=0) -> bool:
    if traced_tensor(value) or isinstance(value, LazyStr):
        return True
    if depth < 4 and isinstance(value, (tuple, list)):
        return any(needs_runtime(v, depth + 1) for v in value)
    if depth < 4 and isinstance(value, dict):
        return any(needs_runtime(v, depth + 1) for v in value.values())
    return False


def _stage(value, leaves):
    """``value`` with graph Tensors replaced by slots (their arrays go to ``leaves``)."""
    if traced_tensor(value):
        leaves.append(value._data)
        return _Slot(len(leaves) - 1)
    if isinstance(value, LazyStr):
        return LazyStr(item if isinstance(item, str) else (item[0], _stage(item[1], leaves))
                       for item in value.items)
    cls = type(value)
    if cls is tuple or cls is list:
        return cls(_stage(v, leaves) for v in value)
    if cls is dict:
        return {k: _stage(v, leaves) for k, v in value.items()}
    return value


def _rebuild(value, values):
    if isinstance(value, _Slot):
        return wrap(values[value.index])
    if isinstance(value, LazyStr):
        return value.render(values)
    cls = type(value)
    if cls is tuple or cls is list:
        return cls(_rebuild(v, values) for v in value)
    if cls is dict:
        return {k: _rebuild(v, values) for k, v in value.items()}
    return value


def _format_value(payload):
    value, conversion, spec = payload
    if conversion == 115:
        value = str(value)
    elif conversion == 114:
        value = repr(value)
    elif conversion == 97:
        value = ascii(value)
    return format(value, spec or "")


def fstring(parts):
    """An f-string's value: a str, or a LazyStr if it formats a graph Tensor."""
    if not any(isinstance(p, tuple) and (needs_runtime(p[0]) or needs_runtime(p[2]))
               for p in parts):
        return "".join(p if isinstance(p, str) else _format_value(p) for p in parts)
    return LazyStr(p if isinstance(p, str) else (_format_value, p) for p in parts)


def percent(fmt, args):
    if needs_runtime(args):
        return LazyStr([(lambda p: p[0] % p[1], (fmt, args))])
    return fmt % args


def lazy_call(fn, args, kwargs):
    """``fn(*args, **kwargs)`` now, or when the graph runs if it formats graph Tensors."""
    if needs_runtime(args) or needs_runtime(kwargs):
        return LazyStr([(lambda p: p[0](*p[1], **p[2]), (fn, args, kwargs))])
    return fn(*args, **kwargs)


def print_(*args, sep=" ", end="\n", file=None, flush=False):
    """``print`` staged into the graph: it prints every time the graph runs."""
    if not is_capturing():
        return _original_print(*args, sep=sep, end=end, file=file, flush=flush)
    leaves: list = []
    template = _stage(args, leaves)

    def emit(*values):
        shown = _rebuild(template, values)
        _original_print(*shown, sep=sep, end=end, file=file, flush=flush)

    jax.debug.callback(emit, *leaves, ordered=True)


def is_lazy(value) -> bool:
    return isinstance(value, LazyStr)

