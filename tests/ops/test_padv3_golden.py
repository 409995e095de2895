"""``ops.PadV3`` against MindSpore 2.10 (tests/golden/make_padv3.py), and ``nn.Dropout3d``:
identity in eval mode; in training whole (D, H, W) channels are zeroed and the rest scaled."""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn, ops

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden", "padv3.json")))
X = np.array(GOLDEN["x"], np.float32)


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['mode']}{c['paddings']}")
def test_padv3(case):
    args = [Tensor(X), Tensor(np.array(case["paddings"], np.int64))]
    if case["value"] is not None:
        args.append(Tensor(np.float32(case["value"])))
    prim = ops.PadV3(case["mode"], case["contiguous"])
    if "error" in case:
        with pytest.raises(ValueError, match="must be equal to"):
            prim(*args)
        return
    np.testing.assert_array_equal(prim(*args).asnumpy(), np.array(case["output"], np.float32))


def test_dropout3d():
    x = Tensor(np.ones((4, 6, 2, 3, 2), np.float32))
    net = nn.Dropout3d(p=0.5)
    net.set_train(False)
    np.testing.assert_array_equal(net(x).asnumpy(), x.asnumpy())
    net.set_train(True)
    out = net(x).asnumpy().reshape(4, 6, -1)
    per_channel = out.max(axis=2)
    assert np.all((out == 0) | (out == 2.0))
    assert np.all(out.min(axis=2) == per_channel)  # a channel is all kept or all zeroed
    assert 0 < (per_channel == 0).sum() < 24
