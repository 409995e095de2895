"""Data parallelism through the launcher: N workers, each on its slice of the global batch,
end with the parameters of one stand-alone run on the whole batch (float32 tolerance):
TrainOneStepCell in PyNative and GRAPH_MODE with the DistributedGradReducer MindSpore
inserts, SyncBatchNorm against BatchNorm1d and Model.train on sharded datasets with
parameter_broadcast; with four workers also TrainOneStepWithLossScaleCell and Model.train
in sink mode (tests/distributed/scripts/dp_train.py)."""
import pytest

from launch_util import launch

SCENARIOS = ("pynative", "graph", "sync_bn", "model")
LONGER = ("loss_scale", "model_sink")


def _check(results, workers, scenarios=SCENARIOS):
    assert sorted(results) == list(range(workers))
    for rank, res in results.items():
        assert res["size"] == workers
        for name in scenarios:
            assert res[name]["moved"] > 0.05, (name, "the reference run did not train")
            assert res[name]["diff"] < 1e-5, (rank, name, res[name])
            assert res[name]["sum"] == results[0][name]["sum"], (rank, name)
        for name in set(scenarios) & {"pynative", "graph", "sync_bn", "loss_scale"}:
            assert res[name + "_reducer"] == "DistributedGradReducer"
        assert "device_num=" + str(workers + 1) in res["device_num_error"]


def test_two_workers_train_as_one(tmp_path):
    proc, results = launch("dp_train.py", 2, tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    _check(results, 2)


@pytest.mark.slow
def test_four_workers_train_as_one(tmp_path):
    proc, results = launch("dp_train.py", 4, tmp_path, "--all", timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    _check(results, 4, SCENARIOS + LONGER)
