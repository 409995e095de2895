"""Cold rows for ``real_models.py``: each row's first call and peak memory in a fresh process.

In one benchmark process, later rows find jax's tracing and compile caches
(and PyTorch's) warm, and the process's peak RSS belongs to no row. So each
row is run again in a process of its own: build the workload, time the first
call (capture, lowering and XLA compile for a jitted row; tracing and
Inductor's compile for ``torch.compile``), run two more steps, and report the
resident set size after building and at its peak.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import progress
import zoo_runners


def rss_mb(field="VmRSS"):
    """This process's resident set size (``VmRSS``) or its peak (``VmHWM``), in MB. (Not
    ``ru_maxrss``: Linux carries it over from the parent into an exec'd child.)"""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child_main(spec_json, select_device):
    """Run one row cold (in this fresh process) and print its numbers as one JSON line."""
    spec = json.loads(spec_json)
    select_device(spec.get("device", "cpu"))
    variant = next(v for v in zoo_runners.VARIANTS if v.name == spec["variant"])
    workload = zoo_runners.Workload(spec["model"], spec["config"])
    workload.set_direction(spec["direction"])
    runner = zoo_runners.build(variant, workload, spec["direction"])
    base = rss_mb()
    wall, cpu = runner.prepare()
    runner.block(2)
    print(json.dumps({"cold_prepare_s": wall, "cold_prepare_cpu_s": cpu, "base_rss_mb": base,
                      "peak_rss_mb": rss_mb("VmHWM")}))


def _torch_cold(table, config, row, torch_python, tmp, device):
    worker = zoo_runners.TorchWorker(torch_python, tmp, device)
    try:
        variant = next(v for v in zoo_runners.VARIANTS if v.name == row["variant"])
        workload = zoo_runners.Workload(table["model"], config)
        runner = zoo_runners.TorchRunner(variant, workload, table["direction"], worker)
        base = worker.ask(cmd="rss")["rss_mb"]
        wall, cpu = runner.prepare()
        runner.block(2)
        return {"cold_prepare_s": wall, "cold_prepare_cpu_s": cpu, "base_rss_mb": base,
                "peak_rss_mb": worker.ask(cmd="rss")["peak_rss_mb"]}
    finally:
        worker.close()


def add_cold(table, config, torch_python, tmp, log, device="cpu"):
    """Add ``cold_prepare_s``, ``cold_prepare_cpu_s``, ``base_rss_mb`` and ``peak_rss_mb``
    to every row of ``table``."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "real_models.py")
    for row in table["rows"]:
        if row.get("status", progress.OK) != progress.OK:
            continue
        if row["kind"].startswith("torch"):
            numbers = _torch_cold(table, config, row, torch_python, tmp, device)
        else:
            spec = {"model": table["model"], "config": config, "direction": table["direction"],
                    "variant": row["variant"], "device": device}
            proc = subprocess.run([sys.executable, script, "--child", json.dumps(spec)],
                                  capture_output=True, text=True, check=False)
            if proc.returncode:   # the row keeps its warm numbers; the cold run's failure
                row["cold_problem"] = (proc.stderr.strip().splitlines() or ["no output"])[-1]
                log(f"   cold {row['variant']} failed:\n{proc.stderr[-3000:]}")
                continue
            numbers = json.loads(proc.stdout.strip().splitlines()[-1])
        row.update(numbers)
        log(f"   cold {row['variant']}: first call {numbers['cold_prepare_s']:.1f} s, "
            f"peak RSS {numbers['peak_rss_mb']:.0f} MB")
