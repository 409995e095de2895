"""Neural-network ops against MindSpore 2.10's results (tests/golden/nn_ops.json, written by
tests/golden/make_nn_ops.py): interpolation modes, gelu's tanh form, cross entropy with
label smoothing / ignore_index, batch_norm training outputs and running-stat updates,
ceil-mode and 'same' pooling, adaptive pools, convolutions and their transposes, ...

Each case is an expression over fixed inputs evaluated with msxla; outputs must match in
dtype, shape and values, and failing calls must raise the same builtin exception class.
"""
import builtins
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "nn_ops.json")))


def _namespace():
    ns = {"ms": ms, "ops": ops, "Tensor": Tensor, "Parameter": Parameter, "np": np}
    for name, spec in GOLDEN["inputs"].items():
        ns[name] = Tensor(np.array(spec["values"], dtype=spec["dtype"]).reshape(spec["shape"]))
    ns["rm"] = Parameter(Tensor(np.zeros(3, np.float32)), name="rm")
    ns["rv"] = Parameter(Tensor(np.ones(3, np.float32)), name="rv")
    return ns


def _check(got, want, expr):
    if "seq" in want:
        assert isinstance(got, (tuple, list)), f"{expr}: expected a sequence, got {got!r}"
        assert len(got) == len(want["seq"]), f"{expr}: length {len(got)} != {len(want['seq'])}"
        for g, w in zip(got, want["seq"]):
            _check(g, w, expr)
        return
    assert isinstance(got, Tensor), f"{expr}: expected a Tensor, got {type(got).__name__}"
    assert str(got.dtype) == want["dtype"], f"{expr}: dtype {got.dtype} != {want['dtype']}"
    assert list(got.shape) == want["shape"], f"{expr}: shape {got.shape} != {want['shape']}"
    arr = got.asnumpy()
    vals = np.nan_to_num(arr.astype(np.int64 if arr.dtype == np.bool_ else np.float64), nan=0.0)
    tol = 3e-3 if want["dtype"] in ("Float16", "BFloat16") else 2e-5
    np.testing.assert_allclose(vals.reshape(-1), np.array(want["values"]), rtol=tol, atol=tol,
                               err_msg=expr)


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["expr"][:80])
def test_matches_mindspore(case):
    ns = _namespace()
    expr = case["expr"]
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"])):
            eval(expr, ns)  # noqa: S307 - expressions from the committed golden file
        return
    _check(eval(expr, ns), case["out"], expr)  # noqa: S307
