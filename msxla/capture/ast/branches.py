"""Running one path of a graph ``if`` or one loop body as a pure function.

Inside a ``lax.cond`` branch or a ``lax.while_loop`` body every value is a
tracer of that branch's own trace; none may leak out. A path therefore runs

- with the construct's variables reset to their values before it (the
  generated ``set_state``), and read back afterwards (``get_state``);
- inside a ``BranchFrame``: a state frame whose Parameter writes stay in the
  frame (reads of other Parameters fall through to the capture frame), so
  ``ops.assign(self.w, ...)`` inside a branch becomes an output of the
  ``cond`` / a carried value of the loop instead of a leaked tracer;
- watching the Tensors reachable from the construct's variables (``Watch``):
  an in-place change (``x[0] = 1``, ``ops.assign(x, ...)`` on a plain
  Tensor) is recorded, undone, and becomes an output too.

Lists and dicts changed, or attributes of Cells and objects rebound
(``self.count += 1``), inside a Tensor-dependent path cannot be expressed:
whether the change happens is only known when the graph runs. That raises
(see ``runtime_cond``); under fullgraph=False the function runs in Python.
"""
from __future__ import annotations

import dataclasses
import types

from msxla.capture.ast import aliases
from msxla.capture.frame import outside_tensors_now
from msxla.common.parameter import Parameter
from msxla.common.state import StateFrame
from msxla.common.tensor import Tensor


class BranchFrame(StateFrame):
    """Parameter values inside one graph path (see the module doc)."""

    __slots__ = ()


class Watch:
    """The Tensors and containers a path might change in place."""

    def __init__(self, values):
        self.tensors: list = []
        self.before: list = []
        self.containers: list = []
        seen: set = set()
        for v in tuple(values) + tuple(outside_tensors_now()):  # outside: tensor_state.py
            self._collect(v, seen, 0)

    def _collect(self, v, seen, depth):
        if id(v) in seen or depth > 3:
            return
        if isinstance(v, Tensor):
            if not isinstance(v, Parameter) and v._data is not None:
                seen.add(id(v))
                if isinstance(v, aliases.Aliased):  # a write to it goes to the Tensors it may be
                    for target in v.links:
                        self._collect(target, seen, depth)
                self.tensors.append(v)
                self.before.append(v._data)
            return
        if isinstance(v, (list, dict)):
            seen.add(id(v))
            self.containers.append((v, _snapshot(v), _saved(v)))
            items = v.values() if isinstance(v, dict) else v
        elif type(v) is tuple:
            items = v
        else:
            if _has_attributes(v):  # a Cell or user object: attributes rebound in a path
                seen.add(id(v))
                self.containers.append((v, _snapshot(v), _saved(v)))
            return
        for item in list(items)[:1024]:
            self._collect(item, seen, depth + 1)

    def install(self, datas):
        for t, d in zip(self.tensors, datas):
            aliases.set_data(t, d)

    def restore(self):
        self.install(self.before)

    def changed(self, baseline) -> dict:
        """``index -> new data`` of the Tensors whose value differs from ``baseline``."""
        return {i: t._data for i, (t, b) in enumerate(zip(self.tensors, baseline))
                if t._data is not b}

    def changed_container(self):
        """A container changed since the watch began (restored: the path's Python
        side effects are undone, so running the function in Python is exact)."""
        changed = None
        for obj, snap, saved in self.containers:
            if _snapshot(obj) != snap:
                changed = obj if changed is None else changed
                _restore(obj, saved)
        return changed


def _snapshot(obj):
    if isinstance(obj, dict):
        return tuple((k, id(v)) for k, v in obj.items())
    if isinstance(obj, list):
        return tuple(id(v) for v in obj)
    return tuple((k, id(v)) for k, v in vars(obj).items())


def _saved(obj):
    if isinstance(obj, dict):
        return dict(obj)
    if isinstance(obj, list):
        return list(obj)
    return dict(vars(obj))


def _restore(obj, saved):
    if isinstance(obj, dict):
        obj.clear()
        obj.update(saved)
    elif isinstance(obj, list):
        obj[:] = saved
    else:
        attrs = vars(obj)
        attrs.clear()
        attrs.update(saved)


def _has_attributes(v):
    return hasattr(v, "__dict__") and not isinstance(v, (type, types.ModuleType,
                                                         types.FunctionType,
                                                         types.MethodType))


@dataclasses.dataclass
class PathResult:
    values: tuple          # the construct's variables after the path
    written: list          # Parameters written, first write first
    param_values: dict     # their new values
    mutated: dict          # watch index -> new data
    container: object      # a list/dict changed in place, or None


def run_path(path, init, get_state, set_state, watch, params=None, baseline=None,
             args=()) -> PathResult:
    """Run ``path(*args)`` as described in the module doc; leave everything as before."""
    baseline = watch.before if baseline is None else baseline
    set_state(init)
    watch.install(baseline)
    frame = BranchFrame(params)
    try:
        with frame:
            path(*args)
            values = aliases.freeze(get_state(), watch.tensors)
        written = list(frame.written)
        result = PathResult(values, written, {p: frame.values[p] for p in written},
                            watch.changed(baseline), watch.changed_container())
    finally:
        watch.restore()
        set_state(init)
    return result
