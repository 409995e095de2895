"""``ModelCheckpoint`` against MindSpore 2.10: file names after rotation, prefix
collisions, append_info, saved_network, keep-per-minutes, async saving and the
``exception_save`` breakpoint file (``tests/golden/make_ckpt_callback.py``)."""
import json
import os
import sys

import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_ckpt_callback as C  # noqa: E402

with open(os.path.join(GOLDEN, "ckpt_callback.json")) as fh:
    DATA = json.load(fh)


def _close(got, want):
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-6), key
        else:
            assert got[key] == value, key


@pytest.mark.parametrize("name", C.SCENARIOS)
def test_checkpoint_files_match_mindspore(name, tmp_path):
    got = C.scenario(ms, name, str(tmp_path))
    want = DATA[name]
    assert got["files"] == want["files"]
    assert got["error"] == want["error"]
    assert got["latest"] == want["latest"]
    for key in ("latest_contents", "breakpoint_contents"):
        assert (key in got) == (key in want)
        if key in want:
            _close(got[key], want[key])
