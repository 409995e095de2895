"""The real-model benchmark runs end to end, picks its device, and judges its targets
on the right clock.

Speed is never asserted here: only that rows are reported with numbers, that
``--device gpu`` is refused with what to do where jax has no GPU, and that the
targets read process CPU time on a CPU and wall-clock time on a GPU.
"""
import json
import os
import subprocess
import sys

import jax
import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "benchmarks")
sys.path.insert(0, BENCH)

import zoo_report  # noqa: E402


def _run(*args, timeout=300):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, os.path.join(BENCH, "real_models.py"), *args],
                          check=False, capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=env)


def _has_gpu():
    try:
        return bool(jax.devices("gpu"))
    except RuntimeError:
        return False


@pytest.mark.skipif(_has_gpu(), reason="jax sees a GPU here")
def test_device_gpu_is_refused_without_a_gpu():
    proc = _run("--device", "gpu", "--quick", "--models", "lenet")
    assert proc.returncode != 0
    assert "--device gpu" in proc.stderr and "--device cpu" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_quick_run_reports_rows_with_numbers():
    proc = _run("--quick", "--models", "lenet", "--directions", "forward",
                "--variants", "PyNative,ast O1", "--rounds", "1", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout)
    assert result["settings"]["device"] == "cpu"
    assert result["machine"]["device"].startswith("cpu")
    (table,) = result["tables"]
    assert [r["variant"] for r in table["rows"]] == ["PyNative", "ast O1", "raw jax.jit"]
    for row in table["rows"]:
        assert row["per_call_us"] > 0 and row["cpu_per_call_us"] > 0 and row["prepare_s"] > 0
        assert row["ratio_to_jax"] > 0 and row["max_relative_error"] <= 2e-3


def _row(name, wall, cpu, level="-"):
    return {"variant": name, "kind": "msxla" if level != "-" else "jax.jit",
            "enable_jit": level != "-", "jit_level": level, "per_call_us": wall,
            "cpu_per_call_us": cpu}


@pytest.mark.parametrize("basis, met", [("cpu", True), ("wall", False)])
def test_targets_read_cpu_time_on_a_cpu_and_wall_time_on_a_gpu(basis, met):
    # ast O1 takes 2x raw jax.jit's wall time but the same CPU time
    rows = [_row("raw jax.jit", 100.0, 100.0), _row("ast O1", 200.0, 100.0, "O1")]
    zoo_report.add_ratios(rows)
    checks = zoo_report.targets([{"title": "t", "rows": rows}], basis)
    (speed,) = [c for c in checks if "raw jax.jit's speed" in c["target"]]
    assert speed["met"] is met
    device = "gpu" if basis == "wall" else "cpu"
    assert zoo_report.basis({"settings": {"device": device}}) == basis
    assert zoo_report.basis({"settings": {}}) == "cpu"   # results saved before --device


class _FakeRunner:
    """A row whose results are ``value`` (or whose first call raises)."""

    def __init__(self, variant, value):
        self.variant, self.value = variant, value

    def prepare(self):
        if self.value is None:
            raise RuntimeError("out of memory")
        return 0.5, 0.5

    def check(self):
        return {"out": np.full(3, self.value)}

    def block(self, n):
        return 1e-3 * n, 1e-3 * n

    def counters(self):
        return None


class _FakeWorkload:
    def __init__(self, model, config):
        self.model = model

    def set_direction(self, direction):
        self.direction = direction


def test_a_disagreeing_or_failing_row_is_kept_and_the_others_are_timed(tmp_path, monkeypatch):
    import progress
    import real_models
    import zoo_runners
    values = {"PyNative": 1.0, "ast O0": 2.0, "ast O1": None, "raw jax.jit": 1.0}
    monkeypatch.setattr(real_models, "Workload", _FakeWorkload)
    monkeypatch.setattr(real_models, "build",
                        lambda v, w, d, worker: _FakeRunner(v, values[v.name]))
    path = tmp_path / "r.json"
    record = progress.Progress({"tables": []}, str(path))
    chosen = [v for v in zoo_runners.VARIANTS if v.name in values]
    real_models.run_table("lenet", real_models.CONFIGS["lenet"], "train", chosen,
                          {"rounds": 1, "calls": 2, "max_block_s": 0.1}, None, record)
    (table,) = json.loads(path.read_text())["tables"]
    rows = {r["variant"]: r for r in table["rows"]}
    assert rows["ast O0"]["status"] == "disagrees" and rows["ast O0"]["per_call_us"] is None
    assert rows["ast O1"]["status"] == "failed" and "out of memory" in rows["ast O1"]["problem"]
    assert rows["PyNative"]["status"] == "ok" and rows["PyNative"]["ratio_to_jax"] == 1.0
    text = zoo_report.table_markdown(table)
    assert "ast O0 **DISAGREES**" in text and "ast O1 **FAILED**" in text
    assert record.finish(lambda _: None) == 1
