"""Semi-auto parallelism: Primitive.shard, Layout, Cell.shard / mindspore.shard and
AUTO_PARALLEL partitioned by XLA over 8 virtual CPU devices in one process (and over two
launched processes), equal to the stand-alone run; strategy checks as MindSpore's;
distributed checkpoints (rank slices, the JSON strategy file, load_distributed_checkpoint,
transform_checkpoints, merge_sliced_parameter) against the device shards XLA holds."""
import json
import os
import subprocess
import sys

import pytest

from launch_util import ROOT, SCRIPTS, launch
from msxla import ops

CASES = ("tuple", "layout", "cell_shard", "auto")
SPECS = {"tuple": "P('d0', None)", "layout": "P('mp', None)", "cell_shard": "P(None, 'd1')",
         "auto": "P('d0', None)"}


def _check(res, devices):
    assert res["devices"] == devices
    for case in CASES:
        r = res[case]
        assert r["moved"] > 0.01, case
        assert r["loss_diff"] < 1e-5 and r["param_diff"] < 1e-5 and r["pred_diff"] < 1e-5, \
            (case, r)
        assert r["w1_spec"] == SPECS[case], (case, r)  # the Parameter is stored sharded
    assert f"must divide the number of devices ({devices})" in res["bad_strategy"]
    ck = res["checkpoints"]
    assert ck["whole_ok"] and ck["merge_dim0"] and ck["load_distributed"] == 0.0
    # w1 is consumed by MatMul with strategy (2, 1) for its weight: the rest repeats
    assert ck["w1_layout"] == [[devices // 2, 2, 1], [1, -1]]
    if res["rank"] == 0:
        assert ck["transform_whole"] == 0.0 and ck["transform_two"] and ck["files"] == ["rank_0"]
        assert ck["by_rank"]
    if devices == 8:
        assert ck["slice_is_device_0s"]  # the saved slice is where XLA put rank 0's data


def test_eight_devices_in_one_process(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT,
               XLA_FLAGS="--xla_force_host_platform_device_count=8")
    proc = subprocess.run([sys.executable, "-m", "msxla", os.path.join(SCRIPTS, "semi_auto.py"),
                           "--devices=8"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    _check(json.loads(line[len("RESULT "):]), 8)
    assert "AUTO_PARALLEL on msxla" in proc.stderr + proc.stdout


@pytest.mark.slow
def test_two_launched_processes(tmp_path):
    proc, results = launch("semi_auto.py", 2, tmp_path, "--full-batch", timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for rank in (0, 1):
        _check(results[rank], 2)


def test_strategies_are_recorded_and_checked():
    m = ops.MatMul().shard(((2, 4), (4, 1)), out_strategy=((8, 1),))
    assert m.in_strategy == ((2, 4), (4, 1)) and m.attrs["out_strategy"] == ((8, 1),)
    with pytest.raises(TypeError, match="in_strategy must be tuple type, but got:<class 'list'>"):
        ops.MatMul().shard([(2, 4)])
    with pytest.raises(TypeError, match="the value of strategy must be int type"):
        ops.MatMul().shard(((2, "a"),))
    with pytest.raises(TypeError, match="The element of strategy must be tuple/Layout type"):
        ops.MatMul().shard(((2, 4), [4, 1]))
    assert ops.ReLU().shard() is not None


def test_layout_maps_as_mindspore():
    from msxla import Layout
    lay = Layout((2, 4), ("dp", "mp"))
    assert lay("dp", "None").to_dict()["tensor_map"] == (1, -1)
    assert lay(("dp", "mp"), "None").to_dict()["tensor_map"] == ((1, 0), -1)
    with pytest.raises(ValueError, match="can not set 'None'"):
        Layout((2,), ("None",))
    with pytest.raises(ValueError, match="has been set more than one"):
        lay("dp", "dp")
