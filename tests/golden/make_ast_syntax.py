"""Write tests/golden/ast_syntax.json: MindSpore 2.10's results for the ast coverage programs.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_ast_syntax.py``.
The programs and their inputs are in ``tests/capture/ast/ast_cases.py`` (and
the ``ast_programs_*.py`` files it imports), shared with the msxla tests.
Every case runs in PyNative and jitted (capture_mode="ast") with fullgraph
False and True, each in a fresh process: a failed graph compile leaves
MindSpore's global state broken. ``--missing`` only runs the runs the JSON
file does not hold yet; ``-j N`` runs N processes at a time.
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "capture", "ast"))

import ast_cases

MODES = ("pynative", "fullgraph=False", "fullgraph=True")


def run_one(name, mode):
    import mindspore as ms
    case = ast_cases.cases(ms)[name]
    kwargs = None if mode == "pynative" else {"fullgraph": mode == "fullgraph=True"}
    return ast_cases.run(ms, case, kwargs)


def _spawn(name, mode):
    proc = subprocess.run([sys.executable, __file__, "--one", name, mode], capture_output=True,
                          text=True, check=False, env=dict(os.environ, GLOG_v="3"), timeout=600)
    lines = [ln for ln in proc.stdout.strip().splitlines() if ln.startswith("{\"result\"")]
    if not lines:
        return {"crash": proc.stderr.strip().splitlines()[-1:] or ["no output"]}
    return json.loads(lines[-1])["result"]


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        print(json.dumps({"result": run_one(sys.argv[2], sys.argv[3])}))
        return
    import mindspore as ms
    names = list(ast_cases.cases(ms))
    path = os.path.join(HERE, "ast_syntax.json")
    results = {}
    if "--missing" in sys.argv and os.path.exists(path):
        with open(path) as fh:
            results = {k: v for k, v in json.load(fh)["cases"].items() if k in names}
    jobs = int(sys.argv[sys.argv.index("-j") + 1]) if "-j" in sys.argv else 2
    todo = [(n, m) for n in names for m in MODES if m not in results.get(n, {})]
    with ThreadPoolExecutor(jobs) as pool:
        for (name, mode), res in zip(todo, pool.map(lambda nm: _spawn(*nm), todo)):
            results.setdefault(name, {})[mode] = res
            print(name, mode, str(res)[:120], flush=True)
    out = {"mindspore": ms.__version__, "cases": {k: results[k] for k in names}}
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
