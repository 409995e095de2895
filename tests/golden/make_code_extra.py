"""Golden: what MindSpore 2.10's ``_c_expression.get_code_extra`` reports after bytecode-jit calls.

Run in the oracle environment from the repository root:

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_code_extra.py

Each case of ``tests/introspection/code_extra_cases.py`` (a MindSpore program)
runs in its own process; its printed report is stored in ``code_extra.json``.
``tests/introspection/test_code_extra.py`` runs the same program through
``python -m msxla`` and compares.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "..", "introspection", "code_extra_cases.py")
sys.path.insert(0, os.path.dirname(CASES))


def main():
    from code_extra_cases import CASES as NAMES  # noqa: N811 - imports mindspore: oracle only
    out = {}
    for name in NAMES:
        with tempfile.TemporaryDirectory() as cwd:  # MindSpore writes rank_0/ here
            proc = subprocess.run([sys.executable, os.path.abspath(CASES), name], cwd=cwd,
                                  capture_output=True, text=True,
                                  env=dict(os.environ, GLOG_v="3"), timeout=600)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not lines:
            raise SystemExit(f"{name} failed under MindSpore:\n{proc.stderr[-3000:]}")
        out[name] = json.loads(lines[-1])["steps"]
    with open(os.path.join(HERE, "code_extra.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
