"""Writes nn_image.json: MindSpore 2.10's PSNR, SSIM and CentralCrop on a fixed pair
of image batches (stored in the JSON). MindSpore 2.10 computes PSNR/SSIM only in
GRAPH_MODE (PyNative stops in its scalar cast), so this runs in GRAPH_MODE.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_nn_image.py
"""
import json
import os

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

ms.set_context(mode=ms.GRAPH_MODE)

RNG = np.random.default_rng(2)
A = RNG.uniform(0, 1, (2, 3, 16, 14)).astype(np.float32)
B = np.clip(A + RNG.normal(0, 0.1, A.shape), 0, 1).astype(np.float32)

CASES = {
    "nn.PSNR()(a, b)": lambda a, b: nn.PSNR()(a, b),
    "nn.PSNR(2.0)(a, b)": lambda a, b: nn.PSNR(2.0)(a, b),
    "nn.SSIM()(a, b)": lambda a, b: nn.SSIM()(a, b),
    "nn.SSIM(max_val=2.0, filter_size=5, filter_sigma=0.8, k1=0.02, k2=0.05)(a, b)":
        lambda a, b: nn.SSIM(max_val=2.0, filter_size=5, filter_sigma=0.8, k1=0.02,
                             k2=0.05)(a, b),
    "nn.SSIM()(a, a)": lambda a, b: nn.SSIM()(a, a),
    "nn.CentralCrop(0.5)(a)": lambda a, b: nn.CentralCrop(0.5)(a),
    "nn.CentralCrop(0.7)(a[0])": lambda a, b: nn.CentralCrop(0.7)(a[0]),
}


def main():
    out = {"a": A.tolist(), "b": B.tolist(), "cases": {}}
    for expr, fn in CASES.items():
        r = fn(Tensor(A), Tensor(B)).asnumpy()
        out["cases"][expr] = {"dtype": str(r.dtype), "shape": list(r.shape),
                              "values": r.ravel().tolist()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn_image.json")
    with open(path, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
