"""OpSpecs: ExtractImagePatches (nn.Unfold) against a numpy loop over windows, in
TensorFlow's depth order (window row, window column, channel) and SAME/VALID padding."""
import math

import numpy as np

import msxla as ms
from optable import OpSpec


def patches_ref(x, k, s, r, padding):
    n, c, h, w = x.shape
    ek = [(k[i] - 1) * r[i] + 1 for i in range(2)]
    if padding == "VALID":
        out = [(h - ek[0]) // s[0] + 1, (w - ek[1]) // s[1] + 1]
        before = [0, 0]
    else:
        out = [math.ceil(h / s[0]), math.ceil(w / s[1])]
        before = [max((out[i] - 1) * s[i] + ek[i] - (h, w)[i], 0) // 2 for i in range(2)]
    y = np.zeros((n, k[0] * k[1] * c, out[0], out[1]), x.dtype)
    for oi in range(out[0]):
        for oj in range(out[1]):
            for a in range(k[0]):
                for b in range(k[1]):
                    i = oi * s[0] + a * r[0] - before[0]
                    j = oj * s[1] + b * r[1] - before[1]
                    if 0 <= i < h and 0 <= j < w:
                        y[:, (a * k[1] + b) * c:(a * k[1] + b + 1) * c, oi, oj] = x[:, :, i, j]
    return y


SPECS = [
    OpSpec("_extract_image_patches", lambda x: patches_ref(x, (2, 2), (2, 2), (1, 1), "VALID"),
           ((2, 3, 5, 5),), dtypes=(np.float32, np.int32),
           fn=lambda x: ms.nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1])(x)),
    OpSpec("_extract_image_patches", lambda x: patches_ref(x, (3, 2), (1, 2), (2, 1), "SAME"),
           ((1, 2, 6, 5),), dtypes=(np.float32,), id="same_rates",
           fn=lambda x: ms.ops.ExtractImagePatches([1, 3, 2, 1], [1, 1, 2, 1], [1, 2, 1, 1],
                                                   "SAME")(x)),
]
