"""Tracing a Python callable into a ``CapturedGraph`` (used by trace and ast).

The callable runs exactly once per capture with Tensors around jax tracers,
inside a ``CaptureFrame`` that turns Parameter reads and writes into graph
inputs and outputs (and plain Tensors from outside it changes in place,
``tensor_state.py``; what it appends to logs, ``logs.py``). ``print`` is
staged so it prints at run time on every call. If the function reads a
Parameter that discovery missed, the capture restarts with that Parameter
lifted (this happens at most once per Parameter; it is logged).
"""
from __future__ import annotations

import logging

import jax

from msxla._jax_compat import drop_unused_invars, is_literal
from msxla.capture import signature as S
from msxla.capture.frame import CaptureFrame, MissedParameter
from msxla.capture.graph import CapturedGraph
from msxla.capture.logs import Logs
from msxla.capture.rebinds import Rebinds, rebound_error
from msxla.capture.staged_print import staged_print
from msxla.capture.tensor_state import (Lifted, MissedTensorState, add_candidate,
                                        drop_state_guards, outside_tensors, split_state)
from msxla.common.cell_base import ATTR_EPOCH
from msxla.common.tensor import wrap
from msxla.errors import CaptureError, user_error

LOG = logging.getLogger("msxla")
_MAX_RESTARTS = 256


def trace_to_graph(fn, spec, leaves, candidates, *, mode, name, guards) -> CapturedGraph:
    """Capture ``fn(*args)`` for the call described by ``spec``/``leaves``.

    ``candidates`` is the list of Parameters to lift as state inputs; it is
    extended in place when the capture finds one it missed, so the next
    capture of the same function starts with it."""
    for _ in range(_MAX_RESTARTS):
        try:
            return _trace_once(fn, spec, leaves, list(candidates), mode, name, guards)
        except MissedParameter as missed:
            LOG.info("jit '%s': Parameter '%s' is read but was not found before capture; "
                     "capturing again with it as an input.", name, missed.param.name)
            candidates.append(missed.param)
        except MissedTensorState as missed:
            LOG.info("jit '%s': %s is changed in place; capturing again with it as graph "
                     "state.", name, missed.name)
            add_candidate(candidates, missed)
    raise user_error(CaptureError, f"jit '{name}': the function keeps reading new Parameters "
                     "while it is being captured.")


def _trace_once(fn, spec, leaves, candidates, mode, name, guards):
    n = len(leaves)
    info = {}

    outside = outside_tensors(guards)

    def flat_fn(*flat):
        tensors = [wrap(x) for x in flat[:n]]
        args, kwargs = S.rebuild_args(spec, tensors)
        params, handles = split_state(candidates, flat[n:])
        lifted = Lifted(handles, handles.values(), outside)
        frame = CaptureFrame(params, lifted)
        epoch = ATTR_EPOCH.value
        cells = guards.cell_guard.cells if guards is not None and guards.cell_guard else ()
        with lifted, Logs(guards, args, kwargs) as logs, Rebinds(fn, cells) as rebinds:
            with frame, staged_print():
                out = fn(*args, **kwargs)
                rebound = rebinds.found()
                if rebound:
                    raise rebound_error(rebound[0])
                # inside the frame: a returned Parameter is its value after the call's writes
                out_spec, out_leaves = S.flatten_output(out)
            written_tensors, tensor_values = lifted.finish()
            info["appends"], appended = logs.finish()
        info["attrs_changed"] = ATTR_EPOCH.value != epoch
        written = list(frame.written)
        mutated = [i for i, t in enumerate(tensors) if t._data is not flat[i]]
        info.update(out_spec=out_spec, n_outs=len(out_leaves), written=written + written_tensors,
                    mutated=mutated)
        return (*out_leaves, *[frame.values[p] for p in written], *tensor_values,
                *[tensors[i]._data for i in mutated], *appended)

    avals = list(S.leaf_avals(leaves)) + [jax.ShapeDtypeStruct(p._value.shape, p._value.dtype)
                                          for p in candidates]
    closed = jax.make_jaxpr(flat_fn)(*avals)
    used = _used_inputs(closed.jaxpr)
    keep = set(range(n)) | {n + i for i, p in enumerate(candidates)
                            if closed.jaxpr.invars[n + i] in used}
    closed = drop_unused_invars(closed, keep)
    state_in = tuple(p for i, p in enumerate(candidates) if (n + i) in keep)
    graph = CapturedGraph(
        closed_jaxpr=closed, name=name, mode=mode, n_args=n, state_in=state_in,
        state_out=tuple(info["written"]), mutated=tuple(info["mutated"]),
        out_spec=info["out_spec"], n_outs=info["n_outs"], guards=guards,
        appends=info["appends"])
    drop_state_guards(guards, graph)
    if info["attrs_changed"]:
        graph.notes.append(
            "the function set Cell attributes while it was captured; under jit such Python "
            "side effects happen when the graph is captured, not on every call")
    return graph


def _used_inputs(jaxpr):
    used = set()
    for eqn in jaxpr.eqns:
        used.update(v for v in eqn.invars if not is_literal(v))
    used.update(v for v in jaxpr.outvars if not is_literal(v))
    return used
