"""The training benchmark runs end to end and reports every variant (speed is never
asserted)."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.slow
def test_train_benchmark_reports_every_variant(tmp_path):
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "benchmarks", "train_model.py"), "--workloads",
         "mlp", "--rounds", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=1800, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = json.loads(out.read_text())["results"]["mlp"]
    assert set(rows) == {"per-step", "sink 1", "sink 10", "sink 100", "PyNative per-step"}
    assert all(wall > 0 and cpu > 0 for wall, cpu in rows.values())
    assert "Target: sink mode >= 2x per-step on the mlp MLP" in proc.stdout
