"""Invalid optimizer and learning-rate arguments: MindSpore 2.10's exception types and messages."""
import json
import os
import sys

import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_optim  # noqa: E402

with open(os.path.join(GOLDEN, "optim.json")) as fh:
    ERRORS = json.load(fh)["errors"]


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_error_matches_mindspore(code):
    expected = ERRORS[code]
    got = make_optim.run_error(ms, code)
    assert expected["exc"] is not None
    assert got["exc"] == expected["exc"], (code, got)
    assert got["message"] == expected["message"], code


def test_every_error_case_has_a_golden():
    assert set(ERRORS) == set(make_optim.ERRORS)
