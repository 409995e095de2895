"""Tensor and Parameter printing against MindSpore 2.10 goldens (``golden/printing.json``).

Every case rebuilds the same Tensor (same source array and dtype) and compares
``repr``, ``str``, ``f"{t}"`` and ``print(t)`` with MindSpore's exact strings.
"""
import contextlib
import io
import json
import os

import numpy as np
import pytest

import msxla as ms

with open(os.path.join(os.path.dirname(__file__), "golden", "printing.json")) as f:
    CASES = json.load(f)["cases"]


def source_array(case):
    """The numpy array a case starts from (as in ``make_printing.py``)."""
    shape = tuple(case["shape"])
    if case.get("arange"):
        n = int(np.prod(shape))
        return np.arange(n).astype(case["src_dtype"]).reshape(shape)
    return np.frombuffer(bytes.fromhex(case["hex"]), case["src_dtype"]).reshape(shape).copy()


def build(case):
    dtype = getattr(ms, "bool_" if case["dtype"] == "bool" else case["dtype"])
    t = ms.Tensor(source_array(case), dtype)
    if "param" in case:
        t = ms.Parameter(t, **case["param"])
    return t


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_printing_matches_mindspore(case):
    t = build(case)
    assert repr(t) == case["repr"]
    assert str(t) == case["str"]
    assert f"{t}" == case.get("format", case["str"])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(t)
    assert buf.getvalue() == case.get("print", case["str"] + "\n")


def test_goldens_cover_summarisation_and_special_values():
    reprs = "".join(c["repr"] for c in CASES)
    assert " ... " in reprs and "\n ...\n" in reprs and "-nan" in reprs and "inf" in reprs
