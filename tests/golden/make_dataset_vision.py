"""Writes dataset_vision.json: MindSpore 2.10's output of every transform case in
tests/dataset/vision_cases.py on its fixed images.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_dataset_vision.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dataset"))

import mindspore as ms  # noqa: E402
import mindspore.dataset.transforms as T  # noqa: E402
import mindspore.dataset.vision as V  # noqa: E402

import vision_cases  # noqa: E402


def _json(result):
    if isinstance(result, str):
        return {"error": result}
    out = []
    for r in result:
        a = r["array"]
        item = {"dtype": a.dtype.str if a.dtype.kind != "U" else "<U", "shape": list(a.shape),
                "value": a.tolist()}
        if "pil_mode" in r:
            item["pil_mode"] = r["pil_mode"]
        out.append(item)
    return {"outputs": out}


def main():
    inputs = vision_cases.inputs()
    golden = {name: _json(vision_cases.run(V, T, ms, name, inputs))
              for name in vision_cases.CASES}
    with open(os.path.join(HERE, "dataset_vision.json"), "w") as f:
        json.dump(golden, f, sort_keys=True, separators=(",", ":"))


if __name__ == "__main__":
    main()
