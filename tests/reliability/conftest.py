"""Makes the reliability helpers importable (also from ``regressions/``), gives
the footgun suites their ``mode`` / ``jit_mode`` fixtures, and prints the
differential check's tally at the end of a long run (``MSXLA_FUZZ_EXAMPLES``
set; the default run keeps reports out of the test output)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pytest  # noqa: E402

from modes import available_modes  # noqa: E402

# PyNative and every capture mode at O0 (the differential check covers O1)
FOOTGUN_MODES = ["pynative"] + [m for m in available_modes() if m.endswith("-O0")]


@pytest.fixture(params=FOOTGUN_MODES)
def mode(request):
    return request.param


@pytest.fixture(params=FOOTGUN_MODES[1:])
def jit_mode(request):
    return request.param


def pytest_terminal_summary(terminalreporter):
    differential = sys.modules.get("differential")
    tally = getattr(differential, "TALLY", None)
    if tally and tally["programs"] and os.environ.get("MSXLA_FUZZ_EXAMPLES"):
        terminalreporter.write_line(
            f"differential check: {tally['programs']} programs, {tally['checks']} "
            f"program x mode comparisons, {tally['mismatches']} mismatches "
            f"({tally['known']} program x mode pairs skipped for known bugs)")
