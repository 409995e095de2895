"""``set_ps_context`` / ``get_ps_context``: defaults, values read back and errors
as MindSpore 2.10 gives them (tests/golden/make_ps_context.py)."""
import json
import os

import pytest

import msxla as ms
from msxla import context

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "golden", "ps_context.json")))


def _read(key):
    try:
        return {"value": ms.get_ps_context(key)}
    except Exception as e:  # noqa: BLE001 - compared with the golden
        return {"error": type(e).__name__, "message": str(e)}


@pytest.fixture(autouse=True)
def _reset():
    ms.reset_ps_context()
    yield
    ms.reset_ps_context()


def test_defaults():
    assert {k: _read(k) for k in GOLDEN["defaults"]} == GOLDEN["defaults"]


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: ",".join(c["kwargs"]))
def test_set_and_read_back(case):
    try:
        context.set_ps_context(**case["kwargs"])
        got = {k: _read(k) for k in case["kwargs"]}
    except Exception as e:  # noqa: BLE001 - compared with the golden
        got = {"error": type(e).__name__, "message": str(e)}
    assert got == case["result"]


def test_reset_restores_defaults():
    ms.set_ps_context(enable_ps=True, worker_num=3)
    ms.reset_ps_context()
    assert ms.get_ps_context("enable_ps") is False and ms.get_ps_context("worker_num") == 0
