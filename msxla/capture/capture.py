"""Capture dispatch: one entry point, one CapturedGraph, whatever the mode.

``trace`` runs the function with tracers. ``ast`` and ``bytecode`` have
their own front ends; until a front end is available in this build, its mode
captures by tracing and says so once.
"""
from __future__ import annotations

from msxla.capture.tracing import trace_to_graph
from msxla.errors import ConcretizationError
from msxla.jit.config import note_once

_FRONT_ENDS = {}
_INLINERS = {}


class RunEagerly(ConcretizationError):
    """Raised by a front end that cannot make a graph for a call (a piece needs a
    Tensor's value in Python): the jitted function runs in Python instead."""


def register_front_end(mode, capture_fn, inline_fn=None):
    """``capture_fn(fn, spec, leaves, candidates, options, name, guards) -> CapturedGraph``;
    ``inline_fn(fn, options) -> callable``: what runs when a function jitted in this mode
    is called while another graph is captured (default: ``fn`` itself)."""
    _FRONT_ENDS[mode] = capture_fn
    if inline_fn is not None:
        _INLINERS[mode] = inline_fn


def inlined(fn, options):
    """The callable that runs a jitted ``fn`` inside another graph's capture."""
    inline = _INLINERS.get(options.capture_mode)
    return fn if inline is None else inline(fn, options)


def capture(fn, spec, leaves, candidates, options, name, guards):
    mode = options.capture_mode
    front = _FRONT_ENDS.get(mode)
    if front is not None:
        return front(fn, spec, leaves, candidates, options, name, guards)
    if mode != "trace":
        note_once(f"mode:{mode}", f"capture_mode='{mode}' is captured by tracing in this "
                  "build (Python control flow on Tensor values is refused with an error).")
    return trace_to_graph(fn, spec, leaves, candidates, mode="trace", name=name, guards=guards)
