"""Reading the expression-case goldens (tests/golden/*.json written through
tests/golden/expr_cases.py) and checking msxla against them.

Each case is an expression over fixed inputs; evaluated with ``import msxla as
ms`` it must give MindSpore 2.10's output (kind, dtype, shape, values) or raise
the same builtin exception class.
"""
import builtins
import json
import os

import numpy as np
import pytest

from msxla import Tensor

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")


def load(name):
    with open(os.path.join(GOLDEN_DIR, name)) as f:
        return json.load(f)


def inputs(golden):
    """The stored inputs as numpy arrays (with their NaNs put back)."""
    out = {}
    for name, spec in golden["inputs"].items():
        arr = np.array(spec["values"], dtype=spec["dtype"])
        if "shape" in spec:
            arr = arr.reshape(spec["shape"])
        for pos in spec.get("nan", ()):
            arr[tuple(pos)] = np.nan
        out[name] = arr
    return out


def check(got, want, expr, *, tol=1e-5, half_tol=2e-3, nan_as_zero=False):
    """``got`` (msxla's output) against ``want`` (the stored one). ``nan_as_zero``:
    the file stored NaN as 0, so NaN in ``got`` is compared as 0."""
    if "seq" in want:
        assert isinstance(got, (tuple, list)), f"{expr}: expected a sequence, got {got!r}"
        assert len(got) == len(want["seq"]), f"{expr}: length {len(got)} != {len(want['seq'])}"
        for g, w in zip(got, want["seq"]):
            check(g, w, expr, tol=tol, half_tol=half_tol, nan_as_zero=nan_as_zero)
        return
    if "mstype" in want:
        assert str(got) == want["mstype"], f"{expr}: {got} != {want['mstype']}"
        return
    if "py" in want:
        if "type" in want:
            assert type(got).__name__ == want["type"], f"{expr}: {type(got).__name__}"
        if _same(got, want["py"]):
            return
        np.testing.assert_allclose(got, want["py"], rtol=1e-6, err_msg=expr)
        return
    assert isinstance(got, Tensor), f"{expr}: expected a Tensor, got {type(got).__name__}"
    assert str(got.dtype) == want["dtype"], f"{expr}: dtype {got.dtype} != {want['dtype']}"
    assert list(got.shape) == want["shape"], f"{expr}: shape {got.shape} != {want['shape']}"
    arr = got.asnumpy()
    vals = arr.astype(np.int64 if arr.dtype == np.bool_ else np.float64).reshape(-1)
    if nan_as_zero:
        vals = np.nan_to_num(vals, nan=0.0)
    expected = np.array([np.nan if v is None else v for v in want["values"]], np.float64)
    t = half_tol if want["dtype"] in ("Float16", "BFloat16") else tol
    np.testing.assert_allclose(vals, expected, rtol=t, atol=t, err_msg=expr)


def _same(got, py):
    try:
        return bool(got == py) or list(got) == py
    except (TypeError, ValueError):
        return False


def run_case(case, ns, **check_options):
    """Evaluate one case's expression in ``ns`` and check it."""
    expr = case["expr"]
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"])):
            eval(expr, ns)  # noqa: S307 - expressions from the committed golden files
        return
    check(eval(expr, ns), case["out"], expr, **check_options)  # noqa: S307
