"""Capture dispatch: one entry point, whatever the mode.

``capture(...)`` returns a ``CapturedGraph`` (``graph.py``) or, for a
function the bytecode front end cuts at graph breaks, a ``CapturedProgram``
(``program.py``: graphs and Python steps). ``trace`` runs the function with
tracers; ``ast`` and ``bytecode`` register their own front ends
(``register_front_end``) when their packages are imported.

A jitted function called while another graph is being captured becomes part
of that graph (``inlined``): its own options other than the capture mode do
not apply there, and a ``backend="GE"`` on it is noted once as ignored
(``note_nested_backend``): GE applies to the outermost graph only.
"""
from __future__ import annotations

from msxla._log import note_once
from msxla.capture.run_eagerly import RunEagerly  # noqa: F401 - its public home
from msxla.capture.tracing import trace_to_graph
from msxla.communication._spmd import capture_axes
from msxla.ops import _kernels

_FRONT_ENDS = {}
_INLINERS = {}


def register_front_end(mode, capture_fn, inline_fn=None):
    """``capture_fn(fn, spec, leaves, candidates, options, name, guards)`` returns a
    ``CapturedGraph`` or a ``CapturedProgram``; ``inline_fn(fn, options) -> callable``:
    what runs when a function jitted in this mode is called while another graph is
    captured (default: ``fn`` itself)."""
    _FRONT_ENDS[mode] = capture_fn
    if inline_fn is not None:
        _INLINERS[mode] = inline_fn


def front_ends() -> tuple:
    """The capture modes with a front end of their own (besides ``trace``)."""
    return tuple(_FRONT_ENDS)


def inlined(fn, options, name=None):
    """The callable that runs a jitted ``fn`` inside another graph's capture."""
    note_nested_backend(name or getattr(fn, "__qualname__", "function"), options.backend)
    inline = _INLINERS.get(options.capture_mode)
    return fn if inline is None else inline(fn, options)


def note_nested_backend(name: str, backend) -> None:
    """A ``backend="GE"`` function or Cell compiled as part of another graph."""
    if backend != "GE":
        return
    note_once(f"backend:GE:inner:{name}",
              f"'{name}' has backend='GE', but it is called while another graph is being "
              "compiled: GE applies to the outermost Cell only (the whole model is sunk to "
              "the device as one graph), so it is compiled as part of the calling graph, "
              "with that graph's backend. Set backend='GE' on the outermost Cell or "
              "function instead.")


def kernel_boundaries(options):
    """The context every capture runs in: at O0, on a platform whose compiler keeps
    them, each op is its own kernel (its outputs pass an optimization barrier,
    ``msxla/ops/_kernels.py``); GE graphs are left as they are."""
    return _kernels.op_kernels(options.jit_level == "O0" and options.backend != "GE"
                               and _kernels.kernels_kept())


def capture(fn, spec, leaves, candidates, options, name, guards):
    with capture_axes(), kernel_boundaries(options):  # collectives record jax collectives
        return _capture(fn, spec, leaves, candidates, options, name, guards)


def _capture(fn, spec, leaves, candidates, options, name, guards):
    mode = options.capture_mode
    front = _FRONT_ENDS.get(mode)
    if front is not None:
        return front(fn, spec, leaves, candidates, options, name, guards)
    if mode != "trace":
        note_once(f"mode:{mode}", f"capture_mode='{mode}' is captured by tracing in this "
                  "build (Python control flow on Tensor values is refused with an error).")
    return trace_to_graph(fn, spec, leaves, candidates, mode="trace", name=name, guards=guards)
