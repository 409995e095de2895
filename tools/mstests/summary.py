"""The committed summary of a run: counts per file and msxla's top failure causes.

``pack`` writes it to ``tools/mstests/results/`` as ``summary.json`` and
``SUMMARY.md``. It holds numbers, file paths and causes only: a cause that quotes
the test's own assertion (``AssertionError: assert ...``) is reduced to its kind, so
no text of MindSpore's tests is copied; the per-test outcome files stay local
(``pack --outcomes`` writes them too).
"""
from __future__ import annotations

import collections
import re

from tools.mstests import report
from tools.mstests.select import area_of


def public_cause(cause: str) -> str:
    """``cause`` without the text a failing assertion quotes from the test."""
    if re.match(r"AssertionError: assert\b", cause) or cause.startswith("AssertionError"):
        return "AssertionError: a value the test checks differs"
    return cause


def build(ms_doc, xla_doc, top=30):
    s = report.summarize(ms_doc, xla_doc)
    files = collections.OrderedDict()
    for case in report.cases(ms_doc, xla_doc):
        row = files.setdefault(case.file, collections.Counter())
        row["selected"] += 1
        if case.ms == "passed":
            row["pass_on_mindspore"] += 1
            row["pass_on_msxla" if case.xla == "passed" else f"msxla_{case.xla}"] += 1
    causes = collections.defaultdict(list)
    for _, group in s["groups"]:
        for case in group:
            causes[public_cause(report.group_key(case))].append(case)
    ordered = sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return {
        "mindspore": _meta(ms_doc["meta"]), "msxla": _meta(xla_doc["meta"]),
        "areas": {a: dict(r) for a, r in s["rows"].items()},
        "files": {f: dict(r) for f, r in files.items() if f in xla_doc["files"]},
        "causes": [{"tests": len(group), "cause": cause,
                    "files": dict(collections.Counter(c.file for c in group).most_common(5)),
                    "areas": dict(collections.Counter(area_of(c.file) for c in group))}
                   for cause, group in ordered[:top]],
        "other_causes": {"causes": max(0, len(ordered) - top),
                         "tests": sum(len(g) for _, g in ordered[top:])},
    }


def _meta(meta):
    return {k: meta.get(k) for k in ("version", "commit", "date", "levels", "python")}


def markdown(doc) -> str:
    lines = ["# MindSpore's tests on msxla", "",
             f"- MindSpore {doc['mindspore']['version']} ({doc['mindspore']['commit']}), "
             f"msxla at {doc['msxla']['commit']}; run {doc['msxla']['date']}; levels "
             + ",".join(doc["msxla"]["levels"] or []), "",
             "| area | selected | pass on MindSpore (base) | pass on msxla | rate |",
             "|---|---:|---:|---:|---:|"]
    for area, row in doc["areas"].items():
        base, ok = row.get("base", 0), row.get("passed", 0)
        lines.append(f"| {area} | {row.get('selected', 0)} | {base} | {ok} | "
                     f"{100.0 * ok / base:.1f}% |" if base else f"| {area} | 0 | 0 | 0 | - |")
    lines += ["", "## msxla's failures by cause", ""]
    for i, c in enumerate(doc["causes"], 1):
        first = next(iter(c["files"]))
        lines.append(f"{i}. **{c['tests']}** `{c['cause']}` (most in `{first}`)")
    if doc["other_causes"]["causes"]:
        lines.append(f"\n... and {doc['other_causes']['causes']} more causes covering "
                     f"{doc['other_causes']['tests']} tests.")
    lines += ["", "## Per file (tests passing on MindSpore / on msxla)", "",
              "| file | pass on MindSpore | pass on msxla |", "|---|---:|---:|"]
    for f, row in doc["files"].items():
        lines.append(f"| {f} | {row.get('pass_on_mindspore', 0)} | "
                     f"{row.get('pass_on_msxla', 0)} |")
    return "\n".join(lines) + "\n"
