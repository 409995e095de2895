"""Writes dataset_pipeline.json: MindSpore 2.10's answers for the pipelines in
tests/dataset/pipeline_cases.py (names, sizes, shapes, dtypes, rows, error
types) and DistributedSampler's shards.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_dataset_pipeline.py
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dataset"))

import mindspore as ms  # noqa: E402
import mindspore.dataset as ds  # noqa: E402

import pipeline_cases as pc  # noqa: E402
from pipeline_runner import describe, shard_rows  # noqa: E402


def main():
    pc.TYPES["int32"] = ms.int32
    cases = {name: describe(fn, ds, name not in pc.UNORDERED) for name, fn in pc.CASES.items()}
    shards = {}
    for n, k, ns, off in pc.distributed_cases():
        shards[f"{n}_{k}_{ns}_{off}"] = shard_rows(ds, n, k, ns, off, shuffle=False)
    shuffled = {}
    ds.config.set_seed(7)
    for n, k in [(10, 3), (10, 4), (9, 3), (5, 8)]:
        shuffled[f"{n}_{k}"] = shard_rows(ds, n, k, None, -1, shuffle=True)
    samplers = {}
    for name, make in pc.SAMPLER_CASES.items():
        try:
            d = ds.NumpySlicesDataset(np.arange(10), sampler=make(ds))
            samplers[name] = {"size": d.get_dataset_size(),
                              "rows": [int(r[0]) for r in d.create_tuple_iterator(
                                  output_numpy=True, num_epochs=1)]}
        except Exception as e:  # noqa: BLE001
            samplers[name] = {"error": type(e).__name__}
    out = {"cases": cases, "distributed": shards, "distributed_shuffled": shuffled,
           "samplers": samplers}
    with open(os.path.join(HERE, "dataset_pipeline.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
