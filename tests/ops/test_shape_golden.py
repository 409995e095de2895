"""Shape, creation and linalg calls against MindSpore 2.10's results (tests/golden/shape_ops.json).

Each golden case is an expression over fixed inputs, evaluated here with
``import msxla as ms``; outputs must match in dtype, shape and values, and
failing calls must raise the same builtin exception class.
"""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
import golden_cases

GOLDEN = golden_cases.load("shape_ops.json")
CASES = [c for c in GOLDEN["cases"]
         # einsum has no CPU kernel in MindSpore 2.10; it is checked against numpy instead
         if not (c.get("error") == "RuntimeError" and not c.get("message"))]


def _namespace():
    ns = {"ms": ms, "ops": ops, "Tensor": Tensor, "np": np}
    ns.update({k: Tensor(v) for k, v in golden_cases.inputs(GOLDEN).items()})
    return ns


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["expr"])
def test_matches_mindspore(case):
    golden_cases.run_case(case, _namespace(), half_tol=2e-3, nan_as_zero=True)
