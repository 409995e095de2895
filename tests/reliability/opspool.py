"""The ops the program generator draws from, taken from the op table.

Every ``OpSpec`` in ``tests/ops/spec_*.py`` whose row takes one Tensor (or two
of one shape) with no keyword arguments is a candidate. A candidate joins the
pool when, called eagerly on conditioned inputs, it returns one Tensor of the
input's shape and dtype (float32 and float64), gives finite values and gives
the same values twice (random rows are left out). Ops whose spec claims a
gradient also join the pool used inside differentiated programs.

``GUARD[domain]`` is the expression template that keeps an op's input in its
domain (``{}`` is the input expression), so chains of ops stay finite:
"normal" ops get a clamped input, "positive" ones ``|v| + 0.5``, "unit" ones
``tanh(v) * 0.9``.
"""
from __future__ import annotations

import dataclasses
import functools
import glob
import importlib
import json
import os
import subprocess
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_OPS_TESTS = os.path.join(os.path.dirname(_HERE), "ops")

GUARD = {
    "normal": "ops.clamp({}, -3.0, 3.0)",
    "positive": "(ops.abs({}) + 0.5)",
    "unit": "(ops.tanh({}) * 0.9)",
}
# Rows whose values jump (rounding, sign) stay out: a last-bit difference in
# their input between PyNative and a fused graph would flip the result.
DISCONTINUOUS = {"ceil", "floor", "trunc", "frac", "sgn", "sign", "round", "rint", "fix",
                 "floor_divide", "remainder", "fmod", "nextafter", "copysign", "heaviside",
                 "logical_not", "isreal", "ones_like", "zeros_like", "any", "all",
                 "softshrink", "hardshrink", "relu6", "hardtanh", "ldexp",
                 "rrelu", "cross"}


@dataclasses.dataclass(frozen=True)
class PoolOp:
    name: str       # msxla.ops.<name>
    arity: int      # 1 or 2
    domain: str     # key of GUARD
    grad: bool      # the spec checks its gradient

    def call(self, *operands: str) -> str:
        guarded = ", ".join(GUARD[self.domain].format(o) for o in operands)
        return f"ops.{self.name}({guarded})"


def _specs():
    for path in (_OPS_TESTS, os.path.dirname(_OPS_TESTS)):
        if path not in sys.path:
            sys.path.insert(0, path)
    for path in sorted(glob.glob(os.path.join(_OPS_TESTS, "spec_*.py"))):
        name = os.path.basename(path)[:-3]
        try:
            module = importlib.import_module(name)
        except Exception:  # a spec file another change left broken: skip its rows
            continue
        if name != "spec_random":  # random rows never give PyNative's values twice
            yield from getattr(module, "SPECS", ())


def _candidates():
    seen = {}
    for spec in _specs():
        if spec.fn is not None or spec.kwargs or callable(spec.shapes) or spec.id:
            continue
        shapes = [tuple(s) for s in spec.shapes]
        if len(shapes) not in (1, 2) or len(set(shapes)) != 1:
            continue
        if spec.domain not in GUARD or spec.name in DISCONTINUOUS:
            continue
        if np.float32 not in [np.dtype(d).type for d in spec.dtypes]:
            continue
        key = (spec.name, len(shapes))
        old = seen.get(key)
        seen[key] = PoolOp(spec.name, len(shapes), spec.domain,
                           bool(spec.grad) or (old is not None and old.grad))
    return list(seen.values())


def _keeps_shape_and_dtype(op: PoolOp) -> bool:
    """Abstract evaluation (no compile): one Tensor of the input's shape and dtype
    for ranks 2 and 3 and for float32 and float64."""
    import jax
    import msxla as ms
    from msxla.common.tensor import wrap
    fn = getattr(ms.ops, op.name, None)
    if fn is None:
        return False

    def run(*arrays):
        out = fn(*[wrap(a) for a in arrays])
        return out._data if isinstance(out, ms.Tensor) else None
    for shape in ((2, 4), (3, 2, 4)):
        for dtype in (np.float32, np.float64):
            arg = jax.ShapeDtypeStruct(shape, dtype)
            try:
                out = jax.eval_shape(run, *[arg] * op.arity)
            except Exception:
                return False
            if out is None or out.shape != shape or out.dtype != np.dtype(dtype):
                return False
    return True


def _compute() -> tuple:
    ops = [op for op in _candidates() if _keeps_shape_and_dtype(op)]
    return tuple(sorted(ops, key=lambda o: (o.arity, o.name)))


@functools.lru_cache(maxsize=None)
def pool() -> tuple:
    """The usable ops, sorted by name (a stable order keeps seeds reproducible).

    Found in a fresh interpreter: in a test worker, tests that ran before may
    have changed what the spec modules or the ops hold, and a seed must draw the
    same programs whatever ran first."""
    root = os.path.dirname(os.path.dirname(_HERE))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    out = subprocess.run([sys.executable, __file__], capture_output=True, text=True,
                         check=True, cwd=_HERE, env=env, timeout=600)
    return tuple(PoolOp(*row) for row in json.loads(out.stdout.splitlines()[-1]))


def unary(grad=False):
    return [op for op in pool() if op.arity == 1 and (op.grad or not grad)]


def binary(grad=False):
    return [op for op in pool() if op.arity == 2 and (op.grad or not grad)]


if __name__ == "__main__":
    print(json.dumps([dataclasses.astuple(op) for op in _compute()]))
