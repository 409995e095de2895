"""The differential check's long run: every generated program is checked, a
mismatch is recorded and the run goes on (the test in ``test_differential.py``
stops at the first one and shrinks it), then the counts are printed::

    PYTHONPATH=$PWD .venv/bin/python tests/reliability/long_run.py --seed 23 --programs 200

Each mismatching program is written as a regression test file (see
``regression.py``) under ``--out`` (default: a temporary directory, named in
the report): rename one after its bug, fix the bug, and move it to
``regressions/``.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, ".."), os.path.join(HERE, "..", "jit")]

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

import differential  # noqa: E402
import regression  # noqa: E402
import strategies  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--out", default=None)
    opts = parser.parse_args(argv)
    out = opts.out or tempfile.mkdtemp(prefix="msxla_long_run_")
    os.makedirs(out, exist_ok=True)
    logging.getLogger("msxla").setLevel(logging.ERROR)
    found, invalid = [], []
    start = time.perf_counter()

    @seed(opts.seed)
    @settings(max_examples=opts.programs, deadline=None, database=None,
              phases=["generate"], suppress_health_check=list(HealthCheck))
    @given(strategies.programs())
    def check(program):
        try:
            differential.check_program(program)
        except differential.Mismatch as err:
            regression.NEW_FAILURE = os.path.join(out, f"test_mismatch_{program.digest}.py")
            found.append(regression.save(program, str(err)))
            print(f"mismatch: {found[-1]}\n{str(err)[:1500]}", flush=True)
        except differential.InvalidProgram as err:
            invalid.append(program.digest)
            print(f"invalid program {program.digest}: {str(err)[:300]}", flush=True)
        tally = differential.TALLY
        print(f"[{time.perf_counter() - start:7.0f} s] {tally['programs']} programs, "
              f"{tally['checks']} comparisons, {tally['mismatches']} mismatches", flush=True)

    def stop(signum, frame):  # `timeout` sends SIGTERM: still print the counts
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    stopped = ""
    try:
        check()
    except KeyboardInterrupt:
        stopped = " (stopped before the last program)"
    tally = differential.TALLY
    print(f"long run (seed {opts.seed}){stopped}: {tally['programs']} programs, {tally['checks']} "
          f"program x mode comparisons, {tally['mismatches']} mismatches, {len(invalid)} "
          f"invalid, {time.perf_counter() - start:.0f} s; mismatching programs in {out}")
    return 1 if found or invalid else 0


if __name__ == "__main__":
    sys.exit(main())
