"""``mindspore.jit`` and everything around it: options, JitConfig, mutable.

``jit.explain_recompiles(True)`` logs why a jitted function recompiles;
``jit.explain(fn)(*args)`` reports graphs, graph breaks and guards of a call.
"""
from msxla.jit import compile_cache  # noqa: F401 - set_context(enable_compile_cache=...)
from msxla.jit.api import jit as _jit
from msxla.jit.config import JitConfig  # noqa: F401
from msxla.jit.explain import explain_recompiles
from msxla.jit.explain_report import explain as _explain_call  # keeps msxla.jit.explain the module
from msxla.jit.function import JitFunction  # noqa: F401
from msxla.jit.mutable import mutable  # noqa: F401


class _JitModule:
    """``msxla.jit`` is callable (``jit(f)``) and also holds helpers."""


jit = _jit
jit.explain_recompiles = explain_recompiles
jit.explain = _explain_call
