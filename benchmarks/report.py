"""The jit tutorial's table as Markdown, and the speed targets read off the results.

A result is the dict ``jit_practice.py --json`` prints: ``machine``,
``settings``, ``tables`` (one per workload and direction, each with its
``rows``) and ``targets``. ``targets(tables, basis)`` evaluates the project's
speed targets; they are reported, never asserted. On a CPU they are judged on
process CPU time, which other processes on a shared machine barely disturb;
on a GPU (whose work a process's CPU time does not count) on wall time.
"""
from __future__ import annotations

import progress

COLUMNS = ["variant", "enable jit", "jit level", "capture mode", "captured by", "backend",
           "compiled by", "fullgraph", "time to prepare", "time to run 1000 times", "per call",
           "CPU per call", "ratio to jax.jit (wall / CPU)", "compiles"]
REFERENCE = "raw jax.jit"
SIMPLE_RATIO = 1.3        # jitted a*b+c per call <= 1.3x raw jax.jit
SPEED_OF_JAX = 0.95       # BasicBlock / attention: >= 0.95x the speed of raw jax.jit
MODE_SPREAD = 1.10        # ast, bytecode and trace within 10% of each other


def _fmt_time(us):
    if us is None:
        return "-"
    if us >= 1e5:
        return f"{us / 1e6:.2f} s"
    if us >= 1e3:
        return f"{us / 1e3:.2f} ms"
    return f"{us:.1f} µs"


def _cells(row):
    fullgraph = "-" if row["fullgraph"] is None else str(row["fullgraph"]).lower()
    compiles = "-" if row["compiles"] is None else str(row["compiles"])
    prepare = "-" if row.get("prepare_s") is None else f"{row['prepare_s']:.2f} s"
    ok = row.get("status", progress.OK) == progress.OK
    return [progress.label(row), str(row["enable_jit"]).lower(), row["jit_level"],
            row["capture_mode"], row["captured_by"], row["backend"], row["compiled_by"],
            fullgraph, prepare, f"{row['time_for_1000_calls_s']:.3f} s" if ok else "-",
            _fmt_time(row["per_call_us"]), _fmt_time(row["cpu_per_call_us"]),
            f"{row['ratio_to_jax_jit']:.2f} / {row['cpu_ratio_to_jax_jit']:.2f}" if ok
            else "-", compiles]


def table_markdown(table):
    lines = [f"#### {table['title']}", "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cells(row)) + " |" for row in table["rows"]]
    notes = [f"- {table['problem']}"] if table.get("problem") else []
    notes += [f"- {r['variant']}: {r['problem']}" for r in table["rows"] if r.get("problem")]
    return "\n".join(lines + ([""] + notes if notes else []))


def machine_markdown(result):
    m, s = result["machine"], result["settings"]
    return (f"Machine: {m['cpu']}, {m['cores']} cores usable, device {m['device']}, "
            f"load average at start {m['load_average_at_start']}. Versions: python "
            f"{m['python']}, jax {m['jax']}, jaxlib {m['jaxlib']}, msxla {m['msxla']}, numpy "
            f"{m['numpy']}. Settings: {s['rounds']} interleaved rounds, up to {s['calls']} "
            f"calls per block (blocks of slow variants cut to ~{s['max_block_s']} s); per "
            "call = best block (wall clock); CPU per call = best block in process CPU time (all "
            "threads); time to run 1000 times = mean of all timed calls x 1000; ratio = per "
            "call / raw jax.jit's per call.")


def targets_markdown(checks):
    lines = ["| target | measured | met |", "|---|---|---|"]
    for c in checks:
        lines.append(f"| {c['target']} | {c['measured']} | {'yes' if c['met'] else 'no'} |")
    return "\n".join(lines)


def targets_section(result):
    if not result["targets"]:
        return ""
    basis = "process CPU time" if result["targets"][0]["basis"] == "cpu" else "wall time"
    return "\n".join([f"#### Targets (reported, not asserted; judged on per-call {basis})", "",
                      targets_markdown(result["targets"]), ""])


def to_markdown(result):
    parts = [machine_markdown(result), ""]
    for table in result["tables"]:
        parts += [table_markdown(table), ""]
    return "\n".join(parts) + "\n" + targets_section(result)


# ------------------------------------------------------------------ targets
def _jit_rows(table, level=None):
    return [r for r in progress.timed(table["rows"])
            if r["kind"] == "msxla" and r["enable_jit"]
            and r["backend"] == "ms_backend" and (level is None or r["jit_level"] == level)]


def _time(row, basis):
    return row["cpu_per_call_us"] if basis == "cpu" else row["per_call_us"]


def targets(tables, basis="cpu"):
    """The speed targets, each with what was measured and whether it is met, judged on
    per-call process CPU time (``basis="cpu"``: what a variant costs, whatever else the
    machine runs) or wall-clock time (``"wall"``: the GPU's basis)."""
    checks = []
    for table in tables:
        jit_rows = _jit_rows(table)
        refs = [r for r in progress.timed(table["rows"]) if r["variant"] == REFERENCE]
        if not jit_rows or not refs:
            continue
        ref, title = refs[0], table["title"]

        def ratio(row):
            return _time(row, basis) / _time(ref, basis)
        if table["workload"] == "simple":
            worst = max(jit_rows, key=ratio)
            checks.append({"target": f"{title}: every jitted variant per call <= "
                                     f"{SIMPLE_RATIO}x raw jax.jit",
                           "measured": f"worst {ratio(worst):.2f}x ({worst['variant']})",
                           "met": ratio(worst) <= SIMPLE_RATIO})
        elif _jit_rows(table, "O1"):
            worst = max(_jit_rows(table, "O1"), key=ratio)
            speed = 1 / ratio(worst)
            checks.append({"target": f"{title}: every O1 variant >= {SPEED_OF_JAX}x the "
                                     "speed of raw jax.jit",
                           "measured": f"slowest {speed:.2f}x ({worst['variant']})",
                           "met": speed >= SPEED_OF_JAX})
        checks += _mode_spread(table, title, basis)
        if table["workload"] == "attention":
            checks += _o1_vs_o0(table, title, basis)
    for check in checks:
        check["basis"] = basis
    return checks


def _mode_spread(table, title, basis):
    checks = []
    for level in ("O0", "O1"):
        rows = [r for r in _jit_rows(table, level) if not r["fullgraph"]]
        if len({r["capture_mode"] for r in rows}) < 2:
            continue
        times = [_time(r, basis) for r in rows]
        spread = max(times) / min(times)
        modes = ", ".join(r["capture_mode"] for r in rows)
        checks.append({"target": f"{title}: {modes} at {level} within 10% of each other",
                       "measured": f"slowest / fastest = {spread:.2f}",
                       "met": spread <= MODE_SPREAD})
    return checks


def _o1_vs_o0(table, title, basis):
    checks = []
    by_key = {(r["capture_mode"], r["fullgraph"], r["jit_level"]): r for r in _jit_rows(table)}
    for (mode, fullgraph, level), o1 in by_key.items():
        o0 = by_key.get((mode, fullgraph, "O0"))
        if level != "O1" or o0 is None:
            continue
        ratio = _time(o1, basis) / _time(o0, basis)
        name = mode + (" fullgraph" if fullgraph else "")
        checks.append({"target": f"{title}: {name} O1 at least as fast as O0",
                       "measured": f"O1 / O0 time = {ratio:.2f}",
                       "met": ratio <= 1.0})
    return checks
