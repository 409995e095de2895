"""``mindspore._c_expression.get_code_extra`` reports what msxla's jit did, as MindSpore 2.10 does.

``code_extra_cases.py`` (a MindSpore program) jits functions with
``capture_mode="bytecode"``, calls them and prints ``get_code_extra``'s
report after each step; ``tests/golden/code_extra.json`` is what MindSpore
printed. msxla runs the same program through ``python -m msxla``. Two fields
differ by design and are compared to what msxla did instead:

- ``has_graph`` for code with graph breaks: MindSpore finds its graphs
  through the Python code it generates around them (``compiled_code_``);
  msxla generates none, so only whole-graph entries (``phase_``) count;
- two ``jit`` wrappers of one function compile one graph each in msxla
  (each has its own cache); MindSpore shares compiled code per code object.
"""
import json
import os

import pytest

from helpers import run_msxla

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = json.load(open(os.path.join(HERE, "..", "golden", "code_extra.json")))


@pytest.fixture(scope="module")
def msxla_reports():
    proc = run_msxla([os.path.join(HERE, "code_extra_cases.py"), "all"], cwd=HERE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            doc = json.loads(line)
            out[doc["case"]] = doc["steps"]
    return out


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_report_matches_mindspore(msxla_reports, case):
    got = msxla_reports[case]
    want = GOLDEN[case]
    assert [label for label, _ in got] == [label for label, _ in want]
    for (label, mine), (_, theirs) in zip(got, want):
        if theirs is None or mine is None:
            assert mine == theirs, label
            continue
        mine, theirs = dict(mine), dict(theirs)
        if theirs.get("break_count_"):
            assert mine.pop("has_graph") is False, label  # no generated code to look into
            theirs.pop("has_graph")
        if case == "two_wrappers":
            assert (mine.pop("compile_count_"), theirs.pop("compile_count_")) == (2, 1)
        assert mine == theirs, label


def test_graph_break_counts_follow_the_capture(msxla_reports):
    """Not the golden alone: a function without a break reports none, and each function
    with breaks (the caller and the callee that broke) reports its own."""
    by_case = {case: dict(steps) for case, steps in msxla_reports.items()}
    assert by_case["one_graph"]["2 calls"]["break_count_"] == 0
    assert by_case["break_in_callee"]["caller"]["break_count_"] == 1
    assert by_case["break_in_callee"]["callee"]["break_count_"] == 1
    assert by_case["one_graph"]["before"] is None
