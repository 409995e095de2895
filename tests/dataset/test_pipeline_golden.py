"""Pipelines compared with MindSpore 2.10 (tests/golden/dataset_pipeline.json):
column names, sizes, shapes, dtypes and rows after each operation, error
types, DistributedSampler's shards and the samplers' index rules."""
import json
import os

import numpy as np
import pytest

import msxla
import msxla.dataset as ds

from tests.dataset import pipeline_cases as pc
from tests.dataset.pipeline_runner import describe, shard_rows

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "dataset_pipeline.json")))
pc.TYPES["int32"] = msxla.int32


@pytest.mark.parametrize("name", sorted(pc.CASES))
def test_case_matches_mindspore(name):
    want = GOLDEN["cases"][name]
    got = describe(pc.CASES[name], ds, name not in pc.UNORDERED)
    if "error" in want:
        assert got.get("error") == want["error"], got
        return
    assert "error" not in got, got
    if name in pc.RANDOM_VALUES:
        assert len(got.pop("rows")) == len(want.pop("rows"))
    assert got == want


@pytest.mark.parametrize("key", sorted(GOLDEN["distributed"]))
def test_distributed_sampler_shards_match_mindspore(key):
    n, k, ns, off = key.split("_")
    ns = None if ns == "None" else int(ns)
    assert shard_rows(ds, int(n), int(k), ns, int(off), shuffle=False) == \
        GOLDEN["distributed"][key]


@pytest.mark.parametrize("key", sorted(GOLDEN["distributed_shuffled"]))
def test_shuffled_shards_have_mindspores_sizes_and_cover_the_data(key):
    n, k = (int(v) for v in key.split("_"))
    want = GOLDEN["distributed_shuffled"][key]
    ds.config.set_seed(7)
    got = shard_rows(ds, n, k, None, -1, shuffle=True)
    assert [s["size"] for s in got] == [s["size"] for s in want]
    rows = [r for s in got for r in s["rows"]]
    assert set(rows) == set(range(n))
    # padding repeats exactly as many rows as MindSpore's does
    assert len(rows) - len(set(rows)) == sum(s["size"] for s in want) - n
    # the same seed gives the same shards, and all shards agree on one permutation
    assert shard_rows(ds, n, k, None, -1, shuffle=True) == got


@pytest.mark.parametrize("name", sorted(pc.SAMPLER_CASES))
def test_sampler_rows_match_mindspore(name):
    want = GOLDEN["samplers"][name]
    d = ds.NumpySlicesDataset(np.arange(10), sampler=pc.SAMPLER_CASES[name](ds))
    rows = [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert rows == want["rows"]
    if name == "sequential_past_end":
        # MindSpore reports -3 here (start 8 + 5 samples > 10 rows); the rows are 2.
        assert d.get_dataset_size() == len(want["rows"]) == 2
    else:
        assert d.get_dataset_size() == want["size"]
