"""Running op-table rows through backend="GE": the GE graph on the reference
executor against the XLA executable, from one lowering of each row.

``run_spec(spec)`` captures the row's OpSpec call (trace capture), lowers it
once, and returns a ``Result``: the StableHLO ops it contains, those without
a GE converter, and (when every op converts) the largest difference between
the GE reference executor's outputs and XLA's.
"""
from __future__ import annotations

import dataclasses
import os
import sys

import jax
import numpy as np

import msxla as ms
from msxla.capture import signature as S
from msxla.jit.backend_ge import compile_for_jit
from msxla.ge.registry import CONVERTERS, GeConversionError, supported_ops
from msxla.options import JitOptions
from msxla.lower.lowering import graph_callable, lower

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ops"))
sys.path.insert(0, os.path.join(HERE, ".."))


@dataclasses.dataclass
class Result:
    spec_id: str
    ops: set
    missing: set
    error: str = ""
    mismatch: str = ""


def all_specs():
    import test_op_table
    return list(test_op_table.SPECS)


def _by_id():
    out = {}
    for spec in all_specs():
        rid = spec_id(spec)
        if rid not in out:
            out[rid] = spec
    return out


def stablehlo_ops(module) -> set:
    names = set()

    def visit(block):
        for view in block.operations:
            op = view.operation
            name = op.name
            if name == "stablehlo.custom_call":
                name = f"{name} @{op.attributes['call_target_name'].value}"
            if name not in ("func.return", "stablehlo.return", "func.call"):
                names.add(name)
            for region in op.regions:
                for b in region.blocks:
                    visit(b)

    with module.context:
        for f in module.body.operations:
            visit(f.regions[0].blocks[0])
    return names


def spec_id(spec) -> str:
    return spec.name + (f"-{spec.id}" if spec.id else "")


def pick_dtype(spec):
    dtypes = [np.dtype(d) for d in spec.dtypes]
    return np.dtype(np.float32) if np.dtype(np.float32) in dtypes else dtypes[0]


def _close(a, b, dtype):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"{a.dtype}{list(a.shape)} vs XLA {b.dtype}{list(b.shape)}"
    if a.dtype.kind in "fc" or str(a.dtype) == "bfloat16":
        a64, b64 = a.astype(np.complex128), b.astype(np.complex128)
        tol = 1e-4 if a.dtype.itemsize >= 4 else 2e-2
        bad = ~np.isclose(a64, b64, rtol=tol, atol=tol, equal_nan=True)
        if bad.any():
            return f"max |diff| {np.nanmax(np.abs(a64 - b64)):.3g}"
        return ""
    return "" if np.array_equal(a, b) else "values differ"


def run_spec(spec, seed=0, compiled=True) -> Result:
    """``compiled=False`` takes XLA's answer from running the graph's equations
    one by one (jax's per-op executables, cached across rows) instead of
    compiling the whole graph: same XLA kernels, much less compile time."""
    rid = spec_id(spec)
    dtype = pick_dtype(spec)
    rng = np.random.default_rng(seed)
    inputs = spec.make_inputs(rng, dtype)
    args = [ms.Tensor(x) if isinstance(x, np.ndarray) else x for x in inputs]
    fn, kwargs = spec.call(), spec.kwargs
    jf = ms.jit(lambda *a: fn(*a, **kwargs), capture_mode="trace")
    try:
        graph = jf.capture(*args)
        lowered = lower(graph)
        ops = stablehlo_ops(lowered.stablehlo())
    except Exception as err:  # the row does not make a graph (value-dependent shapes)
        return Result(rid, set(), set(), error=f"{type(err).__name__}: {str(err)[:80]}")
    supported_ops()
    missing = {o for o in ops if o not in CONVERTERS}
    if missing:
        return Result(rid, ops, missing)
    leaves = S.flatten_args(args, {})[1]
    flat = list(leaves) + [p._data for p in graph.state_in]
    if compiled:
        expected = lowered.compile()(*flat)
    else:
        with jax.disable_jit():
            expected = graph_callable(graph)(*flat)
    try:
        got = compile_for_jit(lowered, graph, JitOptions())(*flat)
    except GeConversionError as err:
        return Result(rid, ops, {str(err).splitlines()[0]})
    for k, (g, e) in enumerate(zip(got, expected)):
        why = _close(g, e, dtype)
        if why:
            return Result(rid, ops, set(), mismatch=f"output {k}: {why}")
    return Result(rid, ops, set())


SPECS_BY_ID = _by_id()


def coverage_table(results) -> str:
    """Which StableHLO ops the op table's rows use, and whether GE converts each."""
    import collections

    ops = collections.Counter(op for r in results for op in r.ops)
    missing = collections.Counter(op for r in results for op in r.missing)
    graphless = [r for r in results if r.error]
    lines = [f"GE coverage of the op table: {len(results)} OpSpecs, "
             f"{sum(1 for r in results if not r.missing and not r.error)} fully converted, "
             f"{len(graphless)} without a graph (value-dependent shapes, host-side checks)",
             "StableHLO ops seen (rows using them), converted by GE or not:"]
    lines += [f"  {'converted  ' if op not in missing else 'unsupported'} {op}: {n}"
              for op, n in sorted(ops.items())]
    lines += [f"  unsupported in {r.spec_id}: {sorted(r.missing)}" for r in results if r.missing]
    return "\n".join(lines)


if __name__ == "__main__":
    print(coverage_table([run_spec(spec) for spec in all_specs()]))
