"""Writes kink_grads.json: MindSpore 2.10's gradients of piecewise ops at and around
their kinks (relu's 0, relu6's 0 and 6, clamp's bounds, hardswish's -3 and 3, abs at
0, a max with ties, ...).

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_kink_grads.py``.

Each case is an expression of ``v`` (one of the inputs below); the gradient of its
sum with respect to ``v`` is stored. ``tests/autodiff/test_kink_grads.py`` takes the
same gradients with msxla, in PyNative and in every capture mode.
"""
import json
import os

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

INPUTS = {
    "kinks": [-4, -3, -1, -0.5, 0, 0.5, 1, 3, 6, 7],
    "ties": [1.0, 3.0, 3.0, 2.0],
}
CASES = {
    "kinks": """
ops.relu(v)
ops.relu6(v)
nn.ReLU()(v)
nn.ReLU6()(v)
ops.clamp(v, 0.0, 6.0)
ops.clamp(v, -1.0, 1.0)
ops.clip_by_value(v, Tensor(-1.0), Tensor(1.0))
ops.hardtanh(v, -1.0, 1.0)
ops.hardswish(v)
ops.hardsigmoid(v)
nn.HSwish()(v)
nn.HSigmoid()(v)
ops.leaky_relu(v, 0.2)
nn.LeakyReLU(0.2)(v)
ops.elu(v)
ops.abs(v)
ops.maximum(v, ops.full_like(v, 0.5))
ops.minimum(v, ops.full_like(v, 0.5))
ops.softshrink(v, 0.5)
ops.hardshrink(v, 0.5)
ops.threshold(v, 0.5, 9.0)
ops.prelu(v, Tensor(np.array([0.25], np.float32)))
ops.amax(v)
""",
    "ties": """
ops.amax(v)
ops.max(v)[0]
ops.ReduceMax()(v)
ops.amin(-v)
ops.max(v, axis=0)[0]
ops.min(-v, axis=0)[0]
ops.ArgMaxWithValue()(v)[1]
ops.maximum(v, Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)))
v.max()
""",
}


def main():
    cases = []
    for name, text in CASES.items():
        v0 = Tensor(np.array(INPUTS[name], np.float32))
        for expr in [e.strip() for e in text.strip().splitlines() if e.strip()]:
            def loss(v, expr=expr):
                return eval(expr, {"ops": ops, "nn": nn, "Tensor": Tensor, "np": np,  # noqa: S307
                                   "v": v}).sum()
            grad = ms.grad(loss)(v0).asnumpy()
            cases.append({"input": name, "expr": expr, "grad": grad.tolist()})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kink_grads.json")
    with open(path, "w") as f:
        json.dump({"inputs": INPUTS, "cases": cases}, f, indent=0)
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
