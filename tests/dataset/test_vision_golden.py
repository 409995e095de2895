"""Every transform case of vision_cases.py against MindSpore 2.10's output
(tests/golden/dataset_vision.json): dtypes, shapes and values, exactly or
within the case's stated tolerance where resampling differs."""
import json
import os

import numpy as np
import pytest

import msxla
import msxla.dataset.transforms as T
import msxla.dataset.vision as V

from tests.dataset import vision_cases

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "dataset_vision.json")))
INPUTS = vision_cases.inputs()


def _documented(name):
    """What the KNOWN_WRONG cases should return, from numpy."""
    if name.startswith("normalize_pad"):
        img = INPUTS["smooth"].astype(np.float32)
        mean, std = ((121.0, 115.0, 100.0), (70.0, 68.0, 71.0)) if name == "normalize_pad" \
            else ((1.0, 2.0, 3.0), (2.0, 2.0, 2.0))
        out = (img - np.float32(mean)) / np.float32(std)
        out = np.concatenate([out, np.zeros(out.shape[:2] + (1,), np.float32)], axis=2)
        return out.astype(np.float16 if name.endswith("f16") else np.float32)
    labels = INPUTS["labels"]
    return np.eye(5)[labels] * 0.9 + 0.1 / 5


@pytest.mark.parametrize("name", sorted(vision_cases.KNOWN_WRONG))
def test_documented_result_where_mindspore_is_wrong(name):
    got = vision_cases.run(V, T, msxla, name, INPUTS)[0]["array"]
    want = _documented(name)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-3,
                               atol=1e-6)
    mindspore = np.array(GOLDEN[name]["outputs"][0]["value"])
    assert not np.allclose(mindspore, want.astype(np.float64), atol=1e-3)  # still wrong there


@pytest.mark.parametrize("name", sorted(set(vision_cases.CASES) - set(vision_cases.KNOWN_WRONG)))
def test_transform_matches_mindspore(name):
    want = GOLDEN[name]
    got = vision_cases.run(V, T, msxla, name, INPUTS)
    if "error" in want:
        assert got == want["error"]
        return
    assert not isinstance(got, str), f"raised {got}"
    assert len(got) == len(want["outputs"])
    tol = vision_cases.CASES[name][2]
    for g, w in zip(got, want["outputs"]):
        a = g["array"]
        assert (a.dtype.str if a.dtype.kind != "U" else "<U") == w["dtype"]
        assert list(a.shape) == w["shape"]
        assert g.get("pil_mode") == w.get("pil_mode")
        expect = np.array(w["value"], dtype=a.dtype if a.dtype.kind != "U" else None)
        if tol is None:
            np.testing.assert_array_equal(a, expect)
        elif isinstance(tol, float):
            np.testing.assert_allclose(a.astype(np.float64), expect.astype(np.float64),
                                       rtol=tol, atol=tol)
        else:
            diff = np.abs(a.astype(np.float64) - expect.astype(np.float64))
            assert diff.max() <= tol[0] and diff.mean() <= tol[1], (diff.max(), diff.mean())
