"""Data parallelism through the launcher: N workers, each on its slice of the global batch,
end with the parameters of one stand-alone run on the whole batch (float32 tolerance):
TrainOneStepCell in PyNative and GRAPH_MODE with the DistributedGradReducer MindSpore
inserts, SyncBatchNorm against BatchNorm1d, TrainOneStepWithLossScaleCell, and Model.train
on sharded datasets with parameter_broadcast (tests/distributed/scripts/dp_train.py)."""
import pytest

from launch_util import launch

SCENARIOS = ("pynative", "graph", "sync_bn", "loss_scale", "model")


def _check(results, workers):
    assert sorted(results) == list(range(workers))
    for rank, res in results.items():
        assert res["size"] == workers
        for name in SCENARIOS:
            assert res[name]["moved"] > 0.05, (name, "the reference run did not train")
            assert res[name]["diff"] < 1e-5, (rank, name, res[name])
            assert res[name]["sum"] == results[0][name]["sum"], (rank, name)
        for name in ("pynative", "graph", "sync_bn", "loss_scale"):
            assert res[name + "_reducer"] == "DistributedGradReducer"
        assert "device_num=" + str(workers + 1) in res["device_num_error"]


def test_two_workers_train_as_one(tmp_path):
    proc, results = launch("dp_train.py", 2, tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    _check(results, 2)


@pytest.mark.slow
def test_four_workers_train_as_one(tmp_path):
    proc, results = launch("dp_train.py", 4, tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    _check(results, 4)
