"""``Model.train`` / ``fit`` / ``eval`` / ``predict`` against MindSpore 2.10.

The goldens come from ``tests/golden/make_model_train.py``; the same ``run``
code trains msxla here. Sink mode is checked against the per-step goldens of
the same batches (MindSpore's CPU build does not sink), and its callback view
(one step per sink in GRAPH_MODE, every step in PyNative; epochs of
``sink_size`` steps) against MindSpore's sink-mode loop.
"""
import json
import os
import re
import sys

import numpy as np
import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_model_train as M  # noqa: E402

with open(os.path.join(GOLDEN, "model_train.json")) as fh:
    DATA = json.load(fh)

LINE = re.compile(r"^epoch: (\d+) step: (\d+), loss is ([-\d.e+]+)$")


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _check_params(got, want, rtol=1e-4, atol=2e-5):
    assert sorted(got) == sorted(want)
    for name, value in want.items():
        np.testing.assert_allclose(got[name], np.asarray(value, np.float32), rtol=rtol,
                                   atol=atol, err_msg=name)


def _parse(lines):
    out = []
    for line in lines:
        m = LINE.match(line)
        assert m, line
        out.append((int(m.group(1)), int(m.group(2)), float(m.group(3))))
    return out


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("kind", ["mlp", pytest.param("cnn", marks=pytest.mark.slow)])
def test_train_eval_predict_match_mindspore(kind, graph):
    golden = DATA["cases"][f"{kind}_{'graph' if graph else 'pynative'}"]
    got = M.run(ms, kind, DATA["data"][kind], DATA["weights"][kind], graph)
    np.testing.assert_allclose(got["losses"], golden["losses"], rtol=2e-5, atol=2e-6)
    _check_params(got["params"], golden["params"])
    assert got["eval"].keys() == golden["eval"].keys()
    assert got["eval"]["acc"] == golden["eval"]["acc"]
    np.testing.assert_allclose(got["eval"]["loss"], golden["eval"]["loss"], rtol=2e-5)
    np.testing.assert_allclose(got["predict"], golden["predict"], rtol=1e-4, atol=2e-5)
    printed, want = _parse(got["printed"]), _parse(golden["printed"])
    assert [p[:2] for p in printed] == [w[:2] for w in want]
    np.testing.assert_allclose([p[2] for p in printed], [w[2] for w in want], rtol=2e-5)


@pytest.mark.parametrize("kind", ["mlp", pytest.param("cnn", marks=pytest.mark.slow)])
def test_graph_sink_runs_the_same_steps_in_one_executable_per_sink(kind):
    golden = DATA["cases"][f"{kind}_sink_equiv"]  # 8 steps over the 4 batches, twice
    ms.set_context(mode=ms.GRAPH_MODE)
    got = M.run(ms, kind, DATA["data"][kind], DATA["weights"][kind], True, sink=True, epochs=4,
                sink_size=2)
    _check_params(got["params"], golden["params"])
    # one step_end per sink: the last step of each sink, steps counted by sink_size
    printed = _parse(got["printed"])
    assert [p[:2] for p in printed] == [(1, 2), (2, 2), (3, 2), (4, 2)]
    np.testing.assert_allclose(got["losses"], golden["losses"][1::2], rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose([p[2] for p in printed], golden["losses"][1::2], rtol=2e-5)


def test_pynative_sink_shows_every_step_in_epochs_of_sink_size():
    golden = DATA["cases"]["mlp_sink_equiv"]
    got = M.run(ms, "mlp", DATA["data"]["mlp"], DATA["weights"]["mlp"], False, sink=True,
                epochs=4, sink_size=2)
    _check_params(got["params"], golden["params"])
    printed = _parse(got["printed"])
    assert [p[:2] for p in printed] == [(e, s) for e in (1, 2, 3, 4) for s in (1, 2)]
    np.testing.assert_allclose(got["losses"], golden["losses"], rtol=2e-5, atol=2e-6)


def test_fit_stages_and_fields_match_mindspore():
    golden = DATA["fit"]
    got = M.run_fit(ms, "mlp", DATA["data"]["mlp"], DATA["weights"]["mlp"])
    keys = ("stage", "epoch", "step", "batch_num", "epoch_num", "mode", "sink")
    assert [tuple(e[k] for k in keys) for e in got["stages"]] == \
        [tuple(e[k] for k in keys) for e in golden["stages"]]
    for g, w in zip(got["stages"], golden["stages"]):
        if w["loss"] is not None:
            np.testing.assert_allclose(g["loss"], w["loss"], rtol=2e-5, atol=2e-6)
        assert g["metrics"].keys() == w["metrics"].keys()
        for k in w["metrics"]:
            np.testing.assert_allclose(g["metrics"][k], w["metrics"][k], rtol=2e-5)
        # eval_loss: msxla averages every batch; MindSpore 2.10 keeps only the last
        # batch's loss (it makes a new Loss metric per batch), a documented difference
        assert g["eval_results"].keys() == w["eval_results"].keys()
        if "eval_loss" in g["eval_results"]:
            np.testing.assert_allclose(g["eval_results"]["eval_loss"], w["metrics"]["loss"],
                                       rtol=2e-5)
    assert len(got["printed"]) == len(golden["printed"])
    for g, w in zip(got["printed"], golden["printed"]):
        if w.startswith("Eval result"):
            head = w.split("{")[0]
            assert g.startswith(head)
            got_m = eval(g[len(head):])  # noqa: S307 - the printed dict of floats
            want_m = eval(w[len(head):])  # noqa: S307
            assert got_m.keys() == want_m.keys()
            for k in want_m:
                np.testing.assert_allclose(got_m[k], want_m[k], rtol=2e-5)
        else:
            assert _parse([g])[0][:2] == _parse([w])[0][:2]


def test_request_stop_and_initial_epoch_match_mindspore():
    got = M.run_stop(ms, "mlp", DATA["data"]["mlp"], DATA["weights"]["mlp"])
    assert got == DATA["stop"]


def test_history_lr_scheduler_plateau_and_early_stopping_match_mindspore():
    got = M.run_callbacks(ms, DATA["data"]["mlp"], DATA["weights"]["mlp"])
    want = DATA["callbacks"]
    assert got["epochs"] == want["epochs"]
    assert got["lrs"] == want["lrs"]
    np.testing.assert_allclose(got["epoch_lr"], want["epoch_lr"], rtol=1e-6)
    assert got["stopped_epoch"] == want["stopped_epoch"] and got["best"] == want["best"]
    assert got["printed"] == want["printed"]
    assert got["history"].keys() == want["history"].keys()
    for key, values in want["history"].items():
        np.testing.assert_allclose(got["history"][key], values, rtol=2e-5, err_msg=key)


def test_mindspore_dataset_objects_train_the_same(monkeypatch):
    import msxla.dataset as ds

    def dataset(ms_, data):
        x, y = np.asarray(data["x"], np.float32), np.asarray(data["y"], np.int32)
        return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(6)

    monkeypatch.setattr(M, "dataset", dataset)
    golden = DATA["cases"]["mlp_pynative"]
    got = M.run(ms, "mlp", DATA["data"]["mlp"], DATA["weights"]["mlp"], False)
    np.testing.assert_allclose(got["losses"], golden["losses"], rtol=2e-5, atol=2e-6)
    _check_params(got["params"], golden["params"])
    assert got["eval"]["acc"] == golden["eval"]["acc"]
