"""``backend="GE"``: a jitted function's graph compiled for GE.

``compile_for_jit`` turns the function's StableHLO into a GE model
(Parameters read become ``Variable`` nodes, Parameters written become
``Assign`` nodes, outputs feed ``NetOutput``), serialises it to the AIR bytes
and returns an executable with the XLA executable's call convention: flat
arrays in (call leaves, then the Parameters' values), flat arrays out
(function outputs, then the Parameters' new values, then arguments written
in place), so ``Entry`` and the generated fast path run it unchanged.

On Ascend, MindSpore sinks this graph to GE: ``ge::GEInitialize(global
options)``, ``ge::Session(session options)``, ``Session::AddGraph(id,
graph)`` with the graph built from these very bytes (``ge::Graph::
LoadFromFile`` / ``Model::Load``), then ``RunGraph`` per call with the Data
inputs, Variables initialised from the Parameters and read back after
``Assign``. msxla has no Ascend runtime, so the graph runs on the reference
executor (``msxla/ge/reference.py``, numpy) and a one-time warning says so:
results match XLA within float32 tolerance, speed does not.

MindSpore applies GE to the outermost Cell only (the graph that is sunk to
the device as a whole): a ``backend="GE"`` function or Cell called while
another graph is being compiled becomes part of that graph and its backend
setting is ignored, with a one-time note
(``msxla.capture.capture.note_nested_backend``).
"""
from __future__ import annotations

import dataclasses
import functools
import types

import jax
import jax.numpy as jnp
import numpy as np

from msxla._jax_compat import split_host_callbacks
from msxla._log import note_once
from msxla.ge import Signature, convert, from_bytes
from msxla.ge.backend import ge_option_attrs, graph_name, variable_names
from msxla.ge.reference import run_model
from msxla.jit import compile_cache
from msxla.lower.lowering import graph_callable, lower


class GeExecutable:
    """A converted GE model, called like an XLA executable. ``host``: ``(n, run)``
    when the graph's host effects run around it: its last ``n`` outputs are their
    operands, and ``run`` calls them in order after the graph."""

    def __init__(self, model, graph, names_in, names_out, host=None):
        self.model = model
        self.host = host
        self.n_args = graph.n_args
        self.n_outs = graph.n_outs
        self.names_in = names_in
        self.names_out = names_out
        self.in_avals = [(tuple(a.shape), np.dtype(a.dtype)) for a in graph.in_avals]

    def __call__(self, *flat):
        if len(flat) != len(self.in_avals):
            raise TypeError(f"GE graph expects {len(self.in_avals)} inputs, got {len(flat)}")
        arrays = []
        for x, (shape, dtype) in zip(flat, self.in_avals):
            if tuple(np.shape(x)) != shape or np.dtype(getattr(x, "dtype", None)) != dtype:
                raise TypeError(f"GE graph compiled for {dtype}{list(shape)}, got "
                                f"{getattr(x, 'dtype', type(x))}{list(np.shape(x))}")
            arrays.append(np.asarray(x))
        variables = dict(zip(self.names_in, arrays[self.n_args:]))
        outs, variables = run_model(self.model, arrays[:self.n_args], variables)
        result = outs[:self.n_outs] + [variables[n] for n in self.names_out] + outs[self.n_outs:]
        if self.host is not None:
            n, run = self.host
            run(result[len(result) - n:])
            del result[len(result) - n:]
        return tuple(jnp.asarray(r) for r in result)

    def dump(self) -> str:
        return self.model.dump()

    def as_air(self) -> bytes:
        return self.model.to_bytes()


def compile_for_jit(lowered, graph, options) -> GeExecutable:
    # GE cannot call the host from inside a graph: prints, runtime checks and
    # summaries run after it, on values the graph hands out (as MindSpore's
    # Print reaches the host after the step on Ascend)
    host = split_host_callbacks(graph.closed_jaxpr)
    if host is not None:
        pure, n_extra, run = host
        graph = dataclasses.replace(graph, closed_jaxpr=pure)
        lowered = lower(graph, options.jit_level)
        host = (n_extra, run)
    names = variable_names(list(graph.state_in) + list(graph.state_out))
    names_in = [names[id(p)] for p in graph.state_in]
    names_out = [names[id(p)] for p in graph.state_out]
    sig = Signature(n_data=graph.n_args, variables=tuple(names_in), n_outs=graph.n_outs,
                    assign_to=tuple(names_out))
    attrs = ge_option_attrs(options.option("ge_options"))
    name = graph_name(graph.name)
    key = "\n".join([_converter_fingerprint(), name, repr(sig), repr(sorted(attrs.items())),
                     lowered.as_text()])
    air = compile_cache.cached_bytes("ge", key,
                                     lambda: convert(lowered, name, sig, attrs).to_bytes())
    note_once("backend:GE", "backend='GE': there is no Ascend device here, so the GE graph "
              "runs on msxla's GE reference executor (numpy): same results as XLA, much "
              "slower. On Ascend the graph would be sunk to GE as a whole.")
    return GeExecutable(from_bytes(air), graph, names_in, names_out, host)


@functools.lru_cache(maxsize=1)
def _converter_fingerprint() -> str:
    import msxla.ge
    return compile_cache.source_fingerprint(msxla.ge)


def ge_traceable(graph, options, stats):
    """``graph`` as a jax-traceable function on GE, for a GE function called under
    ``grad``/``vjp``/``vmap``: the forward graph and, when jax asks for it, the graph
    of its vector-Jacobian product are each converted to GE and run from jax through
    ``pure_callback``; jax differentiates through the custom VJP. Inputs and outputs
    that are not floating point get no cotangent."""
    forward = compile_for_jit(lower(graph, options.jit_level), graph, options)
    stats.lowerings += 1
    stats.compiled("GE")
    in_avals, out_avals = list(graph.in_avals), list(graph.out_avals)
    out_shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in out_avals]
    diff_in = [i for i, a in enumerate(in_avals) if jnp.issubdtype(a.dtype, jnp.inexact)]
    diff_out = [j for j, a in enumerate(out_avals) if jnp.issubdtype(a.dtype, jnp.inexact)]
    grad_shapes = [jax.ShapeDtypeStruct(in_avals[i].shape, in_avals[i].dtype) for i in diff_in]
    backward = []

    def call(exe, shapes, *flat):
        return jax.pure_callback(lambda *xs: tuple(np.asarray(r) for r in exe(*xs)), shapes,
                                 *flat, vmap_method="sequential")

    @jax.custom_vjp
    def run(*flat):
        return tuple(call(forward, out_shapes, *flat))

    def run_fwd(*flat):
        return run(*flat), flat

    def run_bwd(flat, cts):
        if not backward:
            backward.append(_vjp_executable(graph, diff_in, diff_out))
            stats.compiled("GE")
        grads = call(backward[0], grad_shapes, *flat, *[cts[j] for j in diff_out])
        out = [None] * len(flat)
        for k, i in enumerate(diff_in):
            out[i] = grads[k]
        return tuple(out)

    run.defvjp(run_fwd, run_bwd)
    return run


def _vjp_executable(graph, diff_in, diff_out) -> GeExecutable:
    """A GE graph computing the cotangents of ``graph``'s float inputs from its inputs
    and the cotangents of its float outputs."""
    fun = graph_callable(graph)
    in_avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in graph.in_avals]
    out_avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in graph.out_avals]
    n_in = len(in_avals)

    def vjp(*args):
        primals, cts = list(args[:n_in]), args[n_in:]

        def differentiable(*xs):
            full = list(primals)
            for k, i in enumerate(diff_in):
                full[i] = xs[k]
            outs = fun(*full)
            return tuple(outs[j] for j in diff_out)
        _, pull = jax.vjp(differentiable, *[primals[i] for i in diff_in])
        return tuple(pull(tuple(cts)))

    avals = in_avals + [out_avals[j] for j in diff_out]
    lowered = jax.jit(vjp, keep_unused=True).lower(*avals)
    sig = Signature(n_data=len(avals), n_outs=len(diff_in))
    model = convert(lowered, graph_name(graph.name) + "_vjp", sig)
    shape = types.SimpleNamespace(n_args=len(avals), n_outs=len(diff_in), in_avals=avals)
    return GeExecutable(from_bytes(model.to_bytes()), shape, [], [])
