"""WeightedRandomSampler against MindSpore 2.10's rules (``golden/weighted_sampler.json``:
how many rows come out, the dataset size, errors) and against its weights: rows of zero
weight never come out, without replacement no row repeats, and each row's frequency
follows its weight. The same seed gives the same rows with any number of workers."""
import builtins
import json
import os

import numpy as np
import pytest

import msxla.dataset as ds

with open(os.path.join(os.path.dirname(__file__), "..", "golden", "weighted_sampler.json")) as f:
    CASES = json.load(f)


def _rows(case):
    s = ds.WeightedRandomSampler(case["weights"], case["num_samples"], case["replacement"])
    d = ds.NumpySlicesDataset(np.arange(case["n"]), ["x"], sampler=s)
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], d.get_dataset_size()


@pytest.mark.parametrize("case", CASES, ids=lambda c: str({k: v for k, v in c.items()
                                                           if k in ("num_samples", "n")}))
def test_rules_match_mindspore(case):
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"])):
            _rows(case)
        return
    rows, size = _rows(case)
    assert (len(rows), size) == (case["count"], case["size"])
    weights = np.asarray(case["weights"], float)
    assert set(rows) <= set(np.flatnonzero(weights))
    if not case["replacement"]:
        assert len(set(rows)) == len(rows)


def test_frequencies_follow_the_weights():
    n = 6000
    weights = np.tile([1.0, 2.0, 3.0], n // 3)
    ds.config.set_seed(3)
    d = ds.NumpySlicesDataset(np.arange(n), ["x"],
                              sampler=ds.WeightedRandomSampler(weights.tolist()))
    rows = np.array([int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)])
    share = np.bincount(rows % 3, minlength=3) / len(rows)
    np.testing.assert_allclose(share, [1 / 6, 2 / 6, 3 / 6], atol=0.02)


def test_same_seed_same_rows_with_any_number_of_workers():
    weights = [1, 5, 0, 2, 2, 1, 3, 0, 1, 4] * 3

    def rows(workers):
        ds.config.set_seed(11)
        d = ds.NumpySlicesDataset(np.arange(30), ["x"], num_parallel_workers=workers,
                                  sampler=ds.WeightedRandomSampler(weights, 25))
        return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
    assert rows(1) == rows(3)
