"""Run one test file in its own subprocess, with a watchdog, and record every test.

The subprocess is ``pytest`` with the ``mstests_plugin`` (``plugin/``), which
writes an event per line as tests start and finish. The watchdog follows
those events: a test running longer than ``test_timeout`` is killed (its
process group) and recorded as ``timeout``; a process that dies in a test
(signal, abort) has that test recorded as ``crash``. Either way the file is
started again for the tests that have no result yet (deselected through
``MSTESTS_DESELECT``), so a hang or a crash costs one test, never the run.
A file's total time is capped too (``file_timeout``): what has not run by
then is recorded as ``timeout``.

A file whose module fails to import has one record, ``<file>::<collection>``,
outcome ``error``, with the import error as its cause.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

from tools.mstests.plugin.mstests_cause import mask

PLUGIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugin")
COLLECTION = "<collection>"
MAX_ATTEMPTS = 25
POLL = 0.25


class Impl:
    """How to start pytest for one implementation (``msxla`` or ``mindspore``)."""

    def __init__(self, name, python, pythonpath=(), prefix=(), env=None):
        self.name, self.python = name, python
        self.pythonpath, self.prefix = list(pythonpath), list(prefix)
        self.env = dict(env or {})

    def command(self, test_path, mark_expr, extra=()):
        return [self.python, *self.prefix, "-m", "pytest", test_path, "-m", mark_expr,
                "-p", "mstests_plugin", "-p", "no:cacheprovider", "--noconftest",
                "--continue-on-collection-errors", "-q", "--tb=short", "-o", "addopts=",
                "-o", "console_output_style=classic", *extra]

    def environment(self, checkout, events, deselect, pijit):
        env = dict(os.environ)
        for var in ("PYTHONPATH", "PYTHONSTARTUP", "PYTEST_ADDOPTS", "PYTEST_PLUGINS"):
            env.pop(var, None)
        env.update(BASE_ENV)
        env.update(self.env)
        env["PYTHONPATH"] = os.pathsep.join([PLUGIN_DIR, *self.pythonpath])
        env["MSTESTS_EVENTS"] = events
        env["MSTESTS_DESELECT"] = deselect
        env["MSTESTS_CHECKOUT"] = checkout
        if pijit:
            env["MSTESTS_PIJIT_SETUP"] = "1"
        return env


# One thread per process for every library: the machine is shared.
BASE_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
    "JAX_PLATFORMS": "cpu",
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "GLOG_v": "3",
    "PYTHONUNBUFFERED": "1",
}


def run_file(impl, checkout, rel, mark_expr, log_path, test_timeout=180.0,
             file_timeout=1800.0, collect_timeout=None):
    """Run ``rel`` (checkout-relative) under ``impl``; returns the file's record.

    ``collect_timeout`` bounds start-up and collection (default: the larger of
    ``test_timeout`` and 300 seconds: importing a library on a loaded machine
    is slow)."""
    if collect_timeout is None:
        collect_timeout = max(test_timeout, 300.0)
    t0 = time.time()
    tests: dict = {}
    collected: list | None = None
    crashes = timeouts = attempts = 0
    status = "ok"
    work = tempfile.mkdtemp(prefix="mstests-")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    try:
        with open(log_path, "w", encoding="utf-8") as log:
            while attempts < MAX_ATTEMPTS:
                attempts += 1
                run = _Attempt(impl, checkout, rel, mark_expr, work, log, tests, attempts)
                before = len(tests)
                ended = run.watch(test_timeout, collect_timeout, t0 + file_timeout)
                if run.collected is not None and collected is None:
                    collected = run.collected
                if ended == "file_timeout":
                    status = "file_timeout"
                    for nodeid in collected or ():
                        tests.setdefault(nodeid, _rec("timeout", "not run: file time limit"))
                    break
                if ended == "hang" and all(n in tests for n in collected or ()):
                    break  # every test has its result; only the exit hung
                if ended in ("timeout", "hang"):
                    timeouts += 1
                    if len(tests) == before:  # no progress to build on
                        for nodeid in collected or ():
                            tests.setdefault(nodeid, _rec("timeout", "timeout: hung outside a "
                                                          "test (fixture teardown or exit)"))
                        break
                elif ended == "crash":
                    crashes += 1
                else:
                    if run.returncode == 5 and not tests:
                        status = "no_tests"
                    break
                if collected is None or all(n in tests for n in collected):
                    break
        tail = _tail(log_path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if collected is not None:
        for nodeid in collected:  # the process ended without reporting these
            tests.setdefault(nodeid, _rec("error", "no result reported"))
    if any(n.endswith(COLLECTION) for n in tests) and status == "ok":
        status = "collect_error"
    record = {"file": rel, "status": status, "seconds": round(time.time() - t0, 1),
              "attempts": attempts, "crashes": crashes, "timeouts": timeouts,
              "tests": {_short(n, rel): t for n, t in tests.items()}}
    if status != "ok" or crashes or timeouts:
        record["log_tail"] = tail
    return record


class _Attempt:
    """One subprocess over the tests of a file that have no result yet."""

    def __init__(self, impl, checkout, rel, mark_expr, work, log, tests, n):
        self.tests, self.rel, self.log = tests, rel, log
        self.events = os.path.join(work, f"events{n}.jsonl")
        deselect = os.path.join(work, "deselect.txt")
        with open(deselect, "w", encoding="utf-8") as f:
            f.write("\n".join(tests) + "\n")
        cwd = os.path.join(work, "cwd")  # files the tests write land here, not in the checkout
        os.makedirs(cwd, exist_ok=True)
        pijit = rel.startswith("tests/st/pi_jit/")
        env = impl.environment(checkout, self.events, deselect, pijit)
        cmd = impl.command(os.path.join(checkout, rel), mark_expr,
                           ["--rootdir", checkout, "-o", "pythonpath=" + checkout])
        log.write(f"$ {' '.join(cmd)}\n")
        log.flush()
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        self.started_at = time.time()
        self.collected = None
        self.current = None          # (nodeid, start time) of the running test
        self.last_event = self.started_at
        self._offset = 0
        self.returncode = None

    def watch(self, test_timeout, collect_timeout, deadline):
        """Follow the process until it ends: ``"done"``, ``"crash"``, ``"timeout"``,
        ``"hang"`` (outside any test) or ``"file_timeout"``."""
        while True:
            self._read_events()
            code = self.proc.poll()
            if code is not None:
                self.returncode = code
                self._read_events()
                return self._ended(code)
            now = time.time()
            if self.current:
                since, limit = self.current[1], test_timeout
            elif self.collected is None:
                since, limit = self.started_at, collect_timeout
            else:  # between tests, or finishing: a hang in a fixture's teardown or at exit
                since, limit = self.last_event, test_timeout
            if now > deadline:
                self._kill()
                self._record_current("timeout", "not run: file time limit")
                return "file_timeout"
            if now - since > limit:
                self._kill()
                if self.current is None and self.collected is not None:
                    return "hang"  # between tests or at exit: no test to blame
                what = self.current[0] if self.current else f"{self.rel}::{COLLECTION}"
                self.tests[what] = _rec("timeout", f"timeout: no result after {limit:.0f}s")
                self.current = None
                return "timeout"
            time.sleep(POLL)

    def _ended(self, code):
        if self.current is not None:  # died inside a test
            self._record_current("crash", _crash_cause(code))
            return "crash"
        if self.collected is None and not any(n.endswith(COLLECTION) for n in self.tests):
            if code not in (0, 1, 5):  # died before or while collecting
                self.tests[f"{self.rel}::{COLLECTION}"] = _rec("crash", _crash_cause(code))
                return "crash"
        return "done"

    def _record_current(self, outcome, cause):
        if self.current is not None:
            self.tests[self.current[0]] = _rec(outcome, cause)
            self.current = None

    def _kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def _read_events(self):
        if not os.path.exists(self.events):
            return
        with open(self.events, encoding="utf-8") as f:
            f.seek(self._offset)
            chunk = f.read()
        end = chunk.rfind("\n")
        if end < 0:
            return
        self._offset += len(chunk[:end + 1].encode("utf-8"))
        self.last_event = time.time()
        for line in chunk[:end].splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("event")
            if kind == "collected":
                self.collected = event["ids"]
            elif kind == "collect_error":
                nodeid = event["id"] or self.rel
                key = nodeid if "::" in nodeid else f"{self.rel}::{COLLECTION}"
                self.tests[key] = _rec("error", event.get("cause"), event.get("where"))
            elif kind == "start":
                self.current = (event["id"], time.time())
            elif kind == "result":
                self.tests[event["id"]] = _rec(event["outcome"], event.get("cause"),
                                               event.get("where"), event.get("seconds"))
                if self.current and self.current[0] == event["id"]:
                    self.current = None


def _rec(outcome, cause=None, where=None, seconds=None):
    rec = {"outcome": outcome}
    if cause:
        rec["cause"] = cause
    if where:
        rec["where"] = where
    if seconds is not None:
        rec["seconds"] = seconds
    return rec


def _crash_cause(code):
    if code is not None and code < 0:
        try:
            return f"crash: {signal.Signals(-code).name}"
        except ValueError:
            return f"crash: signal {-code}"
    return mask(f"crash: exit code {code}")


def _short(nodeid, rel):
    """Test ids are stored relative to their file: ``test_a[x]``, ``TestC::test_b``."""
    return nodeid[len(rel) + 2:] if nodeid.startswith(rel + "::") else nodeid


def _tail(path, lines=30):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [line.rstrip("\n")[:300] for line in f.readlines()[-lines:]]
    except OSError:
        return []
