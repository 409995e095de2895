"""Benchmark results kept on disk as they are measured; a bad row is a row, not the end.

A GPU machine is lent for minutes at a time, so a benchmark must not lose what
it measured because a later row failed, disagreed with its reference, or the
run hit its time limit. The table benchmarks (``jit_practice.py``,
``real_models.py``) therefore:

- give every row a ``status``: ``prepared`` (first call done, not yet timed),
  ``ok`` (agreed with the reference and timed), ``disagrees`` (its results
  differ from the reference beyond tolerance: never timed, kept with its
  error) or ``failed`` (it raised: the ``problem`` says what);
- rewrite the ``--save-json`` file (atomically) after every row's first call,
  agreement check and timing, through ``Progress``;
- print each table as soon as it is timed, and exit with status 1 at the end
  when any row disagreed or failed.

Renderers and targets read only the rows ``timed()`` returns.
"""
from __future__ import annotations

import json
import os
import traceback

PREPARED, OK, DISAGREES, FAILED = "prepared", "ok", "disagrees", "failed"


def timed(rows):
    """The rows with timings (agreed with the reference and measured)."""
    return [r for r in rows if r.get("status", OK) == OK]


def label(row):
    """The row's variant name, marked when it has no timings."""
    status = row.get("status", OK)
    if status == OK:
        return row["variant"]
    if status == DISAGREES:
        return f"{row['variant']} **DISAGREES**"
    if status == FAILED:
        return f"{row['variant']} **FAILED**"
    return f"{row['variant']} (not timed)"


def describe_error(err):
    """One line for an exception: its type, message and where it was raised."""
    frames = traceback.extract_tb(err.__traceback__)
    where = f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    message = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {message[:300]}{where}"


def problems(result):
    """'table: variant: problem' for every row that disagreed or failed (or whose run in
    a fresh process, ``real_models.py --cold``, failed)."""
    out = []
    for table in result["tables"]:
        if table.get("problem"):
            out.append(f"{table['title']}: {table['problem']}")
        for row in table["rows"]:
            if row.get("status", OK) in (DISAGREES, FAILED):
                out.append(f"{table['title']}: {row['variant']}: {row.get('problem', '')}")
            if row.get("cold_problem"):
                out.append(f"{table['title']}: {row['variant']} (fresh process): "
                           f"{row['cold_problem']}")
    return out


class Progress:
    """The result dict, written to ``path`` (when given) on every ``save()``."""

    def __init__(self, result, path=None):
        self.result, self.path = result, path

    def save(self):
        if not self.path:
            return
        tmp = f"{self.path}.tmp{os.getpid()}"
        with open(tmp, "w") as fh:
            fh.write(json.dumps(self.result, indent=1) + "\n")
        os.replace(tmp, self.path)

    def start_table(self, table):
        table.setdefault("rows", [])
        self.result["tables"].append(table)
        self.save()
        return table

    def add_row(self, table, row):
        table["rows"].append(row)
        self.save()
        return row

    def fail(self, row, err, log=None):
        row["status"], row["problem"] = FAILED, describe_error(err)
        if log:
            log(f"   {row['variant']} failed: {row['problem']}")
        self.save()

    def finish(self, log):
        """Log every problem; the exit status: 1 when a row disagreed or failed, else 0."""
        found = problems(self.result)
        for line in found:
            log(f"NOT TIMED: {line}")
        return 1 if found else 0
