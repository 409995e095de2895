"""Loss scaling against MindSpore 2.10 (``tests/golden/make_loss_scale.py``): the
overflow flag, the scale and the skipped update of every step of
``TrainOneStepWithLossScaleCell`` (dynamic and fixed, float32, float16, and
bfloat16 against the same schedule), the managers' and ``amp.DynamicLossScaler``'s
scale sequences, ``amp.all_finite``, and ``Model`` with a loss-scale manager."""
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_loss_scale as L  # noqa: E402

with open(os.path.join(GOLDEN, "loss_scale.json")) as fh:
    DATA = json.load(fh)


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _params(got, want, rtol, atol):
    assert sorted(got) == sorted(want)
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, rtol=rtol, atol=atol, err_msg=name)


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.slow) if c.endswith("graph") and "dynamic_float32" not in c
    else c for c in sorted(DATA["cases"])])
def test_loss_scale_steps_match_mindspore(case):
    kind, dtype, mode = case.split("_")
    got = L.run(ms, DATA["data"], kind, dtype, mode == "graph")
    want = DATA["cases"][case]
    # overflow flags and scales exactly: overflowing steps are skipped, the scale moves
    assert [s[1:] for s in got["steps"]] == [s[1:] for s in want["steps"]]
    tol = (2e-5, 2e-6) if dtype == "float32" else (5e-3, 5e-3)
    for g, w in zip(got["steps"], want["steps"]):
        if not w[1]:  # an overflowing step's loss follows each backend's float16 cast
            np.testing.assert_allclose(g[0], w[0], rtol=tol[0], atol=tol[1])
    _params(got["params"], want["params"], *tol)


@pytest.mark.parametrize("graph", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["pynative", "graph"])
def test_bfloat16_follows_the_same_schedule(graph):
    got = L.run(ms, DATA["data"], "dynamic", "bfloat16", graph)
    want = DATA["cases"]["dynamic_float32_pynative"]
    assert [s[1:] for s in got["steps"]] == [s[1:] for s in want["steps"]]
    for g, w in zip(got["steps"], want["steps"]):
        if not w[1]:
            np.testing.assert_allclose(g[0], w[0], rtol=5e-2)
    _params(got["params"], want["params"], 5e-2, 5e-2)


def test_managers_scaler_and_all_finite_match_mindspore():
    assert L.managers(ms) == DATA["managers"]


def test_model_with_fixed_loss_scale_manager_matches_mindspore():
    got = L.run_model(ms, DATA["data"])
    want = DATA["model"]
    assert got["train_network"] == want["train_network"]
    np.testing.assert_allclose(got["losses"], want["losses"], rtol=2e-5)
    _params(got["params"], want["params"], 1e-4, 2e-6)


def test_model_with_dynamic_manager_skips_overflowing_steps():
    """MindSpore refuses this on CPU; msxla runs the loss-scale cell everywhere and the
    manager's Python-side scale follows the cell's overflow flags."""
    data = DATA["data"]
    net = L.make_net(ms, data)
    opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)
    manager = ms.train.DynamicLossScaleManager(init_loss_scale=2 ** 12, scale_factor=2,
                                               scale_window=2)
    model = ms.train.Model(net, ms.nn.MSELoss(), opt, loss_scale_manager=manager)
    assert type(model.train_network).__name__ == "TrainOneStepWithLossScaleCell"
    x, y = np.asarray(data["x"], np.float32), np.asarray(data["y"], np.float32)
    batches = [(np.full_like(x[i], 1e30) if i in L.OVERFLOW_STEPS else x[i], y[i])
               for i in range(6)]
    model.train(1, batches)
    want = DATA["cases"]["dynamic_float32_pynative"]
    assert float(model.train_network.scale_sense.asnumpy()) == want["steps"][-1][2]
    assert manager.get_loss_scale() == want["steps"][-1][2]
    for name in ("0.weight", "2.bias"):
        np.testing.assert_allclose(net.parameters_dict()[name].asnumpy(), want["params"][name],
                                   rtol=1e-4, atol=2e-6)
