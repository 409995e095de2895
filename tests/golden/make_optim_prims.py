"""Write tests/golden/optim_prims.json: MindSpore 2.10's optimizer Primitives
(AdamWeightDecay, Adam, ApplyMomentum, FusedWeightScaleApplyMomentum) on fixed inputs:
the Parameters after one call (each case, its own fresh Parameters).

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_optim_prims.py
"""
import json
import os

import numpy as np
from mindspore import Parameter, Tensor
from mindspore.ops import operations as P

rng = np.random.RandomState(5)
W, M, V, G = (rng.rand(2, 3).astype(np.float32) for _ in range(4))


def fresh():
    return (Parameter(Tensor(W), "var"), Parameter(Tensor(M), "m"), Parameter(Tensor(V), "v"))


def run(name, attrs, call):
    var, m, v = fresh()
    try:
        call(getattr(P, name)(**attrs), var, m, v)
    except Exception as e:  # noqa: BLE001 - recorded
        return {"name": name, "attrs": attrs, "error": str(e).split("\n")[0]}
    return {"name": name, "attrs": attrs, "var": var.asnumpy().tolist(),
            "m": m.asnumpy().tolist(), "v": v.asnumpy().tolist()}


CASES = [
    ("AdamWeightDecay", {}, lambda p, var, m, v: p(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.1,
                                                   Tensor(G))),
    ("Adam", {}, lambda p, var, m, v: p(var, m, v, 0.9 ** 3, 0.999 ** 3, 0.01, 0.9, 0.999,
                                        1e-8, Tensor(G))),
    ("Adam", {"use_nesterov": True}, lambda p, var, m, v: p(var, m, v, 0.9 ** 3, 0.999 ** 3,
                                                            0.01, 0.9, 0.999, 1e-8, Tensor(G))),
    ("ApplyMomentum", {}, lambda p, var, m, v: p(var, m, Tensor(np.float32(0.1)), Tensor(G),
                                                 Tensor(np.float32(0.9)))),
    ("ApplyMomentum", {"use_nesterov": True}, lambda p, var, m, v: p(
        var, m, Tensor(np.float32(0.1)), Tensor(G), Tensor(np.float32(0.9)))),
    ("FusedWeightScaleApplyMomentum", {}, lambda p, var, m, v: p(
        Tensor(np.float32(0.01)), Tensor(np.float32(0.5)), var, m, Tensor(np.float32(0.1)),
        Tensor(G), Tensor(np.float32(0.9)))),
]


def main():
    out = {"w": W.tolist(), "m": M.tolist(), "v": V.tolist(), "g": G.tolist(),
           "cases": [run(n, a, c) for n, a, c in CASES]}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "optim_prims.json"),
              "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
