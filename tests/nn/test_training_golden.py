"""Training against MindSpore 2.10: 5 steps of an MLP and of a CNN (Conv2d, BatchNorm2d,
ReLU, MaxPool2d, Dense) with SGD, Momentum and Adam, in MindSpore's canonical
value_and_grad + optimizer loop, eagerly and with the step under ``ms.jit``.

The goldens (losses per step, every final Parameter including BatchNorm's
moving statistics) come from ``tests/golden/make_training.py``.
"""
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_training  # noqa: E402

with open(os.path.join(GOLDEN, "training.json")) as fh:
    DATA = json.load(fh)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("case", sorted(DATA["cases"]))
def test_training_matches_mindspore(case, jit):
    kind, opt_name = case.split("_", 1)
    golden = DATA["cases"][case]
    losses, final = make_training.train(ms, kind, opt_name, DATA["data"][kind], jit=jit)
    np.testing.assert_allclose(losses, golden["losses"], rtol=2e-5, atol=2e-6)
    assert sorted(final) == sorted(golden["params"])
    for name, value in golden["params"].items():
        np.testing.assert_allclose(final[name], np.asarray(value, np.float32), rtol=1e-4,
                                   atol=2e-5, err_msg=name)
    assert losses[-1] < losses[0]


def test_goldens_cover_every_configuration():
    want = {f"{k}_{o}" for k in make_training.NETS for o in make_training.OPTIMIZERS}
    assert set(DATA["cases"]) == want
    assert "3.moving_mean" not in DATA["cases"]["cnn_sgd"]["params"]
    assert "1.moving_mean" in DATA["cases"]["cnn_sgd"]["params"]
