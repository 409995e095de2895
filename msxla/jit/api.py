"""``mindspore.jit``: the decorator and wrapper, on functions, methods and Cells.

    jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0,
        fullgraph=False, backend="", **options)

- ``jit(f)`` / ``@jit`` / ``@jit(...)`` on a function or bound method returns
  a ``JitFunction``;
- on a Cell instance, it returns the jitted ``construct`` bound to it;
- on a Cell class, its ``construct`` is replaced by a jitted one (the class
  is changed in place, as in MindSpore);
- ``@jit`` on ``construct`` in a class body binds per instance.
"""
from __future__ import annotations

import inspect
import logging

from msxla.jit.config import make_options
from msxla.jit.function import JitFunction

LOG = logging.getLogger("msxla")


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False,
        backend="", **options):
    """Compile ``function`` (a function, method or Cell) into a graph. See the module doc."""
    opts = make_options(capture_mode, jit_level, dynamic, fullgraph, backend, **options)

    def wrap(fn):
        return _wrap_target(fn, opts)

    if function is None:
        return wrap
    return wrap(function)


def _wrap_target(fn, opts):
    from msxla.nn.cell import Cell
    if isinstance(fn, JitFunction):
        LOG.warning("jit: '%s' should be wrapped by jit only once; the new options apply.",
                    fn.name)
        return JitFunction(fn.fn, opts, fn.name)
    if isinstance(fn, Cell):
        construct = fn.construct
        if isinstance(construct, JitFunction):
            construct = construct.fn
        return JitFunction(construct, opts, f"{type(fn).__name__}.construct")
    if inspect.isclass(fn) and issubclass(fn, Cell):
        raw = fn.__dict__.get("construct", fn.construct)
        raw = raw.fn if isinstance(raw, JitFunction) else raw
        fn.construct = JitFunction(raw, opts, f"{fn.__name__}.construct")
        return fn
    if not callable(fn):
        raise TypeError(f"For 'jit', the 'function' must be a function, method or Cell, but got "
                        f"{type(fn).__name__}.")
    return JitFunction(fn, opts)


def ms_function(fn=None, input_signature=None, hash_args=None, jit_config=None):
    """``mindspore.ms_function`` (MindSpore 1.x): the old name of ``jit``."""
    from msxla.jit.config import note_once
    note_once("ms_function", "'ms_function' is deprecated; use 'mindspore.jit' instead.")
    if fn is None:
        return lambda f: jit(f)
    return jit(fn)
