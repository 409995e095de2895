"""Capturing one piece of a function: from a live state to a break or the return.

``capture_segment`` runs the interpreter symbolically from a frame state
(after a graph break, or the bound arguments) inside ``jax.make_jaxpr``,
with the same ``CaptureFrame`` trace mode uses, so Parameters read and
written become graph inputs and outputs in program order. It stops at the
return, or just before an instruction of ``stop_at`` (known breaks). The
result is a ``CapturedGraph`` whose inputs are the state's Tensor leaves (and
Parameters) and whose outputs are the arrays the end state's recipe needs
(``recipe.describe``), plus the recipe itself.

A newly found break raises ``FoundBreak`` out of the capture: the caller
adds it to ``stop_at`` and captures again, so nothing of the breaking
instruction is staged (a staged ``print`` or Parameter write from a
half-run instruction would otherwise happen twice).
"""
from __future__ import annotations

import dataclasses
import logging

import jax

from msxla._jax_compat import drop_unused_invars
from msxla.capture import signature as S
from msxla.capture.bytecode.frame import Frame, FrameState
from msxla.capture.bytecode.interpreter import Interpreter, StopCapture
from msxla.capture.bytecode.recipe import describe
from msxla.capture.bytecode.state import lift, lifted_tensors
from msxla.capture.bytecode.tracking import Tracking
from msxla.capture.capture import kernel_boundaries
from msxla.capture.frame import CaptureFrame, MissedParameter
from msxla.capture.graph import CapturedGraph
from msxla.capture.staged_print import staged_print
from msxla.capture.tensor_state import (Lifted, MissedTensorState, add_candidate,
                                        drop_state_guards, split_state)
from msxla.capture.tracing import _used_inputs
from msxla.capture.values import Seq

LOG = logging.getLogger("msxla")
_MAX_RESTARTS = 256


@dataclasses.dataclass
class SegmentCapture:
    graph: CapturedGraph
    recipe: tuple
    returns: bool                  # the piece ends at the function's return
    end_index: int                 # instruction index of the break it ends at


def capture_segment(fn, spec, leaves, owners, objs, candidates, options, name, stop_at):
    """Capture ``fn``'s frame from the state ``spec``/``objs`` (see the module doc)."""
    for _ in range(_MAX_RESTARTS):
        try:
            return _capture_once(fn, spec, leaves, owners, objs, list(candidates), options,
                                 name, stop_at)
        except MissedParameter as missed:
            LOG.info("jit '%s': Parameter '%s' is read but was not found before capture; "
                     "capturing again with it as an input.", name, missed.param.name)
            candidates.append(missed.param)
        except MissedTensorState as missed:
            LOG.info("jit '%s': %s is changed in place; capturing again with it as graph "
                     "state.", name, missed.name)
            add_candidate(candidates, missed)
    raise RuntimeError(f"jit '{name}': the function keeps reading new Parameters.")


def _capture_once(fn, spec, leaves, owners, objs, candidates, options, name, stop_at):
    n = len(leaves)
    info = {}

    def flat_fn(*flat):
        tensors = lifted_tensors(flat[:n], owners)
        tracking = Tracking(stop_at, options.fullgraph)
        params, handles = split_state(candidates, flat[n:])
        lifted = Lifted(handles, handles.values(), ())
        frame_values = CaptureFrame(params, lifted)
        with lifted:
            with frame_values, staged_print():
                state = lift(spec, tensors, objs, tracking)
                frame = Frame.from_state(fn, state)
                interp = Interpreter(tracking, options)
                try:
                    value = interp.run_captured(frame)
                    end = FrameState({}, {}, [value], -1)
                    returns = True
                except StopCapture as stop:
                    end = stop.frame.state()
                    returns = False
                recipe, outs = describe(end, tracking)
            written_tensors, tensor_values = lifted.finish()
        written = list(frame_values.written)
        mutated = [i for i, t in enumerate(tensors) if t._data is not flat[i]]
        info.update(recipe=recipe, returns=returns, n_outs=len(outs),
                    written=written + written_tensors, mutated=mutated, tracking=tracking,
                    end_index=end.index)
        return (*outs, *[frame_values.values[p] for p in written], *tensor_values,
                *[tensors[i]._data for i in mutated])

    avals = list(S.leaf_avals(leaves)) + [jax.ShapeDtypeStruct(p._value.shape, p._value.dtype)
                                          for p in candidates]
    with kernel_boundaries(options):
        closed = jax.make_jaxpr(flat_fn)(*avals)
    used = _used_inputs(closed.jaxpr)
    keep = set(range(n)) | {n + i for i, p in enumerate(candidates)
                            if closed.jaxpr.invars[n + i] in used}
    closed = drop_unused_invars(closed, keep)
    state_in = tuple(p for i, p in enumerate(candidates) if (n + i) in keep)
    k = info["n_outs"]
    graph = CapturedGraph(
        closed_jaxpr=closed, name=name, mode="bytecode", n_args=n, state_in=state_in,
        state_out=tuple(info["written"]), mutated=tuple(info["mutated"]),
        out_spec=Seq(tuple, (S.TENSOR_OUT,) * k), n_outs=k,
        guards=info["tracking"].guards.guard_set())
    drop_state_guards(graph.guards, graph)
    return SegmentCapture(graph, info["recipe"], info["returns"], info["end_index"])
