"""The ``mindspore.jit`` practice tutorial's benchmark table, with jax peers, in one run.

Workloads: the tutorial's ``a*b+c`` on (2,3) float32; ResNet's BasicBlock on
(2,64,32,32) and Llama's attention block on (2,128,512), forward and
forward+backward. Variants: the tutorial's table (PyNative; ast, bytecode and
trace at O0, O1 and backend GE; ast with fullgraph=True) and, in the same
run, raw ``jax.jit`` and jax eager of the same computation written in jax
with the same weights (checked to agree numerically before timing).
A row that disagrees beyond tolerance, or fails, is kept in its table marked
and untimed, the run goes on, and the exit status is 1; each table is printed
(and ``--save-json`` rewritten) as soon as it is measured (``progress.py``).

    .venv/bin/python benchmarks/jit_practice.py            # every variant, Markdown
    .venv/bin/python benchmarks/jit_practice.py --quick    # < 2 min on 2 cores
    ... --json                  # JSON on stdout instead of Markdown
    ... --save-json r.json      # also write the JSON
    ... --plot per_call.png     # bar chart of per-call time (no extra dependency)
    ... --from-json r.json      # render a saved result (Markdown, --plot), measure nothing
    ... --device gpu            # on jax's GPU platform (refuses if there is none)

``--quick`` runs every variant on ``a*b+c`` and, like the tutorial's own
tables, PyNative, ast O0 and ast O1 (plus the peers) on the two blocks, with
fewer and shorter rounds.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import progress  # noqa: E402
import report  # noqa: E402
import timing  # noqa: E402
from jax_peers import make_peer  # noqa: E402
from variants import (ALL_VARIANTS, FORWARD, REFERENCE, TRAIN, build,  # noqa: E402
                      max_relative_error, result_arrays)
from workloads import ATTENTION_SHAPE, BLOCK_SHAPE, SIMPLE_SHAPE, make_workload  # noqa: E402

WORKLOADS = {
    "simple": ("a*b+c", SIMPLE_SHAPE, (FORWARD,)),
    "basic_block": ("ResNet BasicBlock", BLOCK_SHAPE, (FORWARD, TRAIN)),
    "attention": ("Llama attention", ATTENTION_SHAPE, (FORWARD, TRAIN)),
}
QUICK_BLOCK_VARIANTS = ("PyNative", "ast O0", "ast O1", "raw jax.jit", "jax eager")
TOLERANCE = {FORWARD: 1e-4, TRAIN: 1e-3}   # max |msxla - jax| / max |jax|
SETTINGS = {"full": {"rounds": 7, "calls": 1000, "max_block_s": 0.5, "min_s": 20.0},
            "quick": {"rounds": 3, "calls": 200, "max_block_s": 0.15, "min_s": 3.0}}


def log(message):
    print(message, file=sys.stderr, flush=True)


def selected_variants(workload, quick, names):
    if names:
        return [v for v in ALL_VARIANTS if v.name in names or v.name == REFERENCE]
    if quick and workload != "simple":
        return [v for v in ALL_VARIANTS if v.name in QUICK_BLOCK_VARIANTS]
    return ALL_VARIANTS


def _row(v):
    return {"variant": v.name, "kind": v.kind, "enable_jit": v.enable_jit,
            "jit_level": v.jit_level, "capture_mode": v.capture_mode, "backend": v.backend,
            "fullgraph": v.fullgraph, "captured_by": "-", "compiled_by": "-",
            "status": progress.PREPARED, "prepare_s": None, "per_call_us": None,
            "cpu_per_call_us": None, "ratio_to_jax_jit": None, "cpu_ratio_to_jax_jit": None,
            "compiles": None, "counters": None, "max_relative_error": None}


def run_table(name, direction, variants, settings, record):
    """Prepare, check and time one table, recording each row in ``record`` (a
    ``progress.Progress``) as it goes; a row that fails or disagrees is kept, untimed."""
    label, shape, _ = WORKLOADS[name]
    title = f"{label} {direction}, input {shape}"
    log(f"== {title}")
    table = record.start_table({"workload": name, "direction": direction,
                                "input_shape": list(shape), "title": title, "rows": []})
    try:
        workload = make_workload(name)
        if workload.net is not None:
            workload.net.set_train(direction == TRAIN)
        peer = make_peer(workload)
    except Exception as err:  # noqa: BLE001 - recorded, and the next table runs
        table["problem"] = progress.describe_error(err)
        record.save()
        return table
    runners, arrays = {}, {}
    for variant in variants:
        row = record.add_row(table, _row(variant))
        try:
            runner = build(variant, workload, peer, direction)
            seconds, out = timing.prepare(runner)
            arrays[variant.name] = result_arrays(variant, out, workload, direction)
        except Exception as err:  # noqa: BLE001
            record.fail(row, err, log)
            continue
        runners[variant.name] = runner
        row.update(prepare_s=seconds, **runner.describe())
        record.save()
        log(f"   prepared {variant.name}: {seconds:.2f} s")
    rows = {row["variant"]: row for row in table["rows"]}
    if REFERENCE not in arrays:
        table["problem"] = f"{REFERENCE} failed: nothing to compare with"
        record.save()
        return table
    for key, got in arrays.items():
        rows[key]["max_relative_error"] = err = max_relative_error(got, arrays[REFERENCE])
        if key != REFERENCE and not err <= TOLERANCE[direction]:
            rows[key]["status"] = progress.DISAGREES
            rows[key]["problem"] = (f"max relative error {err:.1e} against {REFERENCE} "
                                    f"(tolerance {TOLERANCE[direction]:.0e})")
            del runners[key]
            log(f"   {key} DISAGREES: {rows[key]['problem']}")
    record.save()
    timings = timing.run_rounds(list(runners.values()), **settings)
    reference = timings[REFERENCE]
    for key, runner in runners.items():
        t, counters = timings[key], runner.compiles()
        rows[key].update(
            status=progress.OK, **t,
            ratio_to_jax_jit=t["per_call_us"] / reference["per_call_us"],
            cpu_ratio_to_jax_jit=t["cpu_per_call_us"] / reference["cpu_per_call_us"],
            compiles=None if counters is None else counters["compiles"], counters=counters)
    record.save()
    return table


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer variants and rounds")
    parser.add_argument("--workloads", default=",".join(WORKLOADS),
                        help="comma-separated: simple, basic_block, attention")
    parser.add_argument("--directions", default=f"{FORWARD},{TRAIN}",
                        help="comma-separated: forward, forward+backward")
    parser.add_argument("--variants", default="", help="comma-separated variant names "
                        "(raw jax.jit is always run, as the reference)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds (best one is kept)")
    parser.add_argument("--calls", type=int, help="calls per block")
    parser.add_argument("--max-block-s", type=float, help="cut blocks of slow variants")
    parser.add_argument("--min-s", type=float, help="add rounds until a table took this long")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--json", action="store_true", help="print JSON, not Markdown")
    parser.add_argument("--save-json", metavar="PATH", help="also write the JSON here")
    parser.add_argument("--plot", metavar="PNG", help="bar chart of per-call time")
    parser.add_argument("--from-json", metavar="PATH", help="measure nothing: render a "
                        "result saved with --save-json (Markdown, --plot)")
    return parser.parse_args(argv)


def render(result, args):
    if args.plot:
        import png_chart
        png_chart.plot(result, args.plot)
        log(f"wrote {args.plot}")
    print(json.dumps(result, indent=1) if args.json else report.to_markdown(result))


def main(argv=None):
    args = parse_args(argv)
    if args.from_json:
        with open(args.from_json) as fh:
            result = json.load(fh)
        device = result["settings"]["device"]
        result["targets"] = report.targets(result["tables"], "cpu" if device == "cpu" else "wall")
        render(result, args)
        return 0
    settings = dict(SETTINGS["quick" if args.quick else "full"])
    for key in ("rounds", "calls", "max_block_s", "min_s"):
        if getattr(args, key) is not None:
            settings[key] = getattr(args, key)
    names = {n.strip() for n in args.variants.split(",") if n.strip()}
    unknown = names - {v.name for v in ALL_VARIANTS}
    workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    if unknown or set(workloads) - set(WORKLOADS):
        raise SystemExit(f"unknown variants {sorted(unknown)} or workloads {workloads}; "
                         f"variants: {[v.name for v in ALL_VARIANTS]}; "
                         f"workloads: {list(WORKLOADS)}")
    directions = {d.strip() for d in args.directions.split(",")}
    timing.select_device(args.device)
    result = {"machine": timing.machine(args.device), "settings": {
        **settings, "quick": args.quick, "device": args.device}, "tables": []}
    record = progress.Progress(result, args.save_json)
    basis = "cpu" if args.device == "cpu" else "wall"
    if not args.json:   # Markdown goes out table by table, as each is measured
        print(report.machine_markdown(result) + "\n", flush=True)
    for name in workloads:
        variants = selected_variants(name, args.quick, names)
        for direction in WORKLOADS[name][2]:
            if direction in directions:
                table = run_table(name, direction, variants, settings, record)
                if not args.json:
                    print(report.table_markdown(table) + "\n", flush=True)
    result["targets"] = report.targets(result["tables"], basis)
    record.save()
    if args.plot:
        import png_chart
        png_chart.plot(result, args.plot)
        log(f"wrote {args.plot}")
    print(json.dumps(result, indent=1) if args.json else report.targets_section(result))
    return record.finish(log)


if __name__ == "__main__":
    sys.exit(main())
