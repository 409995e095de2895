"""Neural-network ops against MindSpore 2.10's results (tests/golden/nn_ops.json, written by
tests/golden/make_nn_ops.py): interpolation modes, gelu's tanh form, cross entropy with
label smoothing / ignore_index, batch_norm training outputs and running-stat updates,
ceil-mode and 'same' pooling, adaptive pools, convolutions and their transposes, ...

Each case is an expression over fixed inputs evaluated with msxla; outputs must match in
dtype, shape and values, and failing calls must raise the same builtin exception class.
"""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops
import golden_cases

GOLDEN = golden_cases.load("nn_ops.json")


def _namespace():
    ns = {"ms": ms, "ops": ops, "Tensor": Tensor, "Parameter": Parameter, "np": np}
    ns.update({k: Tensor(v) for k, v in golden_cases.inputs(GOLDEN).items()})
    ns["rm"] = Parameter(Tensor(np.zeros(3, np.float32)), name="rm")
    ns["rv"] = Parameter(Tensor(np.ones(3, np.float32)), name="rv")
    return ns


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["expr"][:80])
def test_matches_mindspore(case):
    golden_cases.run_case(case, _namespace(), tol=2e-5, half_tol=3e-3, nan_as_zero=True)
