"""Write tests/golden/metrics.json: every metric on fixed inputs, in MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_metrics.py``.

``CASES`` lists (metric name, constructor kwargs, batches of update inputs,
eval kwargs); inputs come from a fixed seed and are stored, results are stored
as nested lists. ``compute(train_module, case)`` runs one case with the given
framework, so ``tests/train/test_metrics_golden.py`` runs msxla on the same
inputs. Also stored: ``names()`` and the errors of a few bad calls.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def _inputs():
    rng = np.random.default_rng(11)
    logits = [rng.standard_normal((8, 5)).astype(np.float32) for _ in range(3)]
    labels = [rng.integers(0, 5, 8).astype(np.int32) for _ in range(3)]
    onehot = [np.eye(5, dtype=np.float32)[y] for y in labels]
    multi_pred = [(rng.random((6, 4)) > 0.5).astype(np.float32) for _ in range(2)]
    multi_true = [(rng.random((6, 4)) > 0.5).astype(np.float32) for _ in range(2)]
    reg_pred = [rng.standard_normal((7, 3)).astype(np.float32) for _ in range(2)]
    reg_true = [rng.standard_normal((7, 3)).astype(np.float32) for _ in range(2)]
    losses = [np.asarray(rng.random(), np.float32), rng.random(4).astype(np.float32)]
    seg_pred = [rng.random((2, 6, 6)).astype(np.float32) for _ in range(2)]
    seg_true = [(rng.random((2, 6, 6)) > 0.5).astype(np.float32) for _ in range(2)]
    scores = rng.random(12).astype(np.float32)
    binary = np.array([0, 1] * 6, np.int32)
    probs = rng.random((10, 4)).astype(np.float32)
    probs = probs / probs.sum(-1, keepdims=True)
    tokens = rng.integers(0, 4, 10).astype(np.int32)
    square = rng.random((4, 4)).astype(np.float32)
    return locals()


def cases():
    i = _inputs()
    pairs = lambda a, b: [[x, y] for x, y in zip(i[a], i[b])]  # noqa: E731
    return [
        ("Accuracy", {}, pairs("logits", "labels"), {}),
        ("Accuracy", {}, pairs("logits", "onehot"), {}),
        ("Accuracy", {"eval_type": "multilabel"}, pairs("multi_pred", "multi_true"), {}),
        ("Top1CategoricalAccuracy", {}, pairs("logits", "labels"), {}),
        ("Top5CategoricalAccuracy", {}, pairs("logits", "labels"), {}),
        ("TopKCategoricalAccuracy", {"k": 3}, pairs("logits", "onehot"), {}),
        ("Loss", {}, [[x] for x in i["losses"]], {}),
        ("MAE", {}, pairs("reg_pred", "reg_true"), {}),
        ("MSE", {}, pairs("reg_pred", "reg_true"), {}),
        ("Precision", {}, pairs("logits", "labels"), {}),
        ("Precision", {}, pairs("logits", "labels"), {"average": True}),
        ("Precision", {"eval_type": "multilabel"}, pairs("multi_pred", "multi_true"), {}),
        ("Precision", {"eval_type": "multilabel"}, pairs("multi_pred", "multi_true"),
         {"average": True}),
        ("Recall", {}, pairs("logits", "labels"), {}),
        ("Recall", {}, pairs("logits", "onehot"), {"average": True}),
        ("Recall", {"eval_type": "multilabel"}, pairs("multi_pred", "multi_true"),
         {"average": True}),
        ("F1", {}, pairs("logits", "labels"), {}),
        ("Fbeta", {"beta": 0.5}, pairs("logits", "labels"), {"average": True}),
        ("Dice", {}, pairs("seg_pred", "seg_true"), {}),
        ("Dice", {"smooth": 0.5}, pairs("seg_pred", "seg_true"), {}),
        ("ConfusionMatrix", {"num_classes": 5}, pairs("logits", "labels"), {}),
        ("ConfusionMatrix", {"num_classes": 5, "normalize": "target"}, pairs("logits", "labels"),
         {}),
        ("ConfusionMatrix", {"num_classes": 5, "normalize": "prediction"},
         pairs("logits", "labels"), {}),
        ("ConfusionMatrix", {"num_classes": 5, "normalize": "all"}, pairs("logits", "labels"), {}),
        ("ConfusionMatrix", {"num_classes": 2, "threshold": 0.4},
         [[i["scores"], i["binary"]]], {}),
        ("ROC", {"pos_label": 1}, [[i["scores"], i["binary"]]], {}),
        ("ROC", {"class_num": 4}, [[i["square"], np.array([0, 1, 2, 3], np.int32)]], {}),
        ("Perplexity", {}, [[i["probs"], i["tokens"]]], {}),
        ("Perplexity", {"ignore_label": 2}, [[i["probs"], i["tokens"]]], {}),
        ("CosineSimilarity", {}, [[i["reg_pred"][0]]], {}),
        ("CosineSimilarity", {"similarity": "dot", "reduction": "mean"}, [[i["reg_pred"][0]]],
         {}),
        ("BleuScore", {}, [[[["the", "cat", "sat", "on", "the", "mat"]],
                            [[["the", "cat", "is", "on", "the", "mat"],
                              ["there", "is", "a", "cat", "on", "the", "mat"]]]]], {}),
        ("BleuScore", {"n_gram": 2, "smooth": True},
         [[[["a", "b", "c", "d"], ["b", "c"]], [[["a", "b", "d"]], [["b", "c", "a"]]]]], {}),
    ]


def to_list(value):
    if isinstance(value, (tuple, list)):
        return [to_list(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def compute(train, case):
    """One case with the framework's ``train`` module: the result of ``eval``."""
    name, kwargs, batches, eval_kwargs = case
    metric = getattr(train, name)(**kwargs)
    for batch in batches:
        metric.update(*batch)
    return to_list(metric.eval(**eval_kwargs))


def auc_cases(train):
    x = np.array([0.0, 0.1, 0.4, 0.4, 1.0])
    y = np.array([0.0, 0.5, 0.6, 0.9, 1.0])
    fpr, tpr, _ = train.ROC(pos_label=1)(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
    return [float(train.auc(x, y)), float(train.auc(x[::-1], y[::-1])),
            float(train.auc(np.array([1.0, 0.0, 0.5]), np.array([1.0, 0.0, 0.2]), reorder=True)),
            float(train.auc(fpr, tpr))]


def errors(train):
    out = {}
    for key, call in [
        ("accuracy_empty", lambda: train.Accuracy().eval()),
        ("accuracy_inputs", lambda: train.Accuracy().update(np.zeros((2, 3)))),
        ("topk_k", lambda: train.TopKCategoricalAccuracy(0)),
        ("get_metric_fn", lambda: train.get_metric_fn("nope")),
        ("indexes", lambda: train.Accuracy().set_indexes((0, 1))),
        ("eval_type", lambda: train.Accuracy("nope")),
    ]:
        try:
            call()
            out[key] = None
        except Exception as err:  # noqa: BLE001 - the golden records it
            out[key] = [type(err).__name__, str(err)]
    return out


def main():
    import mindspore.train as train
    results = [compute(train, c) for c in cases()]
    idx = train.Accuracy().set_indexes([2, 1])
    idx.update(np.zeros(3), np.array([1, 0]), np.array([[0.1, 0.9], [0.8, 0.2]]))
    out = {"results": results, "auc": auc_cases(train), "errors": errors(train),
           "indexed": idx.eval(), "names": train.names()}
    with open(os.path.join(HERE, "metrics.json"), "w") as fh:
        json.dump(out, fh, sort_keys=True)
    for c, r in zip(cases(), results):
        print(c[0], c[1], c[3], str(r)[:80])


if __name__ == "__main__":
    sys.exit(main())
