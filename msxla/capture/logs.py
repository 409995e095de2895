"""Lists a jitted function only appends to (logs): appended on every call.

``log.append(loss)`` in a jitted function appends on every call in PyNative.
A capture runs the function once, so the append would happen once per
capture (and a Tensor appended would hold a value of the graph being built).
Instead, what a capture appends to a log (a list the function never reads,
``discover._write_only_names``, guarded by a ``LogGuard``) is taken back out
of the list and recorded: Python values as they are, Tensors as extra graph
outputs, variable scalars (``float(t)``) as graph outputs turned back into
Python numbers. Every call then appends them again, in order, after the
graph has run (``Entry``), the first call included.

A list passed as an argument is handled the same way: what the function
appends to it is appended to the caller's list on every call (the capture
sees a copy rebuilt from the call's signature).

A log changed in any other way during the capture (an item removed or
replaced, an object no graph can return appended) is left as it was: its
change happens once per capture.
"""
from __future__ import annotations

from msxla.capture.guards import LogGuard, is_data
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor


class Logs:
    """``with Logs(guards, args, kwargs) as logs:`` around a capture; ``finish()``
    inside it. ``args``/``kwargs`` are the arguments the captured function gets:
    a list among them is the caller's list rebuilt for the capture, so what the
    function appends to it is appended to the caller's list on every call."""

    def __init__(self, guards, args=(), kwargs=None):
        self.lists = [] if guards is None else [
            (g.expected, g.expected) for g in guards.guards if isinstance(g, LogGuard)]
        self.lists += [(("arg", path), lst) for path, lst in _lists_in(args, kwargs or {})]

    def __enter__(self):
        self.before = [(target, lst, list(lst)) for target, lst in self.lists]
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:  # a capture that failed (or restarts) appends nothing
            for _, lst, saved in self.before:
                if len(lst) > len(saved) and all(a is b for a, b in zip(lst, saved)):
                    del lst[len(saved):]
        return False

    def finish(self):
        """``(appends, arrays)``: per log its items as ``("const", v)`` / ``("out", k,
        pytype)``, and the arrays the graph must output; the items leave the logs."""
        appends, arrays = [], []
        for target, lst, saved in self.before:
            n = len(saved)
            if len(lst) <= n or any(a is not b for a, b in zip(lst, saved)):
                continue
            items = []
            for item in lst[n:]:
                if isinstance(item, Tensor) and not isinstance(item, Parameter):
                    items.append(("out", len(arrays), item.__dict__.get("_out_pytype")))
                    arrays.append(item._data)
                elif is_data(item):
                    items.append(("const", item))
                else:
                    break
            else:
                del lst[n:]
                appends.append((target, tuple(items)))
                continue
            del arrays[len(arrays) - sum(1 for i in items if i[0] == "out"):]
        return tuple(appends), arrays


def _lists_in(args, kwargs):
    """``(path, list)`` of the lists among the arguments (inside tuples, lists, dicts)."""
    out: list = []
    todo = [(("a", i), v) for i, v in enumerate(args)] + [
        (("k", k), v) for k, v in kwargs.items()]
    while todo:
        path, v = todo.pop(0)
        if type(v) is list:
            out.append((path, v))
        if type(v) in (list, tuple):
            todo += [(path + (i,), x) for i, x in enumerate(v)]
        elif type(v) is dict:
            todo += [(path + (k,), x) for k, x in v.items()]
    return out


def _find(path, call):
    args, kwargs = call
    value = args[path[1]] if path[0] == "a" else kwargs[path[1]]
    for key in path[2:]:
        value = value[key]
    return value


def replay(appends, arrays, wrap, call=None):
    """Append a call's items to the logs (``arrays``: the graph's extra outputs;
    ``call``: the call's ``(args, kwargs)``, which hold the argument lists)."""
    for target, items in appends:
        if type(target) is tuple:  # ("arg", path): a list the caller passed
            if call is None:
                continue
            lst = _find(target[1], call)
        else:
            lst = target
        for item in items:
            if item[0] == "const":
                lst.append(item[1])
            elif item[2] is not None:
                lst.append(item[2](arrays[item[1]].item()))
            else:
                lst.append(wrap(arrays[item[1]]))
