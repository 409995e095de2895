"""``ConfusionMatrixMetric`` against MindSpore 2.10 (tests/golden/make_confusion_matrix_metric.py):
every measure by both calculation methods, the decreases, skip_channel, and the errors.
Cases where MindSpore 2.10 itself fails (non-scalar decreases with calculation_method=True,
2-D inputs with calculation_method=True) are not compared."""
import json
import os

import numpy as np
import pytest

from msxla.train import ConfusionMatrixMetric

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "confusion_matrix_metric.json")))


def _run(kwargs, batches):
    m = ConfusionMatrixMetric(**kwargs)
    for yp, y in batches:
        m.update(np.array(yp), np.array(y))
    return np.asarray(m.eval(), float).reshape(-1)


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: "-".join(
    str(v) for v in c["kwargs"].values()))
def test_measures(case):
    for key, batches in (("result", GOLDEN["batches"]), ("flat", GOLDEN["flat"])):
        want = case[key]
        if "value" in want:
            np.testing.assert_allclose(_run(case["kwargs"], batches), want["value"], rtol=1e-9,
                                       equal_nan=True)


@pytest.mark.parametrize("case", GOLDEN["errors"], ids=lambda c: str(c["kwargs"]))
def test_errors(case):
    kind, message = case["result"]["error"]
    with pytest.raises({"NotImplementedError": NotImplementedError, "ValueError": ValueError,
                        "TypeError": TypeError}[kind]) as err:
        _run(case["kwargs"], GOLDEN["batches"])
    assert str(err.value) == message
