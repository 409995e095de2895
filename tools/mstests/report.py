"""Pass rates by area on the tests MindSpore 2.10 passes, and msxla's failures by cause.

The base of every rate is the set of tests that pass on MindSpore (the
oracle's outcome file), less the tests listed in ``differences.json`` (where
msxla deliberately differs; README, "Differences from MindSpore"), which are
reported on their own. A base test counts for msxla only if it passed; a
test msxla never reached counts with the reason:

- the file failed to import under msxla: the import error (``<collection>``);

Files only one side has run are left out of the rates (the report says how
many), so a run of one area compares that area.

msxla's non-passing base tests are grouped by their normalised cause
(exception type and first message line, numbers masked), largest first.
"""
from __future__ import annotations

import collections
import dataclasses
import fnmatch
import json
import os

from tools.mstests.execute import COLLECTION
from tools.mstests.select import area_of, subarea_of

DIFFERENCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "differences.json")


@dataclasses.dataclass
class Case:
    test: str            # file::id
    file: str
    ms: str              # MindSpore's outcome
    xla: str             # msxla's outcome ("missing" when its run has no such test)
    cause: str = ""
    where: str = ""


def load_differences(path=DIFFERENCES):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f)["differences"]


def difference_of(test, differences):
    for diff in differences:
        if any(fnmatch.fnmatchcase(test, pattern) for pattern in diff["tests"]):
            return diff
    return None


def cases(ms_doc, xla_doc):
    """Every test MindSpore ran, with msxla's outcome beside it."""
    out = []
    xla_files = xla_doc["files"]
    for rel, ms_rec in sorted(ms_doc["files"].items()):
        xla_rec = xla_files.get(rel)
        if xla_rec is None:
            continue
        for tid, ms_t in sorted(ms_rec["tests"].items()):
            if tid.endswith(COLLECTION):
                continue
            out.append(_case(rel, tid, ms_t["outcome"], xla_rec))
    return out


def _case(rel, tid, ms_outcome, xla_rec):
    test = f"{rel}::{tid}"
    t = xla_rec["tests"].get(tid)
    if t is None:
        t = xla_rec["tests"].get(COLLECTION)
        if t is None:
            return Case(test, rel, ms_outcome, "missing",
                        "msxla's run collected no test of this id")
    return Case(test, rel, ms_outcome, t["outcome"], t.get("cause", ""), t.get("where", ""))


def group_key(case):
    if case.xla in ("timeout", "crash", "missing"):
        return f"[{case.xla}] {case.cause}"
    if case.xla in ("skipped", "xfailed"):
        return f"[skipped] {case.cause}"
    return case.cause or f"[{case.xla}] (no cause recorded)"


def summarize(ms_doc, xla_doc, differences=None, by="area"):
    """The numbers behind the report (also used by tests)."""
    differences = load_differences() if differences is None else differences
    rows = collections.OrderedDict()
    groups = collections.defaultdict(list)
    expected = []
    extra_passes = []
    all_cases = cases(ms_doc, xla_doc)
    for case in all_cases:
        area = area_of(case.file) if by == "area" else subarea_of(case.file)
        row = rows.setdefault(area, collections.Counter())
        row["selected"] += 1
        if case.ms != "passed":
            if case.xla == "passed":
                extra_passes.append(case)
            continue
        diff = difference_of(case.test, differences)
        if diff is not None:
            expected.append((case, diff))
            row["expected_difference"] += 1
            continue
        row["base"] += 1
        row[case.xla] += 1
        if case.xla != "passed":
            groups[group_key(case)].append(case)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    msxla_hangs = [c for c in all_cases if c.xla in ("timeout", "crash")
                   and c.ms not in ("timeout", "crash")]
    return {"rows": rows, "groups": ordered, "expected": expected,
            "extra_passes": extra_passes, "msxla_hangs": msxla_hangs,
            "only_mindspore": sorted(set(ms_doc["files"]) - set(xla_doc["files"])),
            "only_msxla": sorted(set(xla_doc["files"]) - set(ms_doc["files"]))}


def render(ms_doc, xla_doc, differences=None, by="area", top=30, examples=3):
    s = summarize(ms_doc, xla_doc, differences, by)
    lines = [_meta_line("MindSpore", ms_doc["meta"]), _meta_line("msxla", xla_doc["meta"]), ""]
    lines += ["| area | selected | pass on MindSpore (base) | pass on msxla | rate | failed | "
              "error | skipped | timeout | crash | expected differences |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    for area, row in s["rows"].items():
        total.update(row)
        lines.append(_row(area, row))
    lines.append(_row("**all**", total))
    lines.append("")
    for side, other in (("mindspore", "msxla"), ("msxla", "MindSpore")):
        only = s[f"only_{side}"]
        if only:
            lines.append(f"{len(only)} files run only for {side} (not for {other}) are left out.")
    if s["msxla_hangs"]:
        lines.append(f"msxla timeouts and crashes where MindSpore did not: "
                     f"{len(s['msxla_hangs'])}.")
    lines.append(f"Tests that pass on msxla and not on MindSpore: {len(s['extra_passes'])}.")
    lines.append("")
    lines.append(f"## msxla's failures by cause (of {sum(len(g) for _, g in s['groups'])} "
                 f"failing base tests, {len(s['groups'])} causes)")
    lines.append("")
    for i, (cause, group) in enumerate(s["groups"][:top], 1):
        where = collections.Counter(c.where for c in group if c.where).most_common(1)
        areas = collections.Counter(area_of(c.file) for c in group)
        lines.append(f"{i}. **{len(group)}** `{cause}`"
                     + (f" (at `{where[0][0]}`)" if where else "")
                     + " — " + ", ".join(f"{a} {n}" for a, n in areas.most_common()))
        for case in _examples(group, examples):
            lines.append(f"   - `{case.test}`")
    if len(s["groups"]) > top:
        rest = s["groups"][top:]
        lines.append(f"\n... and {len(rest)} more causes covering "
                     f"{sum(len(g) for _, g in rest)} tests.")
    if s["expected"]:
        lines += ["", "## Expected differences (README, \"Differences from MindSpore\")", ""]
        for case, diff in s["expected"]:
            lines.append(f"- `{case.test}`: msxla {case.xla}; {diff['reason']}")
    return "\n".join(lines) + "\n"


def _examples(group, n):
    """Up to ``n`` examples, from different files where possible."""
    picked, files = [], set()
    for case in group:
        if case.file not in files:
            picked.append(case)
            files.add(case.file)
        if len(picked) == n:
            return picked
    for case in group:
        if case not in picked and len(picked) < n:
            picked.append(case)
    return picked


def _row(area, row):
    base, passed = row["base"], row["passed"]
    rate = f"{100.0 * passed / base:.1f}%" if base else "-"
    return (f"| {area} | {row['selected']} | {base} | {passed} | {rate} | {row['failed']} | "
            f"{row['error'] + row['missing']} | {row['skipped'] + row['xfailed']} | "
            f"{row['timeout']} | {row['crash']} | {row['expected_difference']} |")


def _meta_line(name, meta):
    parts = [f"{name} {meta.get('version') or '?'}"]
    if meta.get("commit"):
        parts.append(f"commit {meta['commit']}")
    if meta.get("date"):
        parts.append(f"run {meta['date']}")
    if meta.get("tests_commit"):
        parts.append(f"tests at {meta['tests_commit']}")
    if meta.get("levels"):
        parts.append("levels " + ",".join(meta["levels"]))
    return "- " + "; ".join(parts)
