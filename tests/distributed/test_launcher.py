"""msrun / python -m msxla.launch: MindSpore's flags and defaults, rank and log-file
assignment, refusals, and a dying worker stopping the job (127.0.0.1 only)."""
import os
import time

import pytest

from launch_util import launch
from msxla.launch import get_args
from msxla.launch._manager import ProcessManager


def test_flags_and_defaults_are_msruns():
    a = get_args(["train.py", "--lr", "0.1"])
    assert (a.worker_num, a.local_worker_num, a.master_addr, a.master_port, a.node_rank,
            a.log_dir, a.join, a.cluster_time_out, a.bind_core) == \
        (8, 8, "127.0.0.1", 8118, -1, "", False, 600, False)
    assert a.task_script == "train.py" and a.task_script_args == ["--lr", "0.1"]
    b = get_args(["--join=True", "--bind_core", '{"device0": ["0-1"]}', "x.py"])
    assert b.join is True and b.bind_core == {"device0": ["0-1"]}


def test_ranks_and_log_names_on_a_second_machine(tmp_path):
    args = get_args(["--worker_num=4", "--local_worker_num=2", "--node_rank=1",
                     f"--log_dir={tmp_path}", "--worker_log_name=w_{hostname}", "t.py"])
    pm = ProcessManager(args)
    assert [pm._rank(i) for i in range(2)] == [2, 3]
    assert pm._log_stem().startswith("w_") and "{" not in pm._log_stem()
    env = pm._env(1, 3)
    assert {k: env[k] for k in ("MS_WORKER_NUM", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_NODE_ID",
                                "RANK_ID", "RANK_SIZE", "DEVICE_ID", "MS_ROLE")} == {
        "MS_WORKER_NUM": "4", "MS_SCHED_HOST": "127.0.0.1", "MS_SCHED_PORT": "8118",
        "MS_NODE_ID": "3", "RANK_ID": "3", "RANK_SIZE": "4", "DEVICE_ID": "1",
        "MS_ROLE": "MS_WORKER"}


@pytest.mark.parametrize("argv,message", [
    (["--worker_num=0", "t.py"], "worker_num must be greater than 0"),
    (["--worker_num=2", "--local_worker_num=4", "t.py"], "exceeded local worker number"),
    (["--worker_num=4", "--local_worker_num=2", "t.py"], "pass --node_rank"),
    (["--sim_level=1", "t.py"], "dry-run simulation"),
])
def test_refusals(argv, message):
    with pytest.raises(ValueError, match=message):
        ProcessManager(get_args(argv))


def test_a_dying_worker_stops_the_job(tmp_path):
    proc, _ = launch("fail_rank1.py", 2, tmp_path, timeout=400)  # rank 0 would sleep 600 s
    assert proc.returncode == 1
    assert "slept" not in (tmp_path / "logs" / "worker_0.log").read_text()
    assert "(rank 1) exit with exception. Error code: 1." in proc.stderr
    assert "kill all other workers" in proc.stderr
    tail = proc.stderr.split("The last lines of logs/worker_1.log:")[1]
    assert "rank 1 stops here" in tail
    assert "Please check logs in directory: logs." in proc.stderr
    assert sorted(os.listdir(tmp_path / "logs")) == ["worker_0.log", "worker_1.log"]


@pytest.mark.slow
def test_a_missing_worker_times_out(tmp_path):
    """Only rank 0 of two starts: it gives up joining after --cluster_time_out."""
    start = time.monotonic()
    proc, _ = launch("fail_rank1.py", 1, tmp_path, timeout=300,
                     flags=["--cluster_time_out=5"], worker_num=2)
    assert proc.returncode == 1
    assert "(rank 0) exit with exception" in proc.stderr
    assert time.monotonic() - start < 240
