"""Where the test suite's time goes, from pytest's JUnit XML reports.

    .venv/bin/python -m pytest -q -n auto tests --junitxml=/tmp/t.xml
    python tools/test_times.py /tmp/t.xml [more.xml ...] [--top 50] [--depth 2]

Prints the time per directory (summed over tests: setup, call and teardown,
so with ``-n 2`` the wall time is about half the sum), then the slowest test
files and the slowest tests. Several reports (slices of one suite) add up.
"""
from __future__ import annotations

import argparse
import collections
import xml.etree.ElementTree as ET


def cases(paths):
    """``(file, test name, seconds)`` of every test case in the reports."""
    for path in paths:
        for case in ET.parse(path).getroot().iter("testcase"):
            module = case.get("classname", "")
            # classname is the dotted module (and class) path: tests.ops.test_x.TestY
            parts = module.split(".")
            while parts and not parts[-1].startswith("test_"):
                parts.pop()
            file = "/".join(parts) + ".py" if parts else module
            yield file, case.get("name", ""), float(case.get("time", 0.0))


def group(path, depth):
    parts = path.split("/")
    return "/".join(parts[:depth]) if len(parts) > depth else "/".join(parts[:-1]) or path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--top", type=int, default=50)
    parser.add_argument("--depth", type=int, default=2, help="directory depth of the table")
    args = parser.parse_args(argv)
    rows = list(cases(args.reports))
    total = sum(t for _, _, t in rows)
    by_dir = collections.Counter()
    count = collections.Counter()
    by_file = collections.Counter()
    for file, _, t in rows:
        by_dir[group(file, args.depth)] += t
        count[group(file, args.depth)] += 1
        by_file[file] += t
    print(f"{len(rows)} tests, {total:.0f} s summed over workers\n")
    print(f"{'directory':40} {'tests':>6} {'seconds':>8} {'share':>6}")
    for d, t in by_dir.most_common():
        print(f"{d:40} {count[d]:6} {t:8.0f} {t / total:6.1%}")
    print(f"\nslowest {args.top} files")
    for f, t in by_file.most_common(args.top):
        print(f"{t:8.1f}  {f}")
    print(f"\nslowest {args.top} tests")
    for file, name, t in sorted(rows, key=lambda r: -r[2])[:args.top]:
        print(f"{t:8.1f}  {file}::{name}")


if __name__ == "__main__":
    main()
