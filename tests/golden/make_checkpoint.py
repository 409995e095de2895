"""Write tests/golden/mindspore_net.ckpt and checkpoint.json with MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_checkpoint.py``.

The network (``make_net``, shared with tests/train/test_checkpoint_golden.py)
holds Parameters of several dtypes and ranks; MindSpore saves it with an
``append_dict`` and ``crc_check=True``. The JSON holds every saved entry
(name, dtype, shape, values) and the network's output on a fixed input, so
msxla can check that loading the file reproduces both.

``--verify FILE`` loads a checkpoint written by msxla into MindSpore and
prints what it holds (the other direction of the round trip).
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CKPT = os.path.join(HERE, "mindspore_net.ckpt")
APPEND = {"epoch_num": 7, "lr": 0.125, "converged": False, "note": "saved by MindSpore"}


def make_values():
    rng = np.random.default_rng(2024)
    return {
        "dense.weight": rng.standard_normal((3, 4)).astype(np.float32),
        "dense.bias": rng.standard_normal((3,)).astype(np.float32),
        "half.scale": rng.standard_normal((3,)).astype(np.float16),
        "bf16.shift": rng.standard_normal((3,)).astype(np.float32),  # saved as bfloat16
        "count": np.array(5, np.int32),
        "ids": np.arange(6, dtype=np.int64).reshape(2, 3) - 2,
        "mask": np.array([True, False, True]),
        "bytes": np.array([0, 7, 255], np.uint8),
        "temperature": np.array(0.75, np.float64),
    }


def make_net(ms, values):
    """``(x @ W.T + b) * half.scale + bf16.shift`` plus state Parameters of other dtypes."""
    nn, ops = ms.nn, ms.ops

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.entries = []
            for i, (name, value) in enumerate(values.items()):
                dtype = ms.bfloat16 if name == "bf16.shift" else None
                p = ms.Parameter(ms.Tensor(value, dtype), name=name,
                                 requires_grad=value.dtype.kind == "f")
                self.insert_param_to_cell(f"p{i}", p)
                self.entries.append(p)

        def construct(self, x):
            w, b, scale, shift = self.entries[:4]
            y = ops.matmul(x, w.T) + b
            return y * ops.cast(scale, ms.float32) + ops.cast(shift, ms.float32)

    return Net()


def make_input():
    return np.random.default_rng(7).standard_normal((2, 4)).astype(np.float32)


def describe(value):
    if isinstance(value, str):
        return {"str": value}
    arr = value.asnumpy()
    as_float = arr.astype(np.float64) if arr.dtype.kind != "b" else arr.astype(np.int64)
    return {"dtype": str(value.dtype), "shape": list(arr.shape), "values": as_float.tolist()}


def verify(path):
    import mindspore as ms
    loaded = ms.load_checkpoint(path)
    for name, value in loaded.items():
        print(name, describe(value))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--verify":
        verify(sys.argv[2])
        return
    import mindspore as ms
    values = make_values()
    net = make_net(ms, values)
    if os.path.exists(CKPT):
        os.chmod(CKPT, 0o600)
        os.remove(CKPT)
    ms.save_checkpoint(net, CKPT, append_dict=dict(APPEND), crc_check=True)
    loaded = ms.load_checkpoint(CKPT, crc_check=True)
    out = net(ms.Tensor(make_input())).asnumpy()
    golden = {"mindspore": ms.__version__, "input": make_input().tolist(),
              "output": out.tolist(), "order": list(loaded),
              "entries": {k: describe(v) for k, v in loaded.items()}}
    with open(os.path.join(HERE, "checkpoint.json"), "w") as fh:
        json.dump(golden, fh, indent=1, sort_keys=True)
    print(json.dumps(golden["entries"], indent=1)[:2000])


if __name__ == "__main__":
    sys.exit(main())
