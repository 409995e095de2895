"""Speed of real models: msxla's PyNative and jit against raw jax.jit and PyTorch, one run.

Models (``zoo_models.py``): LeNet-5, ResNet-18, ResNet-50, MobileNetV2 (mindcv's
definitions) and a BERT-base-like encoder stack (seq 128), at batch sizes
users run on a CPU, or on a GPU with ``--device gpu`` (jax's CUDA backend,
torch on CUDA; every row in full float32 there, no TF32, as msxla's matmuls
are); for each, the forward pass (eval mode) and the train step (loss,
gradients, Momentum; BatchNorm in training mode). Rows: PyNative; jit
in each capture mode (ast, bytecode, trace) at O0 and O1; raw ``jax.jit`` of
the same computation written in jax (``zoo_jax.py``); torch eager and
``torch.compile`` (``zoo_torch.py``, run in the Python given by ``--torch``).
Every row starts from the same weights and must agree with raw jax.jit
before anything is timed (a row that does not, or fails, is kept marked and
untimed, the others are timed, and the exit status is 1); each table is printed, and ``--save-json`` rewritten, as
soon as it is measured (``progress.py``).

Columns: time to prepare (the first call, in this process: later rows find
jax's caches warm), steady-state time per step (best block of interleaved
rounds, wall clock until the outputs and updated weights are ready, and
process CPU time), ratios to raw jax.jit, PyNative
and torch.compile; with ``--cold``, the first call and the peak RSS of a
fresh process per row (train step only).

    .venv/bin/python benchmarks/real_models.py --torch ~/torch-venv/bin/python \\
        --cold --save-json benchmarks/results/real_models.json --plot real.png
    .venv/bin/python benchmarks/real_models.py --quick     # train steps, small shapes
    python benchmarks/real_models.py --device gpu --quick --torch python3
    ... --models resnet18 --directions train --variants "ast O1,PyNative" --rounds 2
    ... --from-json r.json                                 # render a saved result
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import progress  # noqa: E402
import timing  # noqa: E402
import zoo_cold  # noqa: E402
import zoo_report  # noqa: E402
from zoo_runners import (FORWARD, REFERENCE, TRAIN, VARIANTS, TorchWorker,  # noqa: E402
                         Workload, build, max_relative_error)

IMAGE = (3, 224, 224)
CONFIGS = {
    "lenet": {"batch": 32, "shape": (1, 32, 32), "classes": 10},
    "resnet18": {"batch": 8, "shape": IMAGE, "classes": 1000},
    "resnet50": {"batch": 4, "shape": IMAGE, "classes": 1000},
    "mobilenet_v2": {"batch": 8, "shape": IMAGE, "classes": 1000},
    "bert": {"batch": 2, "seq": 128, "layers": 4, "classes": 2},
}
GPU_CONFIGS = {
    "lenet": {"batch": 256, "shape": (1, 32, 32), "classes": 10},
    "resnet18": {"batch": 64, "shape": IMAGE, "classes": 1000},
    "resnet50": {"batch": 32, "shape": IMAGE, "classes": 1000},
    "mobilenet_v2": {"batch": 64, "shape": IMAGE, "classes": 1000},
    "bert": {"batch": 16, "seq": 128, "layers": 12, "classes": 2},
}
# --quick: every kind of block once (one block per stage, one Transformer layer), small
# batches and images: compiles take a fraction of the full models' time
QUICK_CONFIGS = {
    "lenet": CONFIGS["lenet"],
    "resnet18": {"batch": 4, "shape": (3, 64, 64), "classes": 1000, "blocks": [1, 1, 1, 1]},
    "resnet50": {"batch": 4, "shape": (3, 64, 64), "classes": 1000, "blocks": [1, 1, 1, 1]},
    "mobilenet_v2": {"batch": 4, "shape": (3, 64, 64), "classes": 1000, "blocks": [1] * 7},
    "bert": {"batch": 1, "seq": 128, "layers": 1, "classes": 2},
}
# torch.compile takes minutes to compile a model here: ask for it with --variants
QUICK_VARIANTS = ("PyNative", "ast O0", "ast O1", "raw jax.jit", "torch eager")
# max |row - raw jax.jit| / max |raw jax.jit| over the compared arrays (raw jax.jit
# against its own first check: exact on a CPU, not quite on a GPU, whose convolution
# gradients may add in any order)
TOLERANCE = {"msxla": 2e-3, "jax.jit": 0.0, "torch eager": 2e-2, "torch.compile": 2e-2}
GPU_TOLERANCE = {**TOLERANCE, "jax.jit": 1e-5}
SETTINGS = {"full": {"rounds": 3, "calls": 50, "max_block_s": 2.0},
            "quick": {"rounds": 2, "calls": 20, "max_block_s": 0.5}}


def log(message):
    print(message, file=sys.stderr, flush=True)


def describe(model, config):
    if model == "bert":
        return (f"BERT-base-like encoder ({config['layers']} layers), batch {config['batch']}, "
                f"seq {config['seq']}")
    blocks = f" ({config['blocks']} blocks per stage)" if config.get("blocks") else ""
    return f"{model}{blocks}, input {(config['batch'],) + tuple(config['shape'])}"


def rounds(runners, rounds, calls, max_block_s):
    """{name: (best wall, best cpu, median wall) per call, calls per block}."""
    sizes = []
    for runner in runners:
        wall, _ = runner.block(1)
        sizes.append(max(1, min(calls, int(max_block_s / max(wall, 1e-9)))))
    blocks = [[] for _ in runners]
    for r in range(rounds):
        for i in [(r + j) % len(runners) for j in range(len(runners))]:
            blocks[i].append(runners[i].block(sizes[i]))
    result = {}
    for runner, n, timed in zip(runners, sizes, blocks):
        walls = sorted(w for w, _ in timed)
        result[runner.variant.name] = {
            "per_call_us": walls[0] / n * 1e6,
            "cpu_per_call_us": min(c for _, c in timed) / n * 1e6,
            "median_call_us": walls[len(walls) // 2] / n * 1e6,
            "calls_per_block": n, "blocks": len(timed)}
    return result


def _row(v):
    return {"variant": v.name, "kind": v.kind, "capture_mode": v.capture_mode,
            "jit_level": v.jit_level, "enable_jit": v.enable_jit,
            "status": progress.PREPARED, "prepare_s": None, "prepare_cpu_s": None,
            "per_call_us": None, "cpu_per_call_us": None, "max_relative_error": None,
            "counters": None}


def run_table(model, config, direction, variants, settings, worker, record,
              tolerance=TOLERANCE):
    """Prepare, check and time one table, recording each row in ``record`` (a
    ``progress.Progress``) as it goes; a row that fails or disagrees is kept, untimed."""
    title = f"{describe(model, config)}: {direction}"
    log(f"== {title}")
    table = record.start_table({"model": model, "config": config, "direction": direction,
                                "title": title, "rows": []})
    try:
        workload = Workload(model, config)
        workload.set_direction(direction)
    except Exception as err:  # noqa: BLE001 - recorded, and the next table runs
        table["problem"] = progress.describe_error(err)
        record.save()
        return table
    runners = {}
    for variant in variants:
        row = record.add_row(table, _row(variant))
        try:
            runner = build(variant, workload, direction, worker)
            row["prepare_s"], row["prepare_cpu_s"] = runner.prepare()
        except Exception as err:  # noqa: BLE001
            record.fail(row, err, log)
            continue
        runners[variant.name] = runner
        record.save()
        log(f"   prepared {variant.name}: {row['prepare_s']:.2f} s")
    rows = {row["variant"]: row for row in table["rows"]}
    checked = {}
    for name, runner in runners.items():
        try:
            checked[name] = runner.check()
        except Exception as err:  # noqa: BLE001
            record.fail(rows[name], err, log)
    if REFERENCE not in checked:
        table["problem"] = f"{REFERENCE} failed: nothing to compare with"
        record.save()
        return table
    for name, got in checked.items():
        rows[name]["max_relative_error"] = err = max_relative_error(got, checked[REFERENCE])
        limit = tolerance[runners[name].variant.kind]
        if not err <= limit:
            rows[name]["status"] = progress.DISAGREES
            rows[name]["problem"] = (f"max relative error {err:.1e} against {REFERENCE} "
                                     f"(tolerance {limit:.0e})")
            log(f"   {name} DISAGREES: {rows[name]['problem']}")
    timed = [r for name, r in runners.items() if name in checked
             and rows[name]["status"] == progress.PREPARED]
    record.save()
    errors = {k: f"{rows[k]['max_relative_error']:.1e}" for k in checked}
    log(f"   agreement: {errors}")
    timings = rounds(timed, **settings)
    for runner in timed:
        rows[runner.variant.name].update(status=progress.OK, **timings[runner.variant.name],
                                         counters=runner.counters())
    zoo_report.add_ratios(table["rows"])
    record.save()
    return table


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="every model's train step, one "
                        "block per stage, small shapes, fewer rows and steps (a few minutes)")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                        help="jax's platform (gpu: CUDA; refused if jax sees none) and "
                        "torch's device; the default batch sizes follow it")
    parser.add_argument("--models", help=f"comma-separated, of {','.join(CONFIGS)}")
    parser.add_argument("--directions", help=f"comma-separated, of {FORWARD},{TRAIN} (default: "
                        f"both; with --quick, {TRAIN})")
    parser.add_argument("--variants", default="", help="comma-separated variant names "
                        "(raw jax.jit is always run, as the reference)")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--batch", type=int, help="batch size of every model")
    parser.add_argument("--image", type=int, help="image height and width of the convnets")
    parser.add_argument("--layers", type=int, help="Transformer layers of the BERT model")
    parser.add_argument("--torch", metavar="PYTHON", default=os.environ.get("MSXLA_BENCH_TORCH"),
                        help="a Python with torch installed (or MSXLA_BENCH_TORCH); without "
                        "it the torch rows are left out")
    parser.add_argument("--cold", action="store_true", help="also the first call and peak "
                        "RSS of a fresh process per row (train step)")
    parser.add_argument("--json", action="store_true", help="print JSON, not Markdown")
    parser.add_argument("--save-json", metavar="PATH")
    parser.add_argument("--plot", metavar="PNG")
    parser.add_argument("--from-json", metavar="PATH")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def select(args):
    base = QUICK_CONFIGS if args.quick else GPU_CONFIGS if args.device == "gpu" else CONFIGS
    configs = {m: dict(c) for m, c in base.items()}
    for config in configs.values():
        if args.batch:
            config["batch"] = args.batch
        if args.image and "shape" in config and config["shape"][0] == 3:
            config["shape"] = (3, args.image, args.image)
        if args.layers and "layers" in config:
            config["layers"] = args.layers
    models = [m.strip() for m in (args.models or ",".join(CONFIGS)).split(",") if m.strip()]
    names = {n.strip() for n in args.variants.split(",") if n.strip()}
    if not names and args.quick:
        names = set(QUICK_VARIANTS)
    unknown = (names - {v.name for v in VARIANTS}) | (set(models) - set(CONFIGS))
    if unknown:
        raise SystemExit(f"unknown {sorted(unknown)}: variants {[v.name for v in VARIANTS]}, "
                         f"models {list(CONFIGS)}")
    variants = [v for v in VARIANTS if not names or v.name in names or v.name == REFERENCE]
    if not args.torch:
        variants = [v for v in variants if not v.kind.startswith("torch")]
    asked = (args.directions or (TRAIN if args.quick else f"{FORWARD},{TRAIN}")).split(",")
    directions = [d for d in (FORWARD, TRAIN) if d in asked]
    return configs, models, variants, directions


def measure(args, record, settings):
    """Every table, each saved and (in Markdown) printed as soon as it is measured."""
    configs, models, variants, directions = select(args)
    tolerance = GPU_TOLERANCE if args.device == "gpu" else TOLERANCE
    result = record.result
    if not args.json:
        print(zoo_report.machine_markdown(result) + "\n", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        worker = TorchWorker(args.torch, tmp, args.device) if args.torch else None
        if worker:
            result["machine"]["torch"] = worker.ask(cmd="versions")
        try:
            for model in models:
                for direction in directions:
                    table = run_table(model, configs[model], direction, variants,
                                      settings, worker, record, tolerance)
                    if args.cold and direction == TRAIN and not table.get("problem"):
                        zoo_cold.add_cold(table, configs[model], args.torch, tmp, log,
                                          args.device)
                        record.save()
                    if not args.json:
                        print(zoo_report.table_markdown(table, zoo_report.basis(result))
                              + "\n", flush=True)
        finally:
            if worker:
                worker.close()
    result["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]


def main(argv=None):
    args = parse_args(argv)
    if args.child:
        zoo_cold.child_main(args.child, timing.select_device)
        return 0
    if args.from_json:
        with open(args.from_json) as fh:
            result = json.load(fh)
        record = progress.Progress(result)
    else:
        select(args)   # unknown names stop here, before the device is touched
        timing.select_device(args.device)
        settings = dict(SETTINGS["quick" if args.quick else "full"])
        if args.rounds:
            settings["rounds"] = args.rounds
        result = {"machine": timing.machine(args.device),
                  "settings": {**settings, "quick": args.quick, "cold": args.cold,
                               "device": args.device},
                  "tables": []}
        record = progress.Progress(result, args.save_json)
        measure(args, record, settings)
    result["targets"] = zoo_report.targets(result["tables"], zoo_report.basis(result))
    if args.save_json:
        record.path = args.save_json
        record.save()
    if args.plot:
        zoo_report.plot(result, args.plot)
    if args.json:
        print(json.dumps(result, indent=1))
    elif args.from_json:
        print(zoo_report.to_markdown(result))
    else:
        print(zoo_report.targets_markdown(result))
    return record.finish(log)


if __name__ == "__main__":
    sys.exit(main())
