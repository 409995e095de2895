"""``mindspore._c_expression``: the names MindSpore's tests read from its C++ module.

MindSpore keeps, per code object, what its bytecode jit (PIJit) did with it,
and its tests read that through ``get_code_extra(fn)``::

    jcr = get_code_extra(fn.__wrapped__)      # fn = jit(f, capture_mode="bytecode")
    jcr["stat"] == "GRAPH_CALLABLE"           # compiled
    jcr["break_count_"], jcr["compile_count_"], jcr["code"]["call_count_"]

Here the same record is kept by msxla's jit (``msxla.jit.counters.CodeRecord``,
filled by every jitted function that runs the code, in any capture mode) and
reported as MindSpore lays it out:

- ``compile_count_``: cache entries made for the code: one per captured
  signature, and one per recapture after a failed guard;
- ``break_count_``: how many of those run with graph breaks (graphs and
  Python steps) rather than as one graph; a function with several breaks
  counts once per entry, as in MindSpore;
- ``stat``: ``"GRAPH_CALLABLE"`` once an entry exists, ``"NEVER_COMPILE"``
  while every call ran in Python (JIT Fallback);
- ``code``: the entry the latest call ran: ``call_count_`` (its calls, over
  every jitted function of the code with that signature), ``phase_`` (the
  graph's name) when the entry is one whole graph, ``guard_`` (its guards).
  An entry with graph breaks has no ``phase_``; MindSpore then gives the
  Python code it generated around its graphs as ``compiled_code_``, which
  msxla does not generate, so that key is never present.

``None`` for code no jitted function has run, as in MindSpore.
"""
from __future__ import annotations

import types

from msxla.common._monad import IOMonad, UMonad
from msxla.common.tensor import Tensor
from msxla.jit.counters import code_record

__all__ = ["get_code_extra", "jit_mode_pi_enable", "jit_mode_pi_disable",
           "update_pijit_default_config", "TensorPy", "UMonad", "IOMonad"]

# MindSpore's Tensor derives from its C++ tensor class; msxla has one Tensor class.
TensorPy = Tensor

_pijit_config: dict = {}


def get_code_extra(fn):
    """What jit did with ``fn``'s code (a function, method or code object); see above."""
    record = code_record(_code_of(fn), create=False)
    if record is None or not (record.entries or record.fallbacks):
        return None
    result = {}
    last = record.last
    if last is not None:
        code = {"call_count_": last.calls}
        if last.phase is not None:
            code["phase_"] = last.phase
        if last.guards:
            code["guard_"] = "\n".join(last.guards)
        result["code"] = code
    result["stat"] = "GRAPH_CALLABLE" if record.entries else "NEVER_COMPILE"
    result["compile_count_"] = record.entries
    result["break_count_"] = record.broken
    return result


def _code_of(fn):
    if isinstance(fn, types.CodeType):
        return fn
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    return code if isinstance(code, types.CodeType) else None


def jit_mode_pi_enable():
    """MindSpore's switch of its bytecode jit for the current call.

    ``jit(capture_mode="bytecode")`` turns it on around each call of its own,
    so neither switch changes what a bytecode-jitted function does (in
    MindSpore 2.10 or here)."""


def jit_mode_pi_disable():
    """See ``jit_mode_pi_enable``."""


def update_pijit_default_config(**kwargs):
    """Record options of MindSpore's bytecode jit (``compile_with_try``,
    ``loop_unrolling``, ...). MindSpore accepts any name here; msxla's bytecode
    capture has none of these switches, so they are kept and have no effect."""
    _pijit_config.update(kwargs)
