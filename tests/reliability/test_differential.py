"""The differential check under hypothesis: random programs, every capture
mode at O0 and O1, each call equal to PyNative.

CI runs a fixed seed and a small budget. The long run is the same test with
more examples (see DEVELOPERS.md, "Fuzzing")::

    MSXLA_FUZZ_EXAMPLES=300 MSXLA_FUZZ_SEED=1 .venv/bin/python -m pytest -q \\
        tests/reliability/test_differential.py

A failure is shrunk by hypothesis and the smallest failing program is written
to ``regressions/test_new_failure.py`` (``regression.py`` says what to do
with it).
"""
import logging
import os

from hypothesis import HealthCheck, given, seed, settings

import differential
import regression
import strategies
from program import Call, Program

EXAMPLES = int(os.environ.get("MSXLA_FUZZ_EXAMPLES", "10"))
SEED = int(os.environ.get("MSXLA_FUZZ_SEED", "20240601"))
# Draws for the coverage check: the programs follow the op pool (taken from the op
# table), so a new op row changes them; this many keep every construct in.
COVERAGE_DRAWS = 500
SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]


@seed(SEED)
@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=SLOW,
          print_blob=True)
@given(strategies.programs())
def test_jit_equals_pynative(program):
    log = logging.getLogger("msxla")
    level = log.level
    log.setLevel(logging.ERROR)  # recompile notes are expected here (and only here)
    try:
        differential.check_program(program)
    except differential.Mismatch as err:
        path = regression.save(program, err)
        raise differential.Mismatch(f"{err}\nsaved as {path}") from None
    finally:
        log.setLevel(level)


def test_the_generator_covers_every_kind_and_construct():
    """Over the CI budget's worth of draws, every program kind and every construct
    the generator knows appears (so the small budget still tests them)."""
    sources = []

    @seed(SEED)
    @settings(max_examples=COVERAGE_DRAWS, deadline=None, database=None,
              suppress_health_check=SLOW,
              phases=["generate"])
    @given(strategies.programs())
    def collect(program):
        sources.append(program.source)
    collect()
    text = "\n".join(sources)
    for construct in ("class Net", "def prog(", "def make_prog(", "opt = nn.", "value_and_grad(",
                      "jit(ms.value_and_grad", "ms.value_and_grad(jit(", "= jit(_helper",
                      "for cell", "in range(", "while k", "while ops.abs", "for row",
                      ".sum() >", "ops.assign", "append(", "def inner", "self.sub(",
                      "self.dense(", "['u']", "return {", ".add_(", "T0", "self.t",
                      "] = ", " if ", "lambda z", "L1(", "pj", "float(",
                      "else:\n", "break", "W2", ".copy()", "global R0"):
        assert construct in text, f"{construct!r} not in {len(sources)} programs"
    # the scalar argument as a shape: one of its three forms
    assert any(form in text for form in ("(n + 1, B)", "(n, B)", "(n + 1, 1)"))


def test_a_mismatch_is_reported_and_saved(tmp_path, monkeypatch):
    """The check can fail: a mode whose jit returns a wrong value is caught, and the
    program is written out as a runnable regression test."""
    program = Program('''\
import msxla as ms
from msxla import Parameter, Tensor, ops
import numpy as np
NET = None
W0 = Parameter(Tensor(np.ones(2, np.float32)), name="W0")


def state():
    return {"W0": W0}


def prog(x, y, n, c):
    ops.assign_add(W0, x.mean(axis=(0,)))
    return x * n + c[0]


def make_entry(jit):
    return jit(prog)
''', (Call((1, 2), 1, 2), Call((1, 2), 2, 3)))

    def wrong_jit(f, **kw):  # off by one, and every Parameter write applied twice
        return lambda *args: (f(*args), f(*args))[1] + 1
    with_wrong = [("broken", {})]
    monkeypatch.setattr(differential.ms, "jit", wrong_jit)
    real_tally = dict(differential.TALLY)  # the planted mismatch is not a finding
    try:
        differential.check_program(program, with_wrong)
    except differential.Mismatch as err:
        message = str(err)
    else:
        raise AssertionError("the broken mode was not caught")
    finally:
        differential.TALLY.update(real_tally)
    monkeypatch.undo()
    assert "[broken] call 0 out" in message and "[broken] call 1 out" in message
    assert "[broken] call 0 Parameter W0" in message
    monkeypatch.setattr(regression, "NEW_FAILURE", str(tmp_path / "test_saved.py"))
    path = regression.save(program, message)
    namespace = {}
    exec(compile(open(path).read(), path, "exec"), namespace)  # noqa: S102
    assert namespace["PROGRAM"] == program
    namespace["test_new_failure"]()  # the saved test passes in every real mode


def test_trace_is_expected_to_refuse_tensor_control_flow():
    """A program with Tensor control flow: trace must raise (checked), others compare."""
    program = Program('''\
import msxla as ms
from msxla import Tensor, ops
NET = None


def state():
    return {}


def prog(x, y, n, c):
    if x.sum() > 0.13:
        return x + 100
    return y - 100


def make_entry(jit):
    return jit(prog)
''', (Call((2, 2), 1, 0), Call((2, 2), 5, 0)), container="list")
    assert differential.check_program(program) == len(differential.jit_modes())
    assert any(label.startswith("trace") for label, _ in differential.jit_modes())


def test_derived_draws_are_reproducible():
    """The same seed draws the same programs (CI's budget is a fixed set)."""
    def draw_all():
        out = []

        @seed(SEED)
        @settings(max_examples=5, database=None, phases=["generate"],
                  suppress_health_check=SLOW)
        @given(strategies.programs())
        def collect(program):
            out.append(program.digest)
        collect()
        return out
    assert draw_all() == draw_all()

