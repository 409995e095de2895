"""Write tests/golden/mindir_export.json: msxla's MindIR files, run by MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_mindir_export.py``.

msxla (``MSXLA_PYTHON``, default the repository's ``.venv/bin/python``) exports
every network of tests/mindir/mindir_nets.py and every single-op case (OP_CASES)
with ``file_format="MINDIR"`` (tests/mindir/export_nets.py). MindSpore then
loads each file (``mindspore.load`` + ``nn.GraphCell``), runs it on the
case's inputs and checks the outputs against the same network built and run
in MindSpore itself. The JSON holds, per case, MindSpore's outputs of msxla's
file and the primitives the file uses, so the tests can check that msxla's
export still writes only primitives MindSpore has run, and that loading the
file back in msxla gives what MindSpore gives.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import mindspore as ms

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "mindir"))

from make_mindir_load import _flat, primitives  # noqa: E402
from mindir_nets import NETS, OP_CASES, op_case  # noqa: E402


def _msxla_python():
    default = os.path.join(ROOT, ".venv", "bin", "python")
    return os.environ.get("MSXLA_PYTHON", default if os.path.exists(default) else "python3")


def main():
    with tempfile.TemporaryDirectory(prefix="mindir_export_") as out_dir:
        run(out_dir)


def run(out_dir):
    env = dict(os.environ, PYTHONPATH=ROOT)
    subprocess.run([_msxla_python(), os.path.join(ROOT, "tests", "mindir", "export_nets.py"),
                    out_dir], check=True, env=env, cwd=ROOT)
    cases = {name: lambda build=build: build(ms) for name, build in NETS.items()}
    cases.update({f"op_{name}": lambda name=name: op_case(ms, name) for name in OP_CASES})
    doc = {}
    for name, build in cases.items():
        net, inputs = build()
        path = os.path.join(out_dir, name + ".mindir")
        ms.set_context(mode=ms.PYNATIVE_MODE)
        want = _flat(net(*inputs))
        got = _flat(ms.nn.GraphCell(ms.load(path))(*inputs))
        assert len(got) == len(want), name
        for a, b in zip(want, got):
            np.testing.assert_allclose(b.astype(np.float64), a.astype(np.float64), rtol=1e-4,
                                       atol=1e-5, err_msg=name)
        doc[name] = {
            "outputs": [{"dtype": str(v.dtype), "shape": list(v.shape), "value": v.tolist()}
                        for v in got],
            "primitives": primitives(path),
        }
        print(name, "ok", doc[name]["primitives"])
    with open(os.path.join(HERE, "mindir_export.json"), "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": doc}, f, indent=0)


if __name__ == "__main__":
    main()
