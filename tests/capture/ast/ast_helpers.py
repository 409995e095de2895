"""Helpers of the ast tests: run a coverage case, compare results, check errors."""
import json
import os

import numpy as np
import pytest
from ast_cases import cases, run

import msxla as ms

CASES = cases(ms)
_GOLDEN_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "golden", "ast_syntax.json")
_golden = {}


def golden(name):
    """MindSpore 2.10's results for case ``name`` (tests/golden/ast_syntax.json)."""
    if not _golden:
        with open(_GOLDEN_PATH) as fh:
            _golden.update(json.load(fh)["cases"])
    return _golden[name]


def same(actual, expected, path="result", numeric_scalars=False):
    """Encoded results are equal: structure, dtypes, shapes, values (float tolerance).
    ``numeric_scalars``: a 0-d Tensor and a Python number of the same value match."""
    if numeric_scalars and _scalar(actual) is not None and _scalar(expected) is not None:
        assert np.isclose(_scalar(actual), _scalar(expected)), f"{path}: {actual} != {expected}"
        return
    if "exc" in expected:
        names = [actual.get("exc")] + actual.get("bases", [])
        assert expected["exc"] in names, f"{path}: {actual} != {expected}"
        return
    assert set(actual) == set(expected), f"{path}: {actual} != {expected}"
    if "tensor" in expected:
        assert actual["dtype"] == expected["dtype"], f"{path}: {actual['dtype']} != " \
                                                     f"{expected['dtype']}"
        assert actual["shape"] == expected["shape"], f"{path}: shape {actual['shape']}"
        np.testing.assert_allclose(np.asarray(actual["tensor"], np.float64),
                                   np.asarray(expected["tensor"], np.float64),
                                   rtol=1e-5, atol=1e-6, err_msg=path)
    else:
        key = next(iter(expected))
        a, e = actual[key], expected[key]
        if key in ("tuple", "list", "dict"):
            assert len(a) == len(e), f"{path}: {a} != {e}"
            for i, (x, y) in enumerate(zip(a, e)):
                if key == "dict":
                    assert x[0] == y[0], f"{path}: keys {x[0]} != {y[0]}"
                    x, y = x[1], y[1]
                same(x, y, f"{path}[{i}]", numeric_scalars)
        elif key == "state":
            same(a, e, f"{path}.state", numeric_scalars)
        else:
            assert type(a) is type(e) and a == e, f"{path}: {a!r} != {e!r}"


def _scalar(enc):
    if "py" in enc and isinstance(enc["py"], (bool, int, float)):
        return float(enc["py"])
    if "tensor" in enc and enc["shape"] == []:
        return float(enc["tensor"])
    return None


def check_case(name, fullgraph, differs=None):
    """Run ``name`` jitted (ast) and in PyNative; compare with each other and, unless
    msxla knowingly ``differs`` from MindSpore there, with MindSpore's golden.

    A 0-d Tensor and a Python scalar of the same value match: MindSpore's graphs
    give ``not t`` / ``t > 0 and ...`` as bool Tensors where PyNative gives bools.
    ``differs`` starting with "error:" means the jitted run is expected to raise."""
    case = CASES[name]
    if fullgraph not in case.fullgraph:
        pytest.skip("not run at this fullgraph value")
    jitted = run(ms, case, {"fullgraph": fullgraph, "capture_mode": "ast"})
    if not case.graph_mode:
        eager = run(ms, CASES[name], None)
        expected_failure = differs if isinstance(differs, str) and differs.startswith("error:") \
            else None
        if expected_failure is None:
            assert len(jitted) == len(eager)
            for i, (a, e) in enumerate(zip(jitted, eager)):
                same(a, e, f"{name} call {i} vs PyNative", numeric_scalars=True)
    expected = golden(name)[f"fullgraph={fullgraph}"]
    if differs is None:
        assert len(jitted) == len(expected)
        for i, (a, g) in enumerate(zip(jitted, expected)):
            same(a, g, f"{name} call {i} vs MindSpore", numeric_scalars=True)
    return jitted, expected


def assert_user_error(err, cls, filename, line, text, wording, caret=None):
    """``err`` is a ``cls`` naming ``filename:line`` with the source ``text`` and
    ``wording``; ``caret`` (if given) is the expression the caret must underline."""
    msg = str(err)
    assert isinstance(err, cls), f"{type(err).__name__} is not a {cls.__name__}: {msg}"
    assert f'File "{filename}", line {line}' in msg, msg
    assert text in msg, msg
    assert wording in msg, msg
    if caret is not None:
        lines = msg.split("\n")
        idx = next(i for i, ln in enumerate(lines) if ln.strip() == text.strip())
        stripped = text.strip()
        want = "    " + " " * stripped.index(caret) + "^" * len(caret)
        assert lines[idx + 1].rstrip() == want, f"caret {lines[idx + 1]!r} in\n{msg}"


def line_of(fn, text):
    """The file line of the first source line of ``fn`` containing ``text``."""
    import inspect
    src, first = inspect.getsourcelines(fn)
    for i, ln in enumerate(src):
        if text in ln:
            return first + i
    raise AssertionError(text)
