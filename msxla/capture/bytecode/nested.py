"""Functions called at a graph break run as their own bytecode-jitted frames.

When a call cannot be inlined into the caller's graph (the callee itself has
a graph break), the caller's graph ends at the call and the call runs in
Python. The callee then runs through its own jitted function with the
caller's options (``fullgraph=False``): its code before and after its own
break is captured and cached like any jitted function (Dynamo does the same
with the frames it resumes into). One such jitted function is kept per
function (per function and instance for methods). The jit layer makes them:
``jit_callee(fn, options, name)`` comes with the program's Python step.
"""
from __future__ import annotations

import dataclasses
import threading
import weakref

_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_override = threading.local()


def _nested_options(options):
    return dataclasses.replace(options, fullgraph=False, dynamic=0)


def _jitted(jit_callee, fn, options):
    table = getattr(_override, "table", None)
    if table is None:
        table = _cache
    opts = _nested_options(options)
    with _lock:
        per_fn = table.get(fn)
        if per_fn is None:
            per_fn = table[fn] = {}
        jf = per_fn.get(opts)
        if jf is None:
            jf = per_fn[opts] = jit_callee(fn, opts, getattr(fn, "__qualname__", None))
    return jf


def call_function(jit_callee, fn, args, kwargs, options):
    return _jitted(jit_callee, fn, options)(*args, **kwargs)


def call_method(jit_callee, func, owner, args, kwargs, options):
    jf = _jitted(jit_callee, func, options)
    try:
        bound = jf.__get__(owner, type(owner))
    except TypeError:
        return func(owner, *args, **kwargs)
    return bound(*args, **kwargs)


class fresh_cache:
    """Within the block nested functions get new jitted functions (used by ``explain``,
    so that a report sees every capture of the call it explains)."""

    def __enter__(self):
        self._saved = getattr(_override, "table", None)
        _override.table = weakref.WeakKeyDictionary()
        return self

    def __exit__(self, *exc):
        _override.table = self._saved
