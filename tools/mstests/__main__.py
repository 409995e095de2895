"""``python -m tools.mstests``: MindSpore's own tests, run on msxla and on MindSpore.

    python -m tools.mstests list CHECKOUT [--area A] [--files PATTERN] [--every K]
    python -m tools.mstests run CHECKOUT --impl msxla|mindspore [--area A] [--files PATTERN]
                            [--every K]
                            [--jobs N] [--levels level0,level1] [--force | --retry STATUS,...]
    python -m tools.mstests report [--by area|subarea] [--top 30] [--markdown FILE]
    python -m tools.mstests pack DEST [--outcomes]

CHECKOUT is a checkout of MindSpore's repository (it must hold ``tests/st``).
Outcomes go to ``--out`` (default ``tools/mstests/out``), one file per test
file, so a run can be stopped and resumed; ``report`` compares the two
implementations' outcomes and ``pack`` writes the summary committed in
``tools/mstests/results/`` (and, with ``--outcomes``, both outcome files).
See README, "MindSpore's own tests".
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import sys
import time

from tools.mstests import report, results, summary
from tools.mstests.execute import Impl, run_file
from tools.mstests.select import AREAS, DEFAULT_LEVELS, LEVELS, mark_expression, select_files

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(HERE, "out")
ORACLE_PYTHON = os.path.expanduser("~/ms-oracle/bin/python")


def make_impl(name, args):
    if name == "msxla":
        # msxla from this repository, alone on the path (not the repository root,
        # whose tests/ package would shadow MindSpore's)
        link_dir = os.path.join(args.out, ".msxla-path")
        os.makedirs(link_dir, exist_ok=True)
        link = os.path.join(link_dir, "msxla")
        target = os.path.join(args.msxla_repo, "msxla")
        if os.path.islink(link) and os.readlink(link) != target:
            os.remove(link)
        if not os.path.exists(link):
            os.symlink(target, link)
        return Impl("msxla", args.python, [link_dir], ["-m", "msxla"])
    return Impl("mindspore", args.oracle_python)


def cmd_list(args):
    files = select_files(args.checkout, args.area, args.files, args.every)
    for rel in files:
        print(rel)
    print(f"{len(files)} files", file=sys.stderr)


def cmd_run(args):
    files = select_files(args.checkout, args.area, args.files, args.every)
    levels = _levels(args.levels)
    expr = mark_expression(levels)
    impl = make_impl(args.impl, args)
    retry = set(filter(None, (args.retry or "").split(",")))
    if args.only_mindspore_passing:
        files = [rel for rel in files if _passes_on_mindspore(args.out, rel)]
    todo = []
    for rel in files:
        if args.force or not results.has_record(args.out, impl.name, rel):
            todo.append(rel)
        elif retry:
            rec = results.read_record(args.out, impl.name, rel)
            outcomes = {t["outcome"] for t in rec["tests"].values()}
            if rec["status"] in retry or outcomes & retry:
                todo.append(rel)
    meta = results.library_info(impl)
    meta.update({"impl": impl.name, "levels": list(levels), "mark_expression": expr,
                 "date": datetime.date.today().isoformat(),
                 "tests_commit": args.tests_commit or results.git_commit(args.checkout)})
    results.write_meta(args.out, impl.name, meta)
    print(f"{impl.name}: {len(todo)} of {len(files)} files to run "
          f"({len(files) - len(todo)} already recorded), {args.jobs} at a time", flush=True)
    t0 = time.time()

    def one(rel):
        rec = run_file(impl, args.checkout, rel, expr,
                       results.log_path(args.out, impl.name, rel),
                       args.test_timeout, args.file_timeout)
        results.write_record(args.out, impl.name, rec)
        return rec

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(one, rel): rel for rel in todo}
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            rec = fut.result()
            counts = {}
            for t in rec["tests"].values():
                counts[t["outcome"]] = counts.get(t["outcome"], 0) + 1
            summary = " ".join(f"{k} {v}" for k, v in sorted(counts.items())) or rec["status"]
            print(f"[{i}/{len(todo)} {time.time() - t0:.0f}s] {rec['file']}: {summary} "
                  f"({rec['seconds']}s)", flush=True)


def _passes_on_mindspore(out, rel):
    if not results.has_record(out, "mindspore", rel):
        return False
    rec = results.read_record(out, "mindspore", rel)
    return any(t["outcome"] == "passed" for t in rec["tests"].values())


def cmd_report(args):
    ms_doc = results.load(args.mindspore) if args.mindspore else results.collect(
        args.out, "mindspore")
    xla_doc = results.load(args.msxla) if args.msxla else results.collect(args.out, "msxla")
    text = report.render(ms_doc, xla_doc, by=args.by, top=args.top, examples=args.examples)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text)
    print(text)


def cmd_pack(args):
    os.makedirs(args.dest, exist_ok=True)
    docs = {}
    for impl in ("mindspore", "msxla"):
        docs[impl] = results.collect(args.out, impl)
        for rec in docs[impl]["files"].values():
            rec.pop("log_tail", None)
        if args.outcomes:
            results.save(docs[impl], os.path.join(args.dest, f"{impl}.json.gz"))
    doc = summary.build(docs["mindspore"], docs["msxla"], top=args.top)
    with open(os.path.join(args.dest, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(args.dest, "SUMMARY.md"), "w", encoding="utf-8") as f:
        f.write(summary.markdown(doc))
    print(f"wrote {args.dest}/summary.json, SUMMARY.md"
          + (" and both outcome files" if args.outcomes else ""))


def _levels(text):
    if text == "all":
        return LEVELS
    levels = tuple(x.strip() for x in text.split(",") if x.strip())
    bad = [x for x in levels if x not in LEVELS]
    if bad:
        raise SystemExit(f"unknown levels {bad}; choose from {', '.join(LEVELS)} or 'all'")
    return levels


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tools.mstests", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=DEFAULT_OUT, help="where outcomes are kept")
    sub = p.add_subparsers(dest="cmd", required=True)

    def selection(sp):
        sp.add_argument("checkout", help="checkout of MindSpore's repository (holds tests/st)")
        sp.add_argument("--area", action="append", choices=list(AREAS),
                        help="an area to run (repeatable; default: all)")
        sp.add_argument("--files", action="append", metavar="PATTERN",
                        help="shell pattern on the checkout-relative path (repeatable)")
        sp.add_argument("--every", type=int, default=1, metavar="K",
                        help="a sample: every K-th selected file of each area, from its "
                             "first (default 1: all)")

    sp = sub.add_parser("list", help="list the selected test files")
    selection(sp)
    sp.set_defaults(fn=cmd_list)

    sp = sub.add_parser("run", help="run the selected files for one implementation")
    selection(sp)
    sp.add_argument("--impl", choices=("msxla", "mindspore"), required=True)
    sp.add_argument("--jobs", type=int, default=1, help="files run at once (default 1)")
    sp.add_argument("--levels", default=",".join(DEFAULT_LEVELS),
                    help="MindSpore level marks to run, comma-separated, or 'all'")
    sp.add_argument("--force", action="store_true", help="run files that have outcomes too")
    sp.add_argument("--only-mindspore-passing", action="store_true",
                    help="skip files without a test that passes on MindSpore (run it first)")
    sp.add_argument("--retry", metavar="STATUS,...",
                    help="also run recorded files with these statuses or outcomes "
                         "(e.g. crash,timeout,collect_error,failed)")
    sp.add_argument("--test-timeout", type=float, default=180.0, help="seconds per test")
    sp.add_argument("--file-timeout", type=float, default=1800.0, help="seconds per file")
    sp.add_argument("--python", default=sys.executable, help="interpreter for msxla")
    sp.add_argument("--msxla-repo", default=REPO, help="msxla source tree to test")
    sp.add_argument("--oracle-python", default=ORACLE_PYTHON,
                    help="interpreter with MindSpore 2.10 and pytest")
    sp.add_argument("--tests-commit", help="commit of the checkout (if it is not a git tree)")
    sp.set_defaults(fn=cmd_run)

    sp = sub.add_parser("report", help="pass rates and msxla's failures by cause")
    sp.add_argument("--mindspore", help="MindSpore's outcome file (default: from --out)")
    sp.add_argument("--msxla", help="msxla's outcome file (default: from --out)")
    sp.add_argument("--by", choices=("area", "subarea"), default="area")
    sp.add_argument("--top", type=int, default=30, help="cause groups shown")
    sp.add_argument("--examples", type=int, default=3, help="example tests per group")
    sp.add_argument("--markdown", help="also write the report to this file")
    sp.set_defaults(fn=cmd_report)

    sp = sub.add_parser("pack", help="write the summary (and with --outcomes the outcome files) to DEST")
    sp.add_argument("dest")
    sp.add_argument("--top", type=int, default=30)
    sp.add_argument("--outcomes", action="store_true",
                    help="also write both per-test outcome files (they name MindSpore's tests "
                         "and quote their failures: keep them out of the repository)")
    sp.set_defaults(fn=cmd_pack)

    args = p.parse_args(argv)
    args.out = os.path.abspath(args.out)
    if getattr(args, "checkout", None):
        args.checkout = os.path.abspath(args.checkout)
    args.fn(args)


if __name__ == "__main__":
    main()
