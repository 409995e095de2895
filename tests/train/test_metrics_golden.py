"""Every metric at ``mindspore.train`` (and ``mindspore.nn``) against MindSpore 2.10
on the fixed inputs of ``tests/golden/make_metrics.py``."""
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms
import msxla.train as train

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_metrics  # noqa: E402

with open(os.path.join(GOLDEN, "metrics.json")) as fh:
    DATA = json.load(fh)
CASES = make_metrics.cases()


def _close(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9, equal_nan=True)


@pytest.mark.parametrize("index", range(len(CASES)),
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_metric_matches_mindspore(index):
    with np.errstate(invalid="ignore", divide="ignore"):
        got = make_metrics.compute(train, CASES[index])
    _close(got, DATA["results"][index])


def test_tensors_give_the_same_results_as_arrays():
    case = CASES[0]
    metric = train.Accuracy()
    for pred, label in case[2]:
        metric.update(ms.Tensor(pred), ms.Tensor(label))
    assert metric.eval() == DATA["results"][0]


def test_auc_and_indexes_match_mindspore():
    np.testing.assert_allclose(make_metrics.auc_cases(train), DATA["auc"], rtol=1e-12)
    idx = train.Accuracy().set_indexes([2, 1])
    idx.update(np.zeros(3), np.array([1, 0]), np.array([[0.1, 0.9], [0.8, 0.2]]))
    assert idx.eval() == DATA["indexed"]


def test_errors_match_mindspore():
    got, want = make_metrics.errors(train), dict(DATA["errors"])
    # the message shows a set of names, printed in the process's hash order
    for key in ("eval_type",):
        assert got.pop(key)[0] == want.pop(key)[0]
    assert got == want


def test_names_and_both_paths():
    missing = {"hausdorff_distance", "mean_surface_distance", "root_mean_square_distance",
               "occlusion_sensitivity"}  # not implemented
    assert set(train.names()) == set(DATA["names"]) - missing
    for name in ("Accuracy", "Precision", "Recall", "F1", "Fbeta", "MAE", "MSE", "Loss", "Dice",
                 "ROC", "auc", "ConfusionMatrix", "ConfusionMatrixMetric",
                 "Top1CategoricalAccuracy", "Metric",
                 "get_metric_fn", "names", "rearrange_inputs"):
        assert getattr(ms.nn, name) is getattr(train, name) is getattr(ms, name)
    assert isinstance(train.get_metric_fn("top_5_accuracy"), train.Top5CategoricalAccuracy)


def test_scalar_results_print_like_mindspore():
    acc = train.Accuracy()
    acc.update(np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 1]))
    assert repr({"acc": acc.eval()}) == "{'acc': 0.5}"
