"""mint faces with PyTorch signatures (``index_add``, ``cdist``, ``conv2d``, ``real``,
``imag``) against numpy; ``index_add`` also against MindSpore 2.10's printed result
(``[[9, 11, 13, 15], [1, 1, 1, 1], [1, 3, 5, 7]]`` for the case below)."""
import numpy as np
import pytest

from msxla import Tensor, mint

RNG = np.random.default_rng(4)


def test_index_add():
    inp, src = np.ones((3, 4), np.float32), np.arange(8, dtype=np.float32).reshape(2, 4)
    got = mint.index_add(Tensor(inp), 0, Tensor(np.array([2, 0])), Tensor(src), alpha=2.0)
    np.testing.assert_array_equal(got.asnumpy(), [[9, 11, 13, 15], [1, 1, 1, 1], [1, 3, 5, 7]])
    x, s = RNG.standard_normal((2, 5, 3)), RNG.standard_normal((2, 4, 3))
    idx = np.array([4, 0, 4, 2])
    want = x.copy()
    np.add.at(want, (slice(None), idx), s)
    got = mint.index_add(Tensor(x), 1, Tensor(idx), Tensor(s))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)


@pytest.mark.parametrize("p", [1.0, 2.0])
def test_cdist(p):
    a, b = RNG.standard_normal((2, 4, 3)), RNG.standard_normal((2, 5, 3))
    want = (np.abs(a[:, :, None] - b[:, None]) ** p).sum(-1) ** (1 / p)
    np.testing.assert_allclose(mint.cdist(Tensor(a), Tensor(b), p=p).asnumpy(), want,
                               rtol=1e-6)


def _conv_ref(x, w, stride, pad):
    x = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    oh = (x.shape[2] - w.shape[2]) // stride + 1
    ow = (x.shape[3] - w.shape[3]) // stride + 1
    out = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = x[:, :, i * stride:i * stride + w.shape[2], j * stride:j * stride + w.shape[3]]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", win, w)
    return out


@pytest.mark.parametrize("stride,padding,pad", [(1, 1, (1, 1)), (2, (1, 0), (1, 0)),
                                                (1, "same", (1, 1)), (1, "valid", (0, 0))])
def test_conv2d(stride, padding, pad):
    x, w = RNG.standard_normal((1, 3, 6, 6)), RNG.standard_normal((4, 3, 3, 3))
    got = mint.conv2d(Tensor(x.astype(np.float32)), Tensor(w.astype(np.float32)), None, stride,
                      padding)
    np.testing.assert_allclose(got.asnumpy(), _conv_ref(x, w, stride, pad), rtol=1e-4,
                               atol=1e-4)


def test_real_imag():
    c = np.array([1 + 2j, 3 - 1j], np.complex64)
    np.testing.assert_array_equal(mint.real(Tensor(c)).asnumpy(), c.real)
    np.testing.assert_array_equal(mint.imag(Tensor(c)).asnumpy(), c.imag)
