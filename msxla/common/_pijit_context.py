"""``mindspore.common._pijit_context``: the bytecode jit's wrapper, as MindSpore's tests use it.

- ``Unsupported``: what a graph break raises under ``fullgraph=True``
  (msxla's ``UnsupportedError``, a RuntimeError as in MindSpore).
- ``PIJitCaptureContext(fullgraph=False, jit_config=None)(fn)``: ``fn``
  jitted with ``capture_mode="bytecode"``; functions, methods, Cell
  instances and Cell classes as ``jit`` takes them. ``jit_config`` is a
  ``JitConfig`` or a dict of MindSpore's bytecode-jit options; of those, msxla
  acts on ``_disable_pijit``: a callable ``(args, kwargs) -> bool`` that sends
  the calls it accepts to the plain function. The other options switch parts
  of MindSpore's own implementation and have no counterpart here. Generator
  functions and coroutines come back unchanged, as in MindSpore.
"""
from __future__ import annotations

import functools
import inspect

from msxla.errors import UnsupportedError as Unsupported

__all__ = ["Unsupported", "PIJitCaptureContext"]


class PIJitCaptureContext:
    """Wraps a function for the bytecode jit (see the module doc)."""

    def __init__(self, fullgraph=False, jit_config=None):
        config = {"fullgraph": fullgraph}
        if jit_config is not None:
            config.update(getattr(jit_config, "jit_config_dict", jit_config))
        disable = config.get("_disable_pijit")
        if disable is not None and not callable(disable):
            raise TypeError(f"The config '_disable_pijit' must be callable but got {disable}")
        self.config = config
        self.fullgraph = bool(fullgraph)

    def __call__(self, fn):
        from msxla.jit.api import jit
        if (inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn)
                or inspect.isasyncgenfunction(fn)):
            return fn
        jitted = jit(fn, capture_mode="bytecode", fullgraph=self.fullgraph)
        disable = self.config.get("_disable_pijit")
        if disable is None or inspect.isclass(fn):
            return jitted

        @functools.wraps(fn)
        def call(*args, **kwargs):
            if disable(args, kwargs):
                return fn(*args, **kwargs)
            return jitted(*args, **kwargs)
        return call
