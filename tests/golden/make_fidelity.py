"""Write tests/golden/fidelity.json: MindSpore 2.10's answers where jit fidelity
depends on MindSpore's own behaviour.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_fidelity.py``.

- ``variable_scalars``: ``tests/jit/scalar_cases.py`` in PyNative and in
  GRAPH_MODE (dtype and value of each result): ``float(t)`` of a graph Tensor
  promotes like a Python float (``x_f16 * float(t)`` is float16).
- ``bad_arguments``: ``scalar_cases.bad_calls`` fed each of ``BAD_VALUES``
  (the exception's type and the first line of its message).

Each mode runs in a fresh process (a failed graph compile leaves MindSpore's
global state broken).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "jit"))


def _tensor(t):
    return {"dtype": str(t.dtype), "value": t.asnumpy().tolist()}


def variable_scalars(mode):
    import numpy as np
    import mindspore as ms
    import scalar_cases

    class Net(ms.nn.Cell):
        def construct(self, x):
            return scalar_cases.variable_scalars(ms, x)
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    x = ms.Tensor(np.array(scalar_cases.VARIABLE_SCALARS_INPUT, np.float32))
    return [_tensor(t) for t in Net()(x)]


def bad_arguments(mode):
    import numpy as np
    import mindspore as ms
    import scalar_cases
    x = ms.Tensor(np.ones((2, 2), np.float32))
    out = {}
    for name, call in scalar_cases.bad_calls(ms, x).items():
        for label, value in scalar_cases.BAD_VALUES.items():
            try:
                call(value)
                out[f"{name} | {label}"] = {"raises": None}
            except Exception as err:  # noqa: BLE001 - recorded
                out[f"{name} | {label}"] = {"raises": type(err).__name__,
                                            "first_line": str(err).strip().split("\n")[0]}
    return out


SECTIONS = {"variable_scalars": (variable_scalars, ("pynative", "graph")),
            "bad_arguments": (bad_arguments, ("pynative",))}


def _spawn(section, mode):
    proc = subprocess.run([sys.executable, __file__, "--one", section, mode],
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, GLOG_v="3"), timeout=600)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith('{"result"')]
    if not lines:
        raise RuntimeError(f"{section} {mode}: {proc.stderr[-2000:]}")
    return json.loads(lines[-1])["result"]


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        print(json.dumps({"result": SECTIONS[sys.argv[2]][0](sys.argv[3])}))
        return
    import mindspore as ms
    out = {"mindspore": ms.__version__}
    for section, (_, modes) in SECTIONS.items():
        out[section] = {mode: _spawn(section, mode) for mode in modes}
        print(section, out[section], flush=True)
    with open(os.path.join(HERE, "fidelity.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
