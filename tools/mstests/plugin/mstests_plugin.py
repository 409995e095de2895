"""pytest plugin loaded into each test subprocess (``-p mstests_plugin``).

It writes one JSON object per line to the file named by ``MSTESTS_EVENTS``,
flushed at once, so the runner can follow a file's progress and attribute a
crash or a hang to the test that was running:

- ``{"event": "collected", "ids": [...]}`` after collection;
- ``{"event": "collect_error", "id": ..., "cause": ..., "where": ...}``;
- ``{"event": "start", "id": ...}`` before each test;
- ``{"event": "result", "id": ..., "outcome": ..., "cause": ..., "where": ...,
  "seconds": ...}`` after each test (its setup, call and teardown).

Test ids listed in the file ``MSTESTS_DESELECT`` (one per line) are
deselected: the runner restarts a file after a crash or a timeout with what
already has a result. With ``MSTESTS_PIJIT_SETUP=1`` each test first does
what MindSpore's ``tests/st/pi_jit/conftest.py`` does, except its skip of
every test on Python >= 3.11 (the runner runs with ``--noconftest``).

This file is imported by both interpreters (msxla's and MindSpore's), so it
imports nothing but pytest and the standard library, and ``mindspore`` only
inside the pi_jit setup.
"""
import json
import os
import sys
import time

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
from mstests_cause import describe  # noqa: E402

_events = None
_reports = {}


def _emit(record):
    global _events
    if _events is None:
        path = os.environ.get("MSTESTS_EVENTS")
        _events = open(path, "a", encoding="utf-8") if path else sys.stderr
    _events.write(json.dumps(record) + "\n")
    _events.flush()


def pytest_collection_modifyitems(session, config, items):
    path = os.environ.get("MSTESTS_DESELECT")
    if not path or not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        done = {line.rstrip("\n") for line in f if line.strip()}
    keep = [item for item in items if item.nodeid not in done]
    dropped = [item for item in items if item.nodeid in done]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_collection_finish(session):
    _emit({"event": "collected", "ids": [item.nodeid for item in session.items]})


def pytest_collectreport(report):
    if report.failed:
        cause, where = _cause_of_report(report)
        _emit({"event": "collect_error", "id": report.nodeid, "cause": cause, "where": where})


def pytest_runtest_logstart(nodeid, location):
    _reports[nodeid] = {"start": time.time(), "outcome": None}
    _emit({"event": "start", "id": nodeid})


def pytest_runtest_setup(item):
    """MindSpore's pi_jit conftest, less its skip: the bytecode jit's options (where the
    library has them: a missing module is the test's to find, not the setup's)."""
    if os.environ.get("MSTESTS_PIJIT_SETUP") != "1":
        return
    try:
        from mindspore._c_expression import update_pijit_default_config
        update_pijit_default_config(compile_with_try=False)
    except ImportError:
        pass
    try:
        from mindspore._extends.parse import compile_config
        compile_config.JIT_ENABLE_AUGASSIGN_INPLACE = '0'
    except ImportError:
        pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None:
        report.mstests_cause = describe(call.excinfo.type, call.excinfo.value,
                                        call.excinfo.tb)


def pytest_runtest_logreport(report):
    state = _reports.setdefault(report.nodeid, {"start": time.time(), "outcome": None})
    phase = report.when
    if state["outcome"] is None or state["outcome"] == "passed":
        outcome = None
        if report.skipped:
            outcome = "skipped"
            if hasattr(report, "wasxfail"):
                outcome = "xfailed"
        elif report.failed:
            outcome = "failed" if phase == "call" else "error"
        elif phase == "call" and report.passed:
            outcome = "passed"
        if outcome is not None:
            state["outcome"] = outcome
            if outcome != "passed":
                cause, where = getattr(report, "mstests_cause", None) or _cause_of_report(report)
                state["cause"], state["where"] = cause, where
    if phase == "teardown":
        result = {"event": "result", "id": report.nodeid,
                  "outcome": state["outcome"] or "error",
                  "seconds": round(time.time() - state["start"], 3)}
        if state.get("cause"):
            result["cause"] = state["cause"]
        if state.get("where"):
            result["where"] = state["where"]
        _emit(result)


def _cause_of_report(report):
    """The cause of a report without an exception object (skips, collection errors)."""
    if report.skipped and isinstance(report.longrepr, tuple):
        return describe("Skipped", report.longrepr[2].replace("Skipped: ", "", 1), None)
    text = str(report.longrepr or "")
    return describe(None, text, None)
