"""Two workers through msxla's launcher running tests/distributed/scripts/comm_probe.py.

Where MindSpore 2.10's CPU backend answers (ranks, groups, AllReduce SUM, AllGather,
Broadcast, a Cell with collectives in PyNative and GRAPH_MODE), the results must be
MindSpore's own (tests/golden/distributed.json, from its two-process msrun). The
collectives it refuses on CPU and the gradients are checked against numpy and
MindSpore's bprop rules.
"""
import json
import os

import numpy as np
import pytest

from launch_util import launch

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "distributed.json")))
X = [np.arange(4, dtype=np.float32).reshape(2, 2) + 10 * r for r in range(2)]
W = [1.0, 2.0]  # each rank's scale in the probe's Grads cell


def _grads(i):
    """MindSpore's bprop rules for the probe's Grads cell, on rank i."""
    a = np.arange(8.0).reshape(4, 2)
    b = np.arange(4.0).reshape(4, 1)
    g = sum(W) * 2 * X[i]                                        # AllReduce(SUM)
    g = g + sum(W) * (X[i] == np.maximum(*X))                     # AllReduce(MAX)
    g = g + (sum(W) * a)[2 * i:2 * i + 2]                         # AllGather -> ReduceScatter
    g = g + np.concatenate([np.full((1, 2), w) for w in W])       # ReduceScatter -> AllGather
    g = g + np.concatenate([b[2 * i:2 * i + 2] * w for w in W], axis=1)  # AlltoAll, swapped
    return g + W[i]                                               # Broadcast -> dout


NUMPY = {
    "allreduce_max": lambda i: np.maximum(*X), "allreduce_min": lambda i: np.minimum(*X),
    "allreduce_prod": lambda i: X[0] * X[1], "allreduce_avg": lambda i: (X[0] + X[1]) / 2,
    "reducescatter": lambda i: (X[0] + X[1])[i:i + 1],
    "reducescatter_max": lambda i: np.maximum(*X)[i:i + 1],
    "alltoall": lambda i: np.concatenate([x[:, i:i + 1] for x in X]),
    "allgather_g10": lambda i: np.concatenate([X[1], X[0]]),
    "cf_all_reduce": lambda i: X[0] + X[1], "cf_all_gather": lambda i: np.concatenate(X),
    "cf_reduce_scatter": lambda i: (X[0] + X[1])[i:i + 1], "cf_broadcast": lambda i: X[1],
    "jit_ast": lambda i: 2 * (X[0] + X[1]) + 1, "jit_bytecode": lambda i: 2 * (X[0] + X[1]) + 1,
    "jit_trace": lambda i: 2 * (X[0] + X[1]) + 1,
    "grad_pynative": _grads, "grad_graph": _grads, "grad_in_jit": _grads,
}


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    proc, results = launch("comm_probe.py", 2, tmp_path_factory.mktemp("probe"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert sorted(results) == [0, 1], proc.stdout[-3000:]
    return proc, results


def test_mindspore_answers_are_matched(probe):
    _, results = probe
    for rank in (0, 1):
        want = GOLDEN["ranks"][str(rank)]
        same = {k: v for k, v in want.items() if not (isinstance(v, str) and v.startswith("ERR"))}
        assert len(same) >= 15
        assert {k: results[rank][k] for k in same} == same


@pytest.mark.parametrize("key", sorted(NUMPY))
def test_collectives_and_gradients_against_numpy(probe, key):
    _, results = probe
    for rank in (0, 1):
        np.testing.assert_allclose(np.array(results[rank][key]), NUMPY[key](rank), rtol=1e-6)


def test_send_recv_and_barrier(probe):
    _, results = probe
    assert results[0]["cf_send"] is None and results[0]["cf_barrier"] is None
    np.testing.assert_array_equal(results[1]["cf_recv"], X[0] * 2)


def test_launcher_lines(probe):
    proc, _ = probe
    starts = [ln.split(" Execute command:")[0] for ln in proc.stdout.splitlines()
              if ln.startswith("Start worker")]
    want = [ln.split(" Execute command:")[0] for ln in GOLDEN["start_lines"]
            if ln.startswith("Start worker")]
    assert starts == want
