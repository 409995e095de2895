"""Golden: what unchanged MindSpore scripts print under MindSpore 2.10.

Run in the oracle environment from the repository root:

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_scripts.py

Each entry of ``tests/scripts/RUNS`` (below) is run exactly as
``tests/test_unchanged_scripts.py`` runs it through ``python -m msxla``; its
standard output is stored.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
sys.path.insert(0, SCRIPTS)
from runs import RUNS  # noqa: E402


def main():
    out = {}
    for name, argv in RUNS.items():
        env = dict(os.environ, GLOG_v="3")
        proc = subprocess.run([sys.executable] + argv, cwd=SCRIPTS, env=env, capture_output=True,
                              text=True, timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"{name} failed under MindSpore:\n{proc.stderr[-3000:]}")
        out[name] = {"argv": argv, "stdout": proc.stdout}
    with open(os.path.join(HERE, "scripts.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
