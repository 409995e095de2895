"""Write tests/mindir/data/<net>.mindir and tests/golden/mindir_load.json with MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_mindir_load.py``.

Each network of tests/mindir/mindir_nets.py (fixed weights and inputs), and each
single-op case of OP_CASES (as ``op_<name>``), is exported
by MindSpore (``mindspore.export(..., file_format="MINDIR")``), loaded back
(``mindspore.load`` + ``nn.GraphCell``) and run. The JSON holds, per
network: the inputs, the outputs of the loaded graph (checked here to equal
the network's own), and the primitives the file uses. msxla must load the
very file and give these outputs (tests/mindir/test_load_mindspore.py).
"""
import json
import os
import sys

import numpy as np

import mindspore as ms

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "mindir", "data")
sys.path.insert(0, os.path.join(HERE, "..", "mindir"))

from mindir_nets import NETS, OP_CASES, op_case  # noqa: E402


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in _flat(o)]
    return [out.asnumpy()]


def primitives(path):
    from mindspore.train import mind_ir_pb2
    model = mind_ir_pb2.ModelProto()
    with open(path, "rb") as f:
        model.ParseFromString(f.read())
    return sorted({p.op_type for p in model.primitives})


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    os.makedirs(DATA, exist_ok=True)
    doc = {}
    cases = {name: lambda build=build: build(ms) for name, build in NETS.items()}
    cases.update({f"op_{name}": lambda name=name: op_case(ms, name) for name in OP_CASES})
    for name, build in cases.items():
        net, inputs = build()
        path = os.path.join(DATA, name)
        if os.path.exists(path + ".mindir"):
            os.chmod(path + ".mindir", 0o600)
        ms.export(net, *inputs, file_name=path, file_format="MINDIR")
        os.chmod(path + ".mindir", 0o644)
        direct = _flat(net(*inputs))
        loaded = _flat(ms.nn.GraphCell(ms.load(path + ".mindir"))(*inputs))
        for a, b in zip(direct, loaded):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        doc[name] = {
            "inputs": [{"dtype": str(x.asnumpy().dtype), "value": x.asnumpy().tolist()}
                       for x in inputs],
            "outputs": [{"dtype": str(v.dtype), "shape": list(v.shape), "value": v.tolist()}
                        for v in loaded],
            "tuple": isinstance(net(*inputs), tuple),
            "primitives": primitives(path + ".mindir"),
        }
        print(name, doc[name]["primitives"])
    with open(os.path.join(HERE, "mindir_load.json"), "w") as f:
        json.dump({"mindspore": ms.__version__, "nets": doc}, f, indent=0)


if __name__ == "__main__":
    main()
