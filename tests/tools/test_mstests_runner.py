"""The runner of MindSpore's tests (``tools/mstests``) on a small made-up checkout.

A fake ``tests/st/ops`` file holds a passing, a failing, a hanging, a
crashing and a skipped test (plain pytest, no MindSpore): the runner must
record each with its outcome and cause, restart the file after the hang and
the crash, and keep tests without a CPU mark out. The report is checked on
two hand-written outcome files.
"""
import os
import sys
import textwrap

import pytest

from helpers import ROOT

sys.path.insert(0, ROOT)
from tools.mstests import report, select, summary  # noqa: E402
from tools.mstests.execute import Impl, run_file  # noqa: E402
from tools.mstests.plugin.mstests_cause import describe, mask  # noqa: E402

FAKE = '''
import os, time, pytest

@pytest.mark.cpu_linux
@pytest.mark.level0
def test_pass():
    pass

@pytest.mark.cpu_linux
@pytest.mark.level0
@pytest.mark.parametrize("n", [2, 3])
def test_fail(n):
    raise ValueError(f"shape ({n}, 4) at 0x7f00ab")

@pytest.mark.cpu_linux
@pytest.mark.level1
def test_hang():
    time.sleep(600)

@pytest.mark.cpu_linux
@pytest.mark.level1
def test_crash():
    os.abort()

@pytest.mark.cpu_linux
@pytest.mark.level1
def test_skip():
    pytest.skip("needs 8 cards")

@pytest.mark.cpu_linux
@pytest.mark.level3
def test_level3():
    pass

@pytest.mark.platform_gpu
@pytest.mark.level0
def test_gpu_only():
    pass
'''


@pytest.fixture()
def checkout(tmp_path):
    ops = tmp_path / "tests" / "st" / "ops"
    ops.mkdir(parents=True)
    for d in (tmp_path / "tests", tmp_path / "tests" / "st", ops):
        (d / "__init__.py").write_text("")
    (ops / "test_fake.py").write_text(textwrap.dedent(FAKE))
    (ops / "test_gpu.py").write_text("import pytest\n@pytest.mark.platform_gpu\n"
                                     "def test_a():\n    pass\n")
    (ops / "test_broken.py").write_text("from os import no_such_name_7\n"
                                        "import pytest\n@pytest.mark.cpu_linux\n"
                                        "def test_a():\n    pass\n")
    return str(tmp_path)


def test_selection_keeps_files_with_a_cpu_mark(checkout):
    assert select.select_files(checkout) == ["tests/st/ops/test_broken.py",
                                             "tests/st/ops/test_fake.py"]
    assert select.select_files(checkout, patterns=["*fake*"]) == ["tests/st/ops/test_fake.py"]
    # a sample: the 1st, 3rd, ... file of each area
    assert select.select_files(checkout, every=2) == ["tests/st/ops/test_broken.py"]
    assert select.area_of("tests/st/ops/cpu/test_a.py") == "ops"
    assert select.subarea_of("tests/st/compiler/fallback/test_a.py") == "compiler/fallback"


def test_each_outcome_is_recorded_and_a_hang_or_crash_costs_one_test(checkout, tmp_path):
    impl = Impl("plain", sys.executable)
    rec = run_file(impl, checkout, "tests/st/ops/test_fake.py", select.mark_expression(),
                   str(tmp_path / "log.txt"), test_timeout=4)
    tests = rec["tests"]
    assert {k: v["outcome"] for k, v in tests.items()} == {
        "test_pass": "passed", "test_fail[2]": "failed", "test_fail[3]": "failed",
        "test_hang": "timeout", "test_crash": "crash", "test_skip": "skipped"}
    assert tests["test_fail[2]"]["cause"] == tests["test_fail[3]"]["cause"] == \
        "ValueError: shape (N, N) at 0x#"
    assert tests["test_crash"]["cause"] == "crash: SIGABRT"
    assert tests["test_skip"]["cause"] == "Skipped: needs N cards"
    assert (rec["crashes"], rec["timeouts"], rec["attempts"]) == (1, 1, 3)

    broken = run_file(impl, checkout, "tests/st/ops/test_broken.py", select.mark_expression(),
                      str(tmp_path / "log2.txt"), test_timeout=60)
    assert broken["status"] == "collect_error"
    assert broken["tests"]["<collection>"]["cause"].startswith(
        "ImportError: cannot import name 'no_such_name_7' from 'os'")


def test_cause_masks_numbers_addresses_and_paths():
    assert mask("bad shape (2, 3) vs 4.5e-3 at 0x7ffab12 in /root/a/b/test_x.py, int64") == \
        "bad shape (N, N) vs N at 0x# in test_x.py, int64"
    assert describe(TypeError, TypeError("\n\n  For 'Add', x is 3"), None) == \
        ("TypeError: For 'Add', x is N", None)


def _doc(name, files):
    return {"meta": {"version": name}, "files": {
        rel: {"status": "ok", "tests": {t: {"outcome": o, "cause": c} for t, (o, c) in tests.items()}}
        for rel, tests in files.items()}}


def test_report_rates_on_the_tests_mindspore_passes():
    a, b = "tests/st/ops/test_a.py", "tests/st/pi_jit/test_b.py"
    ms = _doc("2.10.0", {a: {"t1": ("passed", ""), "t2": ("passed", ""), "t3": ("failed", "X"),
                             "t4": ("passed", "")},
                         b: {"u1": ("passed", ""), "u2": ("passed", "")}})
    xla = _doc("0.1", {a: {"t1": ("passed", ""), "t2": ("failed", "TypeError: N"),
                           "t3": ("passed", ""), "t4": ("failed", "TypeError: N")},
                       b: {"<collection>": ("error", "ImportError: no X")}})
    diffs = [{"tests": [f"{a}::t4"], "reason": "stale global"}]
    s = report.summarize(ms, xla, diffs)
    assert s["rows"]["ops"]["base"] == 2 and s["rows"]["ops"]["passed"] == 1
    assert s["rows"]["ops"]["expected_difference"] == 1
    assert s["rows"]["pi_jit"]["base"] == 2 and s["rows"]["pi_jit"]["passed"] == 0
    assert [(cause, len(g)) for cause, g in s["groups"]] == [("ImportError: no X", 2),
                                                              ("TypeError: N", 1)]
    assert [c.test for c in s["extra_passes"]] == [f"{a}::t3"]
    text = report.render(ms, xla, diffs)
    assert "| ops | 4 | 2 | 1 | 50.0% |" in text and "stale global" in text


def test_summary_counts_per_file_and_masks_quoted_assertions():
    a, b = "tests/st/ops/test_a.py", "tests/st/nn/test_b.py"
    ms = _doc("2.10.0", {a: {"t1": ("passed", ""), "t2": ("passed", ""), "t3": ("failed", "X")},
                         b: {"u1": ("passed", "")}})
    xla = _doc("0.1", {a: {"t1": ("passed", ""), "t2": ("failed", "AssertionError: assert 'x' in y"),
                           "t3": ("failed", "X")},
                       b: {"u1": ("failed", "AssertionError: assert N == N")}})
    doc = summary.build(ms, xla)
    assert doc["files"][a] == {"selected": 3, "pass_on_mindspore": 2, "pass_on_msxla": 1,
                               "msxla_failed": 1}
    assert doc["causes"] == [{"tests": 2, "cause": "AssertionError: a value the test checks differs",
                              "files": {a: 1, b: 1}, "areas": {"ops": 1, "nn": 1}}]
    text = summary.markdown(doc)
    assert "'x' in y" not in text and "| ops | 3 | 2 | 1 | 50.0% |" in text
