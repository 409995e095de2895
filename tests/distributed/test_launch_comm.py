"""Two workers through msxla's launcher: ranks, local ranks and groups as MindSpore 2.10's
msrun gives them (tests/golden/distributed.json, from MindSpore's own two-process run)."""
import json
import os

import pytest

from launch_util import launch

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "distributed.json")))
FACTS = ("rank", "size", "local", "backend", "world", "comm_name", "ranks", "create", "g_rank",
         "g_size", "w2g", "g2w")


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    proc, results = launch("comm_probe.py", 2, tmp_path_factory.mktemp("probe"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc, results


def test_ranks_and_groups_match_mindspore(probe):
    _, results = probe
    for rank in (0, 1):
        want = GOLDEN["ranks"][str(rank)]
        assert {k: results[rank][k] for k in FACTS} == {k: want[k] for k in FACTS}


def test_launcher_lines_and_logs(probe, tmp_path):
    proc, _ = probe
    starts = [ln for ln in proc.stdout.splitlines() if ln.startswith("Start worker")]
    want = [ln.split(" Execute command:")[0] for ln in GOLDEN["start_lines"]
            if ln.startswith("Start worker")]
    assert [ln.split(" Execute command:")[0] for ln in starts] == want
