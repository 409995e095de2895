"""``real_models.py``'s tables as Markdown, its ratios, its targets and its chart.

Ratios are per-step time divided by a peer's per-step time in the same run
(below 1: faster than the peer). Targets are reported, never asserted, and
judged on a CPU on process CPU time, which other processes on a shared machine
barely disturb (wall clock is in the tables beside it); on a GPU, where the
device does the work, on wall-clock time:

- jit never slower than PyNative: every jitted row's step <= PyNative's;
- at raw jax.jit: every O1 row >= 0.95x raw jax.jit's speed (train step);
- toward torch.compile: the best O1 row against torch.compile, per model;
- compile time: every jitted row's cold first call <= raw jax.jit's + 20%.
"""
from __future__ import annotations

import png_chart
import progress

REFERENCE, PYNATIVE, TORCH = "raw jax.jit", "PyNative", "torch.compile"
SPEED_OF_JAX = 0.95
PREPARE_SLACK = 1.2
COLUMNS = ["variant", "prepare (this process)", "first call, fresh process", "per step",
           "CPU per step", "vs raw jax.jit (wall / CPU)", "vs PyNative ({})",
           "vs torch.compile ({})", "peak RSS, fresh process", "max rel. error"]


def add_ratios(rows):
    """Each row's ratios to its peers (None where the row or the peer has no timings)."""
    by_name = {r["variant"]: r for r in progress.timed(rows)}
    for row in rows:
        for key, peer in (("jax", REFERENCE), ("pynative", PYNATIVE), ("torch", TORCH)):
            ref = by_name.get(peer) if row.get("status", progress.OK) == progress.OK else None
            row[f"cpu_ratio_to_{key}"] = (row["cpu_per_call_us"] / ref["cpu_per_call_us"]
                                          if ref else None)
            row[f"ratio_to_{key}"] = row["per_call_us"] / ref["per_call_us"] if ref else None


def _t(us):
    if us is None:
        return "-"
    if us >= 1e5:
        return f"{us / 1e6:.2f} s"
    if us >= 1e3:
        return f"{us / 1e3:.1f} ms"
    return f"{us:.0f} µs"


def _r(x):
    return "-" if x is None else f"{x:.2f}"


def _cells(row, pre):
    cold = row.get("cold_prepare_s")
    rss = row.get("peak_rss_mb")
    error = row.get("max_relative_error")
    return [progress.label(row),
            "-" if row.get("prepare_s") is None else f"{row['prepare_s']:.1f} s",
            "-" if cold is None else f"{cold:.1f} s ({row['cold_prepare_cpu_s']:.1f} s CPU)",
            _t(row["per_call_us"]), _t(row["cpu_per_call_us"]),
            f"{_r(row.get('ratio_to_jax'))} / {_r(row.get('cpu_ratio_to_jax'))}",
            _r(row.get(pre + "pynative")), _r(row.get(pre + "torch")),
            "-" if rss is None else f"{rss:.0f} MB", "-" if error is None else f"{error:.0e}"]


def table_markdown(table, basis="cpu"):
    pre = "cpu_ratio_to_" if basis == "cpu" else "ratio_to_"
    columns = [c.format("CPU" if basis == "cpu" else "wall") for c in COLUMNS]
    lines = [f"#### {table['title']}", "", "| " + " | ".join(columns) + " |",
             "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cells(row, pre)) + " |" for row in table["rows"]]
    notes = [f"- {table['problem']}"] if table.get("problem") else []
    notes += [f"- {r['variant']}: {r['problem']}" for r in table["rows"] if r.get("problem")]
    return "\n".join(lines + ([""] + notes if notes else []))


def machine_markdown(result):
    m, s = result["machine"], result["settings"]
    torch = m.get("torch")
    peers = (f", torch {torch['torch']} ({torch['threads']} threads, OMP_WAIT_POLICY "
             f"{torch.get('omp_wait_policy')})" if torch else "")
    return (f"Machine: {m['cpu']}, {m['cores']} cores usable, device {m.get('device', 'cpu')}"
            f"{_cuda(torch)}, load average "
            f"{m['load_average_at_start']} at start{_at_end(m)}. Versions: python "
            f"{m['python']}, jax {m['jax']}, jaxlib {m['jaxlib']}, msxla "
            f"{m['msxla']}, numpy {m['numpy']}{peers}. Settings: {s['rounds']} interleaved "
            f"rounds, blocks of up to {s['calls']} calls cut to ~{s['max_block_s']} s; per step "
            "= best block; CPU = process CPU time (all threads).")


def _at_end(machine):
    end = machine.get("load_average_at_end")
    return "" if end is None else f" and {end} at the end"


def _cuda(torch):
    return f" (torch: {torch['cuda']})" if torch and torch.get("cuda", "-") != "-" else ""


def basis(result):
    """What the targets are judged on: "cpu" (process CPU time) or "wall" (on a GPU)."""
    return "wall" if result["settings"].get("device", "cpu") == "gpu" else "cpu"


def targets_markdown(result):
    on = "process CPU time" if basis(result) == "cpu" else "wall-clock time"
    parts = [f"#### Targets (reported, not asserted; judged on {on} per step)", "",
             "| target | measured | met |", "|---|---|---|"]
    for c in result["targets"]:
        met = "-" if c["met"] is None else ("yes" if c["met"] else "no")
        parts.append(f"| {c['target']} | {c['measured']} | {met} |")
    return "\n".join(parts) + "\n"


def to_markdown(result):
    parts = [machine_markdown(result), ""]
    for table in result["tables"]:
        parts += [table_markdown(table, basis(result)), ""]
    return "\n".join(parts) + "\n" + targets_markdown(result)


def _jit(table, level=None):
    return [r for r in progress.timed(table["rows"])
            if r["enable_jit"] and level in (None, r["jit_level"])]


def targets(tables, basis="cpu"):
    """The targets' checks, judged on ``basis``: "cpu" (process CPU time) or "wall"."""
    pre = "cpu_ratio_to_" if basis == "cpu" else "ratio_to_"
    checks = []
    for table in tables:
        rows = {r["variant"]: r for r in progress.timed(table["rows"])}
        title, jit = table["title"], _jit(table)
        if PYNATIVE in rows and jit:
            worst = max(jit, key=lambda r: r[pre + "pynative"])
            checks.append({"target": f"{title}: every jitted row at most PyNative's time",
                           "measured": f"worst {worst[pre + 'pynative']:.2f}x "
                                       f"({worst['variant']})",
                           "met": worst[pre + "pynative"] <= 1.0})
        o1 = _jit(table, "O1")
        if o1 and REFERENCE in rows:
            worst = max(o1, key=lambda r: r[pre + "jax"])
            speed = 1 / worst[pre + "jax"]
            checks.append({"target": f"{title}: every O1 row >= {SPEED_OF_JAX}x raw jax.jit's "
                                     "speed",
                           "measured": f"slowest {speed:.2f}x ({worst['variant']})",
                           "met": speed >= SPEED_OF_JAX})
        if o1 and TORCH in rows:
            best = min(o1, key=lambda r: r[pre + "torch"])
            checks.append({"target": f"{title}: best O1 row against torch.compile",
                           "measured": f"{best[pre + 'torch']:.2f}x its time "
                                       f"({best['variant']}; raw jax.jit "
                                       f"{rows[REFERENCE][pre + 'torch']:.2f}x)",
                           "met": None})
        cold = [r for r in jit if r.get("cold_prepare_s") is not None]
        ref = rows.get(REFERENCE, {}).get("cold_prepare_s")
        if cold and ref:
            worst = max(cold, key=lambda r: r["cold_prepare_s"])
            ratio = worst["cold_prepare_s"] / ref
            checks.append({"target": f"{title}: every jitted row's first call (fresh process) "
                                     f"<= raw jax.jit's + {PREPARE_SLACK - 1:.0%}",
                           "measured": f"worst {ratio:.2f}x ({worst['variant']}, "
                                       f"{worst['cold_prepare_s']:.1f} s vs {ref:.1f} s)",
                           "met": ratio <= PREPARE_SLACK})
    return checks


def plot(result, path):
    """The per-step chart (``png_chart``'s bars: wall clock, and process CPU time)."""
    with open(path, "wb") as fh:
        fh.write(png_chart.draw(result))
