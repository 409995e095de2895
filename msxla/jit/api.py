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

import dataclasses
import inspect

from msxla._log import LOG
from msxla.common.cell_base import CellBase
from msxla.jit.config import make_options, options_from_config
from msxla.jit.function import JitFunction


# the 2.x signature's arguments: jit(fn, mode="PSJit", input_signature=None,
# hash_args=None, jit_config=None, compile_once=False)
_OLD_MODES = {"PSJit": "ast", "PIJit": "bytecode"}


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False,
        backend="", **options):
    """Compile ``function`` (a function, method or Cell) into a graph. See the module doc."""
    mode = options.pop("mode", None)
    if mode is not None:
        if mode not in _OLD_MODES:
            raise ValueError(f"For 'jit', the argument 'mode' must be 'PSJit' or 'PIJit', but "
                             f"got {mode!r}.")
        capture_mode = _OLD_MODES[mode]
    config = options.pop("jit_config", None)
    signature = options.pop("input_signature", None)
    # free variables are guarded on every call already, so hash_args and compile_once
    # (recompile when given objects change / never) need nothing more here
    options.pop("hash_args", None)
    options.pop("compile_once", None)
    opts = make_options(capture_mode, jit_level, dynamic, fullgraph, backend, **options)
    if config is not None:  # what the same JitConfig means on a Cell (set_jit_config)
        settings = options_from_config(dict(getattr(config, "jit_config_dict", config)),
                                       capture_mode)
        opts = dataclasses.replace(
            opts, jit_level=settings.jit_level, fullgraph=opts.fullgraph or settings.fullgraph,
            backend=settings.backend or opts.backend,
            options=tuple(sorted(dict(opts.options, **dict(settings.options)).items())))

    def wrap(fn):
        jitted = _wrap_target(fn, opts)
        if signature is not None and isinstance(jitted, JitFunction):
            declared = signature if isinstance(signature, (tuple, list)) else (signature,)
            jitted.declared_inputs = list(declared)  # as Cell.set_inputs declares them
        return jitted

    if function is None:
        return wrap
    return wrap(function)


def _wrap_target(fn, opts):
    if isinstance(fn, JitFunction):
        LOG.warning("jit: '%s' should be wrapped by jit only once; the new options apply.",
                    fn.name)
        return JitFunction(fn.fn, opts, fn.name)
    if isinstance(fn, CellBase):
        # What a call of the Cell runs (hooks, mixed precision, a custom bprop), so
        # the jitted Cell computes and differentiates like the Cell in PyNative. A
        # construct that is itself jitted is inlined into this capture.
        jitted = JitFunction(fn._graph_construct, opts, f"{type(fn).__name__}.construct")
        jitted.declared_inputs = fn._dynamic_inputs
        return jitted
    if inspect.isclass(fn) and issubclass(fn, CellBase):
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
    from msxla._log import note_once
    note_once("ms_function", "'ms_function' is deprecated; use 'mindspore.jit' instead.")
    if fn is None:
        return lambda f: jit(f)
    return jit(fn)


def enable_dynamic(**kwargs):
    """Declare dynamic inputs of a function by name (``mindspore.enable_dynamic``):
    ``@enable_dynamic(x=Tensor(shape=[None, 3], dtype=mindspore.float32))``.
    Dimensions given as None are symbolic, so the function is captured once."""
    from msxla.common.tensor import Tensor
    for name, value in kwargs.items():
        if not isinstance(value, Tensor) or not value.is_dynamic_spec():
            raise TypeError(f"For 'enable_dynamic', '{name}' must be a Tensor placeholder such "
                            f"as Tensor(shape=[None, 3], dtype=...), but got {value!r}.")

    def deco(fn):
        target = fn.fn if isinstance(fn, JitFunction) else fn
        names = [n for n in inspect.signature(target).parameters if n != "self"]
        unknown = set(kwargs) - set(names)
        if unknown:
            raise ValueError(f"For 'enable_dynamic', {sorted(unknown)} are not parameters of "
                             f"'{getattr(target, '__name__', target)}'.")
        declared = [kwargs.get(n) for n in names]
        if isinstance(fn, JitFunction):
            fn.declared_inputs = declared
        else:
            fn.__msxla_dynamic_inputs__ = declared
        return fn
    return deco


def set_recursion_limit(recursion_limit=1000):
    """Allow capture to recurse ``recursion_limit`` calls deep (``mindspore.set_recursion_limit``;
    capture recurses in Python, so this raises Python's own limit when it is lower)."""
    import sys
    if not isinstance(recursion_limit, int) or isinstance(recursion_limit, bool) \
            or recursion_limit <= 0:
        raise ValueError(f"For 'set_recursion_limit', 'recursion_limit' must be a positive int, "
                         f"but got {recursion_limit!r}.")
    if sys.getrecursionlimit() < recursion_limit:
        sys.setrecursionlimit(recursion_limit)
