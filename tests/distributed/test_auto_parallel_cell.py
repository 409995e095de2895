"""``AutoParallel``: MindSpore 2.10's argument checks (tests/golden/make_auto_parallel.py),
the network's results unchanged, its parallel mode in force during the call only."""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn
from msxla.parallel.auto_parallel import AutoParallel

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "auto_parallel.json")))
CALLS = [  # the calls of make_auto_parallel.py, in order (JSON turns tuples into lists)
    ("__init__", ["semi_auto"]), ("__init__", ["sharding_propagation"]),
    ("__init__", ["recursive_programming"]), ("__init__", ["data_parallel"]),
    ("pipeline", [2]), ("pipeline", [0]), ("pipeline", ["2"]), ("pipeline", [1, 1]),
    ("pipeline", [1, False, False, "bad"]), ("hsdp", []), ("hsdp", [0]), ("hsdp", [2, -1]),
    ("hsdp", [-1, 64, "level4"]), ("dataset_strategy", ["full_batch"]),
    ("dataset_strategy", ["model_parallel"]), ("dataset_strategy", [[(1, 2)]]),
    ("dataset_strategy", [((1, "2"),)]), ("dataset_strategy", [(1,)]),
    ("dataset_strategy", [((2, 1), (2, 1))]), ("comm_fusion", [[1]]), ("comm_fusion", [{}]),
]


@pytest.mark.parametrize("index", range(len(CALLS)))
def test_checks_as_mindspore(index):
    method, args = CALLS[index]
    want = GOLDEN["calls"][index]["error"]
    try:
        if method == "__init__":
            AutoParallel(nn.Dense(3, 2), *args)
        else:
            getattr(AutoParallel(nn.Dense(3, 2)), method)(*args)
        got = None
    except Exception as e:  # noqa: BLE001 - compared with the golden
        got = [type(e).__name__, str(e)]
    assert got == want


def test_names_and_stages():
    net = AutoParallel(nn.Dense(3, 2))
    net.pipeline(4)
    assert net.get_pipeline_stages() == GOLDEN["stages_after_pipeline_4"]
    assert [p.name for p in net.get_parameters()] == GOLDEN["param_names"]


class _Probe(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)
        self.seen = []

    def construct(self, x):
        self.seen.append((ms.get_auto_parallel_context("parallel_mode"),
                          ms.get_auto_parallel_context("search_mode"),
                          ms.get_auto_parallel_context("full_batch")))
        return self.fc(x)


def test_runs_network_under_its_mode_and_restores_context():
    probe = _Probe()
    net = AutoParallel(probe, "sharding_propagation")
    net.dataset_strategy("full_batch")
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    want = x @ probe.fc.weight.asnumpy().T + probe.fc.bias.asnumpy()
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), want, rtol=1e-6)
    assert probe.seen == [("auto_parallel", "sharding_propagation", True)]
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("full_batch") is False


def test_pipeline_stages_refused_when_run():
    net = AutoParallel(nn.Dense(3, 2))
    net.pipeline(2)
    with pytest.raises(NotImplementedError, match="pipeline"):
        net(Tensor(np.ones((1, 3), np.float32)))
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
