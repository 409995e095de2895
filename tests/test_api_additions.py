"""Names scripts use beyond the op table, against MindSpore 2.10 (``golden/api_additions.json``).

Each golden case is Python source over ``ms``, ``np``, ``Tensor``, ``ops``, ``nn`` with
what MindSpore 2.10 gave (``make_api_additions.py``); here the same source runs with
msxla as ``ms`` and must give the same kind, dtype, shape and values (floats within
float32 rounding: XLA divides a broadcast scalar by multiplying with its reciprocal)
or raise the same builtin exception type.
"""
import builtins
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms
from msxla import nn, ops

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
import make_api_additions as golden  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "golden", "api_additions.json")) as f:
    DOC = json.load(f)
CASES = DOC["cases"]


def _env():
    env = {"ms": ms, "np": np, "Tensor": ms.Tensor, "ops": ops, "nn": nn, "__name__": __name__}
    exec(golden._compile(DOC["setup"], "setup", "exec"), env)  # noqa: S102 - fixed source
    return env


def _close(got, want, where):
    if isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), (where, got, want)
        for k in want:
            _close(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{where}[{i}]")
    elif isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        assert np.isclose(got, want, rtol=2e-6, atol=1e-7), (where, got, want)
    else:
        assert got == want, (where, got, want)


@pytest.mark.parametrize("case", CASES, ids=[c["source"].strip().splitlines()[0][:60]
                                             for c in CASES])
def test_matches_mindspore(case):
    env = _env()
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"])):
            golden.run_case(case["source"], env)
        return
    got = golden.describe(golden.run_case(case["source"], env), ms)
    _close(got, case["result"], "result")


def test_t_of_rank_three_is_refused():
    """``Tensor.t`` is defined for rank <= 2; MindSpore 2.10's CPU build returns a rank-3
    input unchanged, which reads as a transpose that did not happen."""
    with pytest.raises(ValueError, match="rank at most 2"):
        ms.Tensor(np.arange(8.).reshape(2, 2, 2)).t()


def _loops(x):
    """A Tensor-valued while condition and Tensor fori bounds: lax loops inside a graph."""
    a = ops.WhileLoop()(lambda v: v.sum() < 50, lambda v: v * 2 + 1, x)
    b = ops.ForiLoop()(ms.Tensor(0), ms.Tensor(3), lambda i, v: v + i.astype(ms.float32), a)
    c, ys = ops.Scan()(lambda c, t: (c + t, c * t), x.sum(), [a, b])
    return a, b, c, ys[1]


def test_loop_primitives_agree_in_every_mode(jit_mode):
    from modes import make
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    want = [t.asnumpy() for t in _loops(x)]
    got = [t.asnumpy() for t in make(_loops, jit_mode)(x)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
