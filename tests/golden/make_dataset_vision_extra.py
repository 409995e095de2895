"""Write tests/golden/dataset_vision_extra.json: MindSpore 2.10's outputs of
AdjustSharpness / RandomSharpness, RandomColor, GaussianBlur and RandomAffine on
fixed images (random ranges collapsed to one value, so the output is fixed).

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_dataset_vision_extra.py
"""
import json
import os

import numpy as np
import mindspore.dataset.vision as vision
from mindspore.dataset.vision import Inter

rng = np.random.RandomState(11)
IMG = rng.randint(0, 256, (9, 11, 3)).astype(np.uint8)
GRAY = rng.randint(0, 256, (8, 7)).astype(np.uint8)
CASES = [
    ("AdjustSharpness", [0.5], "rgb"), ("AdjustSharpness", [2.0], "rgb"),
    ("RandomSharpness", [[1.7, 1.7]], "rgb"), ("RandomColor", [[0.3, 0.3]], "rgb"),
    ("RandomColor", [[1.6, 1.6]], "rgb"), ("GaussianBlur", [3, 1.0], "rgb"),
    ("GaussianBlur", [[5, 3], [1.5, 0.8]], "rgb"), ("GaussianBlur", [3], "gray"),
    ("RandomAffine", [[90, 90]], "rgb"), ("RandomAffine", [0, None, [2.0, 2.0]], "rgb"),
    ("RandomAffine", [[30, 30], None, None, None, Inter.BILINEAR], "rgb"),
    ("RandomAffine", [0, None, None, [20.0, 20.0, 0.0, 0.0]], "rgb"),
]


def main():
    out = {"rgb": IMG.tolist(), "gray": GRAY.tolist(), "cases": []}
    for name, args, which in CASES:
        img = IMG if which == "rgb" else GRAY
        try:
            result = getattr(vision, name)(*args)(img)
            entry = {"output": np.asarray(result).tolist(), "dtype": str(np.asarray(result).dtype)}
        except Exception as e:  # noqa: BLE001 - recorded
            entry = {"error": [type(e).__name__, str(e).split("\n")[0]]}
        out["cases"].append({"name": name, "args": [int(a) if isinstance(a, Inter) else a
                                                    for a in args], "image": which, **entry})
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "dataset_vision_extra.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
