"""MindSpore 2.10's WeightedRandomSampler rules: writes ``weighted_sampler.json``.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_weighted_sampler.py``.
The drawn indices depend on each framework's generator, so the JSON holds what does
not: how many rows come out, the dataset size, which rows can come out (rows of zero
weight never do), and the errors.
"""
import json
import os

import numpy as np

CASES = [
    {"weights": [1] * 10, "num_samples": 5, "replacement": True, "n": 10},
    {"weights": [1] * 10, "num_samples": 20, "replacement": True, "n": 10},
    {"weights": [1] * 10, "num_samples": None, "replacement": True, "n": 10},
    {"weights": [1, 1, 1], "num_samples": None, "replacement": True, "n": 10},
    {"weights": [0, 0, 1, 0, 1, 0, 0, 0, 0, 0], "num_samples": 8, "replacement": True, "n": 10},
    {"weights": [1] * 10, "num_samples": 10, "replacement": False, "n": 10},
    {"weights": [3, 1, 2, 5, 1, 1], "num_samples": 4, "replacement": False, "n": 6},
    {"weights": [1] * 20, "num_samples": None, "replacement": True, "n": 10},
    {"weights": [0] * 10, "num_samples": 3, "replacement": True, "n": 10},
    {"weights": [1, "a"], "num_samples": None, "replacement": True, "n": 10},
    {"weights": [1, 2], "num_samples": -1, "replacement": True, "n": 10},
    {"weights": [1, 2], "num_samples": 2, "replacement": 1, "n": 10},
]


def run(case):
    import mindspore.dataset as ds
    rec = dict(case)
    try:
        s = ds.WeightedRandomSampler(case["weights"], case["num_samples"], case["replacement"])
        d = ds.NumpySlicesDataset(np.arange(case["n"]), ["x"], sampler=s)
        rows = [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
        rec.update(count=len(rows), size=d.get_dataset_size(),
                   distinct=len(set(rows)), allowed=sorted(set(rows)) if len(rows) < 20 else None)
    except Exception as e:  # noqa: BLE001 - the error is the golden
        rec["error"] = type(e).__name__
    return rec


def main():
    out = [run(c) for c in CASES]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weighted_sampler.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
