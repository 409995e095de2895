"""Where the runner keeps outcomes, and the outcome file it writes from them.

While running, each file's record is one JSON file,
``<out>/<impl>/files/<path with / as __>.json``, written when the file is
done; a later run skips files that have one (resume), unless told to run
them again. ``collect`` merges them into one outcome file::

    {"meta": {"impl": "msxla", "date": ..., "version": ..., "commit": ...,
              "tests_commit": ..., "levels": [...], "python": ...},
     "files": {"tests/st/ops/cpu/test_abs_op.py": {
         "status": "ok", "seconds": 12.5, "attempts": 1, "crashes": 0, "timeouts": 0,
         "tests": {"test_abs[float32]": {"outcome": "passed", "seconds": 0.8},
                   "test_x": {"outcome": "failed", "cause": "TypeError: ...",
                              "where": "msxla/ops/x.py:fn"}}}}}

Outcomes: passed, failed, error, skipped, xfailed, timeout, crash.
Outcome files may be gzip-compressed (``.json.gz``).
"""
from __future__ import annotations

import gzip
import json
import os
import re
import subprocess

OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "timeout", "crash")


def file_key(rel: str) -> str:
    return rel.replace("/", "__")


def record_path(out: str, impl: str, rel: str) -> str:
    return os.path.join(out, impl, "files", file_key(rel) + ".json")


def log_path(out: str, impl: str, rel: str) -> str:
    return os.path.join(out, impl, "logs", file_key(rel) + ".log")


def has_record(out, impl, rel) -> bool:
    return os.path.exists(record_path(out, impl, rel))


def read_record(out, impl, rel):
    with open(record_path(out, impl, rel), encoding="utf-8") as f:
        return json.load(f)


def write_record(out, impl, record):
    path = record_path(out, impl, record["file"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def write_meta(out, impl, meta):
    os.makedirs(os.path.join(out, impl), exist_ok=True)
    with open(os.path.join(out, impl, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1, sort_keys=True)


def collect(out: str, impl: str) -> dict:
    """The outcome file's content from the per-file records under ``out``."""
    base = os.path.join(out, impl)
    meta = {}
    if os.path.exists(os.path.join(base, "meta.json")):
        with open(os.path.join(base, "meta.json"), encoding="utf-8") as f:
            meta = json.load(f)
    files = {}
    folder = os.path.join(base, "files")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                rec = json.load(f)
            files[rec["file"]] = rec
    return {"meta": meta, "files": files}


def load(path: str) -> dict:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def save(doc: dict, path: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wt", encoding="utf-8") as f:
        json.dump(doc, f, sort_keys=True, separators=(",", ":"))


def git_commit(path: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def library_info(impl) -> dict:
    """Version and commit of the library ``impl`` runs (asked of its interpreter)."""
    if impl.name == "msxla":
        probe = ("import sys, msxla; print(msxla.__version__); print(msxla.__file__); "
                 "print(sys.version.split()[0])")
    else:
        probe = ("import importlib.util, os, re; s = importlib.util.find_spec('mindspore'); "
                 "d = os.path.dirname(s.origin); v = open(os.path.join(d, 'version.py')).read(); "
                 "print(re.search(r\"'([^']+)'\", v).group(1)); print(s.origin); "
                 "import sys; print(sys.version.split()[0])")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(impl.pythonpath))
    try:
        out = subprocess.run([impl.python, "-c", probe], capture_output=True, text=True,
                             env=env, timeout=300)
        version, origin, python = out.stdout.split("\n")[:3]
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return {"version": None}
    info = {"version": version.strip(), "location": os.path.dirname(origin.strip())}
    if impl.name == "msxla":
        info["commit"] = git_commit(os.path.dirname(info["location"]))
    else:
        commit_file = os.path.join(info["location"], ".commit_id")
        if os.path.exists(commit_file):
            with open(commit_file, encoding="utf-8") as f:
                text = f.read()
            found = re.search(r"\[sha1\]:(\w+)", text)
            branch = re.search(r"\[branch\]:\(([^)]*)\)", text)
            info["commit"] = (found.group(1) if found else text.strip()) + (
                f" ({branch.group(1).split(',')[-1]})" if branch else "")
    info["python"] = python.strip()
    return info
