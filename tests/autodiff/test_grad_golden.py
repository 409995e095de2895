"""msxla's grad APIs against MindSpore 2.10 goldens (tests/golden/grad_api.json).

The cases live in ``grad_cases.py`` and are run unchanged on msxla; results
must match MindSpore's in structure (tuples, lists, Python values), dtype,
shape and value, and errors must have MindSpore's exception type.
"""
import builtins
import json
import os

import numpy as np
import pytest

import msxla as ms

from grad_cases import cases, encode

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden", "grad_api.json")
with open(GOLDEN) as fh:
    _G = json.load(fh)
DATA = {k: np.asarray(v, dtype=_G["dtypes"][k]) for k, v in _G["data"].items()}
CASES = cases(ms, DATA)


def _compare(actual, golden, path):
    kind = next(iter(k for k in ("tensor", "tuple", "list", "py") if k in golden))
    if kind == "tensor":
        assert isinstance(actual, ms.Tensor), f"{path}: expected a Tensor, got {actual!r}"
        assert str(actual.dtype) == golden["dtype"], \
            f"{path}: dtype {actual.dtype} != {golden['dtype']}"
        assert list(actual.shape) == golden["shape"], f"{path}: shape {actual.shape}"
        exp = np.asarray(golden["tensor"], dtype=np.float64 if golden["dtype"] != "Bool" else bool)
        tol = 2e-3 if golden["dtype"] == "Float16" else 1e-5
        np.testing.assert_allclose(actual.asnumpy().astype(exp.dtype), exp, rtol=tol, atol=tol,
                                   err_msg=path)
    elif kind in ("tuple", "list"):
        want = tuple if kind == "tuple" else list
        assert isinstance(actual, want), f"{path}: expected a {kind}, got {type(actual)}"
        assert len(actual) == len(golden[kind]), f"{path}: length {len(actual)}"
        for i, (a, g) in enumerate(zip(actual, golden[kind])):
            _compare(a, g, f"{path}[{i}]")
    else:
        assert not isinstance(actual, ms.Tensor) and actual == golden["py"], \
            f"{path}: {actual!r} != {golden['py']!r}"


def test_every_case_has_a_golden():
    assert set(CASES) == set(_G["cases"])


@pytest.mark.parametrize("name", sorted(n for n in _G["cases"] if "exc" not in _G["cases"][n]))
def test_result_matches_mindspore(name):
    _compare(CASES[name](), _G["cases"][name], name)


@pytest.mark.parametrize("name", sorted(n for n in _G["cases"] if "exc" in _G["cases"][n]))
def test_error_matches_mindspore(name):
    exc = getattr(builtins, _G["cases"][name]["exc"])
    with pytest.raises(exc):
        CASES[name]()


def test_encode_round_trip():
    # the encoder used for the goldens describes msxla values the same way
    t = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert encode((t, [1, None]), ms.Tensor) == {"tuple": [
        {"tensor": [1.0, 2.0], "dtype": "Float32", "shape": [2]},
        {"list": [{"py": 1}, {"py": None}]}]}
