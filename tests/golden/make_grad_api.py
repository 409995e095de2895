"""Write tests/golden/grad_api.json: MindSpore 2.10's results for every grad-API case.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_grad_api.py``.
The cases (and their inputs, generated from a fixed seed) are in
``tests/autodiff/grad_cases.py``, shared with the test that compares msxla.
Each case runs in a fresh process, since a failed graph compile leaves
MindSpore's global state broken. ``--missing`` only runs the cases the JSON
file does not hold yet.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "autodiff"))

import grad_cases  # noqa: E402


def run_one(name):
    import mindspore as ms
    data = grad_cases.make_data()
    thunk = grad_cases.cases(ms, data)[name]
    try:
        return grad_cases.encode(thunk(), ms.Tensor)
    except Exception as err:  # noqa: BLE001 - the exception type is the golden
        return {"exc": type(err).__name__, "message": str(err).split("\n")[0][:200]}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(run_one(sys.argv[2])))
        return
    import mindspore as ms
    data = grad_cases.make_data()
    names = list(grad_cases.cases(ms, data))
    path = os.path.join(HERE, "grad_api.json")
    results = {}
    if "--missing" in sys.argv and os.path.exists(path):
        with open(path) as fh:
            results = {k: v for k, v in json.load(fh)["cases"].items() if k in names}
    for name in names:
        if name in results:
            continue
        proc = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True,
                              text=True, env=dict(os.environ, GLOG_v="3"), check=True)
        results[name] = json.loads(proc.stdout.strip().splitlines()[-1])
        print(name, str(results[name])[:100])
    out = {"mindspore": ms.__version__,
           "data": {k: v.tolist() for k, v in data.items()},
           "dtypes": {k: str(v.dtype) for k, v in data.items()},
           "cases": {k: results[k] for k in names}}
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
