"""``mint.nn.GroupNorm``: MindSpore 2.10's signature, Parameter names (``weight``,
``bias``), repr, and the normalisation against numpy, eager and jitted."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, mint

X = np.random.default_rng(0).standard_normal((2, 4, 3)).astype(np.float32)


def reference(x, groups, weight, bias, eps):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    y = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)
    return y.reshape(x.shape) * weight[None, :, None] + bias[None, :, None]


def test_parameters_and_repr():
    net = mint.nn.GroupNorm(2, 4)
    assert [(n, tuple(p.shape), p.requires_grad) for n, p in net.parameters_and_names()] == \
        [("weight", (4,), True), ("bias", (4,), True)]
    assert repr(net) == "GroupNorm(num_groups=2, num_channels=4, eps=1e-05, affine=True)"
    frozen = mint.nn.GroupNorm(2, 4, affine=False)
    assert [p.requires_grad for p in frozen.get_parameters()] == [False, False]


@pytest.mark.parametrize("jitted", [False, True])
def test_normalises_each_group(jitted):
    net = mint.nn.GroupNorm(2, 4, eps=1e-3)
    w = np.array([1.0, 2.0, -1.0, 0.5], np.float32)
    b = np.array([0.0, 1.0, 2.0, -3.0], np.float32)
    net.weight.set_data(Tensor(w))
    net.bias.set_data(Tensor(b))
    fn = ms.jit(net) if jitted else net
    np.testing.assert_allclose(fn(Tensor(X)).asnumpy(), reference(X, 2, w, b, 1e-3),
                               rtol=1e-5, atol=1e-5)


def test_channels_must_divide():
    with pytest.raises(ValueError, match="num_groups"):
        mint.nn.GroupNorm(3, 4)
