"""Writes dataset_tone.json: MindSpore 2.10's AutoContrast, Equalize, Posterize,
Solarize (and their random forms with degenerate ranges or prob=1) on fixed
uint8 images stored in the JSON.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_dataset_tone.py
"""
import json
import os

import numpy as np
import mindspore.dataset.vision as V

RNG = np.random.default_rng(1)
IMAGES = {
    "rgb": RNG.integers(40, 200, (9, 11, 3)).astype(np.uint8),
    "gray": RNG.integers(0, 256, (7, 5)).astype(np.uint8),
    "flat": np.full((4, 4, 3), 77, np.uint8),
}
CASES = [
    "V.AutoContrast()(rgb)", "V.AutoContrast(cutoff=10.0)(rgb)", "V.AutoContrast(cutoff=3)(gray)",
    "V.AutoContrast(ignore=[40, 41, 199])(rgb)", "V.AutoContrast()(gray)",
    "V.AutoContrast()(flat)", "V.Equalize()(rgb)", "V.Equalize()(gray)", "V.Equalize()(flat)",
    "V.Posterize(1)(rgb)", "V.Posterize(3)(gray)", "V.Posterize(8)(rgb)",
    "V.Solarize(128)(rgb)", "V.Solarize((100, 150))(rgb)", "V.Solarize(0)(gray)",
    "V.RandomAutoContrast(prob=1.0)(rgb)", "V.RandomAutoContrast(prob=0.0)(rgb)",
    "V.RandomEqualize(1.0)(gray)", "V.RandomPosterize((4, 4))(rgb)",
    "V.RandomSolarize((90, 90))(rgb)",
]


def main():
    ns = {"V": V, **IMAGES}
    out = {"images": {k: v.tolist() for k, v in IMAGES.items()}, "cases": {}}
    for expr in CASES:
        r = np.asarray(eval(expr, ns))  # noqa: S307
        out["cases"][expr] = {"dtype": str(r.dtype), "shape": list(r.shape),
                              "values": r.ravel().tolist()}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "dataset_tone.json"),
              "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
