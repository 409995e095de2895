"""Write tests/golden/amp.json: which ops run in float16 at each amp level, in MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_amp.py``.

``AmpNet`` applies several kinds of ops to the same input: a Dense (white-listed
Cell), a ReLU Primitive attribute, an ``nn.ReLU``, a MatMul Primitive attribute,
the functional ``ops.relu``, Exp and Softmax Primitives and a BatchNorm1d. The
input's values are small integers plus 2**-11, which float32 holds and float16
drops, and the weights are small integers: an op that ran in float16 returns
exact integers, one that ran in float32 keeps the 2**-11 parts, so the stored
values (not just the dtypes) say where each level casts. For each level
(O0, O1, O2, O3, auto; float16, and bfloat16 where MindSpore's CPU kernels
have it; PyNative and GRAPH_MODE) the JSON holds the dtypes and values of the
outputs and, for O2/O3, of the network inside the float32 output cast.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = ("O0", "O1", "O2", "O3", "auto")
OUTPUTS = ("dense", "relu_prim", "relu_cell", "matmul_prim", "relu_functional", "exp", "softmax",
           "batchnorm")
D = 2.0 ** -11


def make_input():
    base = np.array([[1, 2, -1, 3], [0, -2, 2, 1]], np.float32)
    return base + np.float32(D)


if __name__ == "__main__":
    import mindspore as fw  # the oracle
else:
    import msxla as fw  # the test
nn, ops = fw.nn, fw.ops


class AmpNet(nn.Cell):
    """The ops under test (MindSpore's O1 rewrite needs the class at module level)."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.relu = ops.ReLU()
        self.act = nn.ReLU()
        self.matmul = ops.MatMul()
        self.w = fw.Parameter(fw.Tensor(np.array([[1, 0, 2], [0, 1, -1], [1, 1, 0],
                                                  [2, -1, 1]], np.float32)), name="w")
        self.exp = ops.Exp()
        self.softmax = ops.Softmax()
        self.bn = nn.BatchNorm1d(4)

    def construct(self, x):
        return (self.dense(x), self.relu(x), self.act(x), self.matmul(x, self.w),
                ops.relu(x), self.exp(x), self.softmax(x), self.bn(x))


def make_net(ms):
    net = AmpNet()
    net.dense.weight.set_data(ms.Tensor(np.array([[1, -1, 0, 2], [2, 0, 1, -1], [0, 1, 1, 1]],
                                                 np.float32)))
    net.dense.bias.set_data(ms.Tensor(np.array([1, -2, 0], np.float32)))
    net.set_train(False)
    return net


def run(ms, level, dtype, graph=False):
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    net = ms.amp.auto_mixed_precision(make_net(ms), level, getattr(ms, dtype))
    net.set_train(False)
    x = ms.Tensor(make_input())
    out = {"outputs": _describe(net(x))}
    if level in ("O2", "O3"):
        out["inner"] = _describe(net._backbone(x))
    return out


def _describe(outputs):
    return {name: {"dtype": str(t.dtype),
                   "value": t.astype(np.float32).asnumpy().tolist()
                   if hasattr(t, "astype") else None}
            for name, t in zip(OUTPUTS, outputs)}


def main():
    import mindspore as ms
    out = {}
    for dtype in ("float16", "bfloat16"):
        for level in LEVELS:
            for mode in ("pynative", "graph"):
                key = f"{level}_{dtype}_{mode}"
                try:
                    out[key] = run(ms, level, dtype, mode == "graph")
                except (TypeError, RuntimeError) as err:  # no CPU kernel for bfloat16
                    print(key, "skipped:", str(err).splitlines()[0])
                    continue
                print(key, {k: v["dtype"] for k, v in out[key]["outputs"].items()})
    import shutil
    shutil.rmtree("rewritten_network", ignore_errors=True)  # MindSpore's O1 rewrite output
    with open(os.path.join(HERE, "amp.json"), "w") as fh:
        json.dump(out, fh, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
