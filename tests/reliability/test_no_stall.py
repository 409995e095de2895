"""The Transformer shapes of MindSpore's nn tests, built and called in a loop in
a child process under a time limit: no round may block (``stall_probe.py``)."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _probe(*args, timeout):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, os.path.join(HERE, "stall_probe.py"), *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return [line for line in proc.stdout.splitlines() if line.startswith("round ")]


@pytest.mark.slow
def test_small_transformer_shapes_in_a_loop():
    rounds = _probe("--small", "--rounds", "10", "--calls", "3", "--round-timeout", "60",
                    timeout=300)
    assert len(rounds) == 10


@pytest.mark.slow
def test_transformer_and_decoder_shapes_twice():
    rounds = _probe("--rounds", "2", "--round-timeout", "240", timeout=540)
    assert len(rounds) == 2
