"""Initializers against MindSpore 2.10: dtypes, shapes, exact values and sample statistics.

Random draws cannot match MindSpore's (different generators), so random
initializers are compared through statistics of a large sample (mean, std,
bounds, sparsity, orthogonality) with the goldens of
``tests/golden/make_initializer.py``; deterministic ones must match exactly.
"""
import json
import math
import os
import sys

import numpy as np
import pytest

import msxla as ms
from msxla.common import initializer as init_module

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
sys.path.insert(0, GOLDEN)

import make_initializer as mi  # noqa: E402

with open(os.path.join(GOLDEN, "initializer.json")) as fh:
    DATA = json.load(fh)

BOUNDED = {"uniform", "uniform_alias", "truncated_normal", "xavier_uniform", "he_uniform",
           "he_uniform_alias", "variance_scaling", "variance_scaling_uniform"}


@pytest.mark.parametrize("name", sorted(mi.RANDOM))
def test_random_initializer_statistics(name):
    ms.set_seed(11)
    want = DATA["random"][name]
    t = mi.run(ms, *mi.RANDOM[name])
    assert str(t.dtype) == want["dtype"] and list(t.shape) == want["shape"]
    got = mi.sample_stats(mi.to_float(t), name)
    n = int(np.prod(want["shape"]))
    assert abs(got["mean"] - want["mean"]) <= 6 * want["std"] / math.sqrt(n) + 1e-6
    assert got["std"] == pytest.approx(want["std"], rel=0.02)
    span = want["max"] - want["min"]
    if name in BOUNDED:
        assert got["min"] == pytest.approx(want["min"], abs=0.01 * span)
        assert got["max"] == pytest.approx(want["max"], abs=0.01 * span)
    else:
        assert want["min"] - 0.5 * span < got["min"] < want["mean"] < got["max"] < \
            want["max"] + 0.5 * span
    for key in ("zeros_per_column",):
        if key in want:
            assert got[key] == want[key]
    if "gram_diag" in want:
        assert got["gram_diag"] == pytest.approx(want["gram_diag"], rel=1e-5)
        assert got["gram_offdiag"] < 1e-5


@pytest.mark.parametrize("name", sorted(mi.EXACT))
def test_deterministic_initializer_values(name):
    want = DATA["exact"][name]
    t = mi.run(ms, *mi.EXACT[name])
    assert str(t.dtype) == want["dtype"] and list(t.shape) == want["shape"]
    np.testing.assert_array_equal(mi.to_float(t), np.asarray(want["values"]))


@pytest.mark.parametrize("code", sorted(mi.ERRORS))
def test_errors_match_mindspore(code):
    assert mi.run_error(ms, code) == DATA["errors"][code]


def test_aliases_and_exports_match_mindspore():
    assert sorted(init_module._INITIALIZER_ALIAS) == DATA["aliases"]
    assert sorted(init_module.__all__) == DATA["all"]


def test_seeded_draws_repeat_and_tensor_init_is_returned_as_is():
    ms.set_seed(3)
    a = init_module.initializer("normal", (4, 5)).asnumpy()
    ms.set_seed(3)
    b = init_module.initializer("normal", (4, 5)).asnumpy()
    np.testing.assert_array_equal(a, b)
    t = ms.Tensor(np.ones((2, 2), np.float32))
    assert init_module.initializer(t, (2, 2), ms.float16) is t
    arr = np.zeros((3, 3))
    init_module.Identity()(arr)  # MindSpore's form: fill an array in place
    np.testing.assert_array_equal(arr, np.eye(3))
