"""Optimizers against MindSpore 2.10: 5 training steps of a tiny MLP per configuration.

The goldens (losses per step, final Parameters, the optimizer's Parameter
names) come from ``tests/golden/make_optim.py``; this file builds the same
network and optimizers with msxla from the same stored numpy data.
"""
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_optim  # noqa: E402

with open(os.path.join(GOLDEN, "optim.json")) as fh:
    DATA = json.load(fh)
ARRAYS = {k: np.asarray(v, dtype=np.float32) for k, v in DATA["data"].items()}


@pytest.mark.parametrize("name", sorted(DATA["cases"]))
def test_matches_mindspore(name):
    golden = DATA["cases"][name]
    losses, final, names, returned = make_optim.train(ms, ARRAYS, name)
    np.testing.assert_allclose(losses, golden["losses"], rtol=1e-5, atol=1e-6)
    for pname, value in golden["params"].items():
        np.testing.assert_allclose(final[pname], np.asarray(value, np.float32), rtol=1e-5,
                                   atol=1e-6, err_msg=pname)
    assert names == golden["opt_param_names"]
    assert returned == golden["returns"]


def test_goldens_cover_every_config():
    assert set(DATA["cases"]) == set(make_optim.CONFIGS)
