"""PSNR, SSIM and CentralCrop against MindSpore 2.10 (tests/golden/nn_image.json),
eagerly and jitted; their argument checks."""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "nn_image.json")))
A = Tensor(np.array(GOLDEN["a"], np.float32))
B = Tensor(np.array(GOLDEN["b"], np.float32))


@pytest.mark.parametrize("expr", sorted(GOLDEN["cases"]))
@pytest.mark.parametrize("jitted", [False, True])
def test_matches_mindspore(expr, jitted):
    want = GOLDEN["cases"][expr]
    cell_expr, _, args = expr.rpartition(")(")
    cell = eval(cell_expr + ")", {"nn": nn})  # noqa: S307 - expressions from the golden file
    inputs = eval("(" + args.rstrip(")") + ",)", {"a": A, "b": B})  # noqa: S307
    got = (ms.jit(cell) if jitted else cell)(*inputs).asnumpy()
    assert list(got.shape) == want["shape"] and str(got.dtype) == want["dtype"]
    np.testing.assert_allclose(got.ravel(), want["values"], rtol=1e-5, atol=1e-5)


def test_integer_images_are_scaled_by_their_dtype():
    a = np.array(GOLDEN["a"], np.float32)
    u = Tensor((a * 255).astype(np.uint8))
    v = Tensor(np.clip(a * 255 + 20, 0, 255).astype(np.uint8))
    want = nn.PSNR()(Tensor(u.asnumpy().astype(np.float32) / 255),
                     Tensor(v.asnumpy().astype(np.float32) / 255))
    np.testing.assert_allclose(nn.PSNR(255)(u, v).asnumpy(), want.asnumpy(), rtol=1e-5)


def test_argument_checks():
    with pytest.raises(ValueError):
        nn.PSNR(-1.0)
    with pytest.raises(ValueError):
        nn.SSIM(filter_size=0)
    with pytest.raises(ValueError):
        nn.CentralCrop(1.5)
    with pytest.raises(TypeError):
        nn.PSNR()(A, B[:, :2])
    with pytest.raises(ValueError):
        nn.SSIM(filter_size=20)(A, B)
