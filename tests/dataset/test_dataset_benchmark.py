"""The dataset benchmark runs end to end and reports every variant (speed is never
asserted): msxla's pipeline and the same pipeline written in grain give the same
number of images per epoch."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.slow
def test_dataset_benchmark_reports_every_variant(tmp_path):
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "benchmarks", "dataset_pipeline.py"), "--rounds", "1",
         "--workers", "1", "--root", str(tmp_path / "images"), "--json", str(out)],
        capture_output=True, text=True, timeout=1800, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = json.loads(out.read_text())["results"]
    assert set(rows) == {"msxla, 1 worker", "grain direct, 1 worker"}
    assert all(wall > 0 and cpu > 0 for wall, cpu in rows.values())
    assert "msxla's layer over grain, 1 worker" in proc.stdout
