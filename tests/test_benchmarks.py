"""The jit tutorial's benchmark runs end to end and its jax peers compute what msxla does.

Speed is never asserted here: only that every variant is reported with numbers.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "benchmarks")
sys.path.insert(0, BENCH)

import jax_peers  # noqa: E402
import png_chart  # noqa: E402
import report  # noqa: E402
import variants  # noqa: E402
import workloads  # noqa: E402


def test_quick_run_reports_every_variant(tmp_path):
    out_png = tmp_path / "per_call.png"
    proc = subprocess.run(
        [sys.executable, os.path.join(BENCH, "jit_practice.py"), "--quick", "--workloads",
         "simple", "--rounds", "1", "--calls", "5", "--min-s", "0", "--json",
         "--plot", str(out_png)],
        check=False, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout)
    (table,) = result["tables"]
    names = [row["variant"] for row in table["rows"]]
    assert names == [v.name for v in variants.ALL_VARIANTS]
    for row in table["rows"]:
        assert isinstance(row["ratio_to_jax_jit"], float) and row["ratio_to_jax_jit"] > 0
        assert row["per_call_us"] > 0 and row["prepare_s"] > 0
        assert row["max_relative_error"] <= 1e-4
        if row["kind"] == "msxla" and row["enable_jit"]:
            assert row["compiles"] == 1
            assert row["captured_by"] in ("ast", "bytecode", "trace",
                                          "trace (front end pending)")
            assert row["compiled_by"] != "-"
    assert next(r for r in table["rows"] if r["variant"] == "raw jax.jit")[
        "ratio_to_jax_jit"] == 1.0
    assert result["machine"]["cores"] >= 1 and result["machine"]["jax"]
    assert any("1.3x" in t["target"] for t in result["targets"])
    assert out_png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_markdown_has_the_seed_columns():
    row = {"variant": "ast O0", "kind": "msxla", "enable_jit": True, "jit_level": "O0",
           "capture_mode": "ast", "captured_by": "ast", "backend": "ms_backend",
           "compiled_by": "XLA", "fullgraph": False, "prepare_s": 0.2,
           "time_for_1000_calls_s": 0.01, "per_call_us": 8.0, "cpu_per_call_us": 7.5,
           "ratio_to_jax_jit": 1.2, "cpu_ratio_to_jax_jit": 1.25, "compiles": 1}
    text = report.table_markdown({"title": "t", "rows": [row]})
    header = text.splitlines()[2]
    for column in ("enable jit", "jit level", "capture mode", "backend", "fullgraph",
                   "time to prepare", "time to run 1000 times", "per call",
                   "ratio to jax.jit (wall / CPU)", "compiles"):
        assert f"| {column} |" in header
    assert "| 8.0 µs | 7.5 µs | 1.20 / 1.25 | 1 |" in text


def _row(name, mode, level, wall_us, cpu_us, kind="msxla"):
    return {"variant": name, "kind": kind, "enable_jit": True, "backend": "ms_backend",
            "capture_mode": mode, "jit_level": level, "fullgraph": False,
            "per_call_us": wall_us, "cpu_per_call_us": cpu_us}


def test_targets_flag_a_slow_variant():
    table = {"workload": "attention", "title": "a",
             "rows": [_row("ast O0", "ast", "O0", 10.0, 10.0),
                      _row("ast O1", "ast", "O1", 10.0, 12.0),
                      _row("trace O1", "trace", "O1", 10.0, 10.0),
                      _row("raw jax.jit", "jax.jit", "-", 10.0, 10.0, kind="jax.jit")]}
    on_cpu = {c["target"]: c["met"] for c in report.targets([table], "cpu")}
    assert on_cpu["a: every O1 variant >= 0.95x the speed of raw jax.jit"] is False
    assert on_cpu["a: ast, trace at O1 within 10% of each other"] is False
    assert on_cpu["a: ast O1 at least as fast as O0"] is False
    on_wall = {c["target"]: c["met"] for c in report.targets([table], "wall")}
    assert all(on_wall.values())


def test_png_font_covers_the_labels():
    for v in variants.ALL_VARIANTS:
        assert set(v.name.upper()) <= set(png_chart.GLYPHS)


@pytest.mark.parametrize("name", ["basic_block", "attention"])
def test_jax_peer_matches_msxla_forward(name):
    w = workloads.make_workload(name)
    peer = jax_peers.make_peer(w)
    expected = w.forward(*w.inputs).asnumpy()
    got = np.asarray(peer.forward(*peer.forward_args))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


def test_a_disagreeing_or_failing_row_is_recorded_and_the_others_are_timed(
        tmp_path, monkeypatch):
    import jit_practice
    import msxla as ms
    out = tmp_path / "r.json"
    real_build = jit_practice.build

    def build(variant, *args):
        if variant.name == "trace O0":
            raise RuntimeError("this row cannot be built")
        return real_build(variant, *args)
    # every msxla row is off by more than this tolerance (0 error is still > -1)
    monkeypatch.setattr(jit_practice, "TOLERANCE", {variants.FORWARD: -1.0})
    monkeypatch.setattr(jit_practice, "build", build)
    target = ms.get_context("device_target")
    try:
        status = jit_practice.main(
            ["--workloads", "simple", "--variants", "ast O0,trace O0,jax eager",
             "--rounds", "1", "--calls", "3", "--min-s", "0", "--json",
             "--save-json", str(out)])
    finally:
        ms.set_context(device_target=target)
    assert status == 1
    (table,) = json.loads(out.read_text())["tables"]
    rows = {r["variant"]: r for r in table["rows"]}
    assert rows["ast O0"]["status"] == "disagrees" and rows["ast O0"]["per_call_us"] is None
    assert "max relative error" in rows["ast O0"]["problem"]
    assert rows["trace O0"]["status"] == "failed"
    assert "this row cannot be built" in rows["trace O0"]["problem"]
    assert rows["jax eager"]["status"] == "disagrees"   # a peer is checked like any row
    assert rows["raw jax.jit"]["status"] == "ok" and rows["raw jax.jit"]["per_call_us"] > 0
    text = report.table_markdown(table)
    assert "ast O0 **DISAGREES**" in text and "trace O0 **FAILED**" in text
    assert all("ast O0" not in t["measured"] for t in report.targets([table]))


def test_progress_writes_each_row_as_it_is_added(tmp_path):
    import progress
    path = tmp_path / "p.json"
    record = progress.Progress({"tables": []}, str(path))
    table = record.start_table({"title": "t"})
    record.add_row(table, {"variant": "a", "status": progress.PREPARED})
    assert json.loads(path.read_text())["tables"][0]["rows"] == [
        {"variant": "a", "status": "prepared"}]
    try:
        raise ValueError("broken")
    except ValueError as err:
        record.fail(table["rows"][0], err)
    saved = json.loads(path.read_text())["tables"][0]["rows"][0]
    assert saved["status"] == "failed" and saved["problem"].startswith("ValueError: broken")
    assert record.finish(lambda _: None) == 1
