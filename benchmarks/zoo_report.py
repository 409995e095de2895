"""``real_models.py``'s tables as Markdown, its ratios, its targets and its chart.

Ratios are per-step time divided by a peer's per-step time in the same run
(below 1: faster than the peer). Targets are reported, never asserted, and
judged on process CPU time, which other processes on a shared machine barely
disturb (wall clock is in the tables beside it):

- jit never slower than PyNative: every jitted row's step <= PyNative's;
- at raw jax.jit: every O1 row >= 0.95x raw jax.jit's speed (train step);
- toward torch.compile: the best O1 row against torch.compile, per model;
- compile time: every jitted row's cold first call <= raw jax.jit's + 20%.
"""
from __future__ import annotations

import png_chart

REFERENCE, PYNATIVE, TORCH = "raw jax.jit", "PyNative", "torch.compile"
SPEED_OF_JAX = 0.95
PREPARE_SLACK = 1.2
COLUMNS = ["variant", "prepare (this process)", "first call, fresh process", "per step",
           "CPU per step", "vs raw jax.jit (wall / CPU)", "vs PyNative (CPU)",
           "vs torch.compile (CPU)", "peak RSS, fresh process", "max rel. error"]


def add_ratios(rows):
    by_name = {r["variant"]: r for r in rows}
    for row in rows:
        for key, peer in (("jax", REFERENCE), ("pynative", PYNATIVE), ("torch", TORCH)):
            ref = by_name.get(peer)
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


def _cells(row):
    cold = row.get("cold_prepare_s")
    rss = row.get("peak_rss_mb")
    return [row["variant"], f"{row['prepare_s']:.1f} s",
            "-" if cold is None else f"{cold:.1f} s ({row['cold_prepare_cpu_s']:.1f} s CPU)",
            _t(row["per_call_us"]), _t(row["cpu_per_call_us"]),
            f"{_r(row['ratio_to_jax'])} / {_r(row['cpu_ratio_to_jax'])}",
            _r(row["cpu_ratio_to_pynative"]), _r(row["cpu_ratio_to_torch"]),
            "-" if rss is None else f"{rss:.0f} MB", f"{row['max_relative_error']:.0e}"]


def table_markdown(table):
    lines = [f"#### {table['title']}", "", "| " + " | ".join(COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cells(row)) + " |" for row in table["rows"]]
    return "\n".join(lines)


def machine_markdown(result):
    m, s = result["machine"], result["settings"]
    torch = m.get("torch")
    peers = (f", torch {torch['torch']} ({torch['threads']} threads, OMP_WAIT_POLICY "
             f"{torch.get('omp_wait_policy')})" if torch else "")
    return (f"Machine: {m['cpu']}, {m['cores']} cores usable, load average "
            f"{m['load_average_at_start']} at start and {m.get('load_average_at_end')} at the "
            f"end. Versions: python {m['python']}, jax {m['jax']}, jaxlib {m['jaxlib']}, msxla "
            f"{m['msxla']}, numpy {m['numpy']}{peers}. Settings: {s['rounds']} interleaved "
            f"rounds, blocks of up to {s['calls']} calls cut to ~{s['max_block_s']} s; per step "
            "= best block; CPU = process CPU time (all threads).")


def to_markdown(result):
    parts = [machine_markdown(result), ""]
    for table in result["tables"]:
        parts += [table_markdown(table), ""]
    parts += ["#### Targets (reported, not asserted; judged on process CPU time per step)", "",
              "| target | measured | met |", "|---|---|---|"]
    for c in result["targets"]:
        met = "-" if c["met"] is None else ("yes" if c["met"] else "no")
        parts.append(f"| {c['target']} | {c['measured']} | {met} |")
    return "\n".join(parts) + "\n"


def _jit(table, level=None):
    return [r for r in table["rows"] if r["enable_jit"] and level in (None, r["jit_level"])]


def targets(tables):
    checks = []
    for table in tables:
        rows = {r["variant"]: r for r in table["rows"]}
        title, jit = table["title"], _jit(table)
        if PYNATIVE in rows and jit:
            worst = max(jit, key=lambda r: r["cpu_ratio_to_pynative"])
            checks.append({"target": f"{title}: every jitted row at most PyNative's time",
                           "measured": f"worst {worst['cpu_ratio_to_pynative']:.2f}x "
                                       f"({worst['variant']})",
                           "met": worst["cpu_ratio_to_pynative"] <= 1.0})
        o1 = _jit(table, "O1")
        if o1 and REFERENCE in rows:
            worst = max(o1, key=lambda r: r["cpu_ratio_to_jax"])
            speed = 1 / worst["cpu_ratio_to_jax"]
            checks.append({"target": f"{title}: every O1 row >= {SPEED_OF_JAX}x raw jax.jit's "
                                     "speed",
                           "measured": f"slowest {speed:.2f}x ({worst['variant']})",
                           "met": speed >= SPEED_OF_JAX})
        if o1 and TORCH in rows:
            best = min(o1, key=lambda r: r["cpu_ratio_to_torch"])
            checks.append({"target": f"{title}: best O1 row against torch.compile",
                           "measured": f"{best['cpu_ratio_to_torch']:.2f}x its time "
                                       f"({best['variant']}; raw jax.jit "
                                       f"{rows[REFERENCE]['cpu_ratio_to_torch']:.2f}x)",
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
