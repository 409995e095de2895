"""Write tests/golden/padv3.json: MindSpore 2.10's ops.PadV3 (modes, paddings layouts,
constant values) on a fixed input: the output or the error.

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_padv3.py
"""
import json
import os

import numpy as np
from mindspore import Tensor, nn, ops

X = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
CASES = [
    ("constant", True, [1, 2], 0.0), ("constant", True, [1, 0, 2, 1], 5.0),
    ("constant", False, [1, 2, 0, 1], 0.0), ("reflect", True, [2, 1], None),
    ("edge", True, [1, 2, 2, 0], None), ("circular", True, [1, 2], None),
]


def main():
    out = {"x": X.tolist(), "cases": []}
    for mode, contiguous, paddings, value in CASES:
        args = [Tensor(X), Tensor(np.array(paddings, np.int64))]
        if value is not None:
            args.append(Tensor(np.float32(value)))
        try:
            y = ops.PadV3(mode, contiguous)(*args).asnumpy().tolist()
            entry = {"output": y}
        except Exception as e:  # noqa: BLE001 - recorded
            entry = {"error": [type(e).__name__, str(e).split("\n")[0]]}
        out["cases"].append({"mode": mode, "contiguous": contiguous, "paddings": paddings,
                             "value": value, **entry})
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "padv3.json"),
              "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
