"""Write tests/golden/confusion_matrix_metric.json: MindSpore 2.10's
ConfusionMatrixMetric.eval() after two updates of fixed one-hot predictions and labels,
for several measures, decreases, calculation methods and skip_channel; and its errors.

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_confusion_matrix_metric.py
"""
import json
import os

import numpy as np
from mindspore.train import ConfusionMatrixMetric

rng = np.random.RandomState(8)
BATCHES = [(rng.randint(0, 2, (3, 4, 5, 5)), rng.randint(0, 2, (3, 4, 5, 5))) for _ in range(2)]
FLAT = [(rng.randint(0, 2, (6, 3)), rng.randint(0, 2, (6, 3)))]
NAMES = ["sensitivity", "specificity", "precision", "negative predictive value", "miss rate",
         "fall out", "false discovery rate", "false omission rate", "prevalence threshold",
         "threat score", "accuracy", "balanced accuracy", "f1 score",
         "matthews correlation coefficient", "fowlkes mallows index", "informedness",
         "markedness"]
CASES = ([{"metric_name": n} for n in NAMES]
         + [{"metric_name": n, "calculation_method": True} for n in NAMES]
         + [{"metric_name": "f1 score", "calculation_method": True, "decrease": d}
            for d in ("sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")]
         + [{"metric_name": "precision", "skip_channel": False},
            {"metric_name": "tpr", "skip_channel": False, "calculation_method": True}])


def value(kwargs, batches):
    try:
        m = ConfusionMatrixMetric(**kwargs)
        for yp, y in batches:
            m.update(yp, y)
        return {"value": np.asarray(m.eval(), float).reshape(-1).tolist()}
    except Exception as e:  # noqa: BLE001 - recorded
        return {"error": [type(e).__name__, str(e)]}


def main():
    out = {"batches": [[yp.tolist(), y.tolist()] for yp, y in BATCHES],
           "flat": [[yp.tolist(), y.tolist()] for yp, y in FLAT], "cases": []}
    for kwargs in CASES:
        out["cases"].append({"kwargs": kwargs, "result": value(kwargs, BATCHES),
                             "flat": value(kwargs, FLAT)})
    errors = []
    for kwargs in ({"metric_name": "foo"}, {"decrease": "max"}, {"skip_channel": 1}):
        errors.append({"kwargs": kwargs, "result": value(kwargs, BATCHES)})
    out["errors"] = errors
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "confusion_matrix_metric.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
