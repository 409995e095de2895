"""The runnable examples (the seeds' tutorials first) run and print what they should."""
import os
import re
import runpy

import pytest

from helpers import run_msxla

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")


def run_example(name, capsys):
    runpy.run_path(os.path.join(EXAMPLES, name), run_name="__main__")
    return capsys.readouterr().out


def test_quickstart_runs_unchanged_through_python_m_msxla():
    proc = run_msxla([os.path.join(EXAMPLES, "quickstart.py")])
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = re.findall(r"^(PyNative|jit \w+) +[\d.]+ ms per call(, same result: (\w+))?$",
                      proc.stdout, re.M)
    assert [r[0] for r in rows] == ["PyNative", "jit ast", "jit bytecode", "jit trace"]
    assert [r[2] for r in rows[1:]] == ["True"] * 3


def test_jit_practice_seed_002(capsys):
    out = run_example("jit_practice.py", capsys)
    rows = re.findall(r"^(function[^,]*), out shape: \(2, 3\), time to prepare: [\d.]+s, "
                      r"time to run thousand times: [\d.]+s$", out, re.M)
    assert len(rows) == 13  # every variant of the tutorial's table


def test_static_graph_seed_003(capsys):
    out = run_example("static_graph.py", capsys)
    assert out.count("(64, 10)") == 4 and "matches PyNative: True" in out


def test_ms_function_seed_004(capsys):
    out = run_example("ms_function.py", capsys)
    assert "[[2. 2. 2.]" in out                      # add_func
    assert "1024." in out                            # Test(): (1+1)*2 squared twice, doubled
    lines = out.strip().splitlines()
    assert "5" in lines                              # the global is untouched
    assert lines[-3:] == ["[[2. 2. 2.]", " [2. 2. 2.]", " [2. 2. 2.]]"]  # sees func.value = 1


@pytest.mark.slow
def test_train_mnist_like(capsys, monkeypatch):
    monkeypatch.setattr("sys.argv", ["train_mnist_like.py", "--epochs", "4"])
    out = run_example("train_mnist_like.py", capsys)
    losses = [float(x) for x in re.search(r"mean loss per epoch: (.*)", out).group(1).split(",")]
    assert len(losses) == 4 and losses[-1] < losses[0]


@pytest.mark.slow
def test_train_lenet_runs_unchanged_mindspore_code(tmp_path):
    """The model-zoo style LeNet script imports ``mindspore``; ``python -m msxla`` runs it."""
    import subprocess
    import sys
    ckpt = tmp_path / "ckpt"
    proc = subprocess.run(
        [sys.executable, "-m", "msxla", os.path.join(EXAMPLES, "train_lenet.py"), "--epochs",
         "2", "--train_size", "256", "--sink_size", "4", "--ckpt_dir", str(ckpt)],
        capture_output=True, text=True, timeout=1200, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert re.findall(r"^epoch: (\d) step: (\d), loss is [\d.]+$", out, re.M) == \
        [("1", "4"), ("2", "4")]  # sink mode: one line per sink of 4 steps
    assert len(re.findall(r"^Train epoch time: [\d.]+ ms, per step time: [\d.]+ ms$", out,
                          re.M)) == 2
    assert re.search(r"^============== Accuracy:\{'Accuracy': 0\.\d+\} ==============$", out,
                     re.M)
    assert "checkpoints: ['checkpoint_lenet-1_4.ckpt', 'checkpoint_lenet-2_4.ckpt']" in out
