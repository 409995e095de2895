"""Neural-network ops beyond the op table: Tensor methods, in-place forms, primitives'
extra outputs, gradients with special rules and MindSpore's argument errors."""
import inspect

import jax
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from msxla.common.tensor import wrap
from helpers import assert_close

RNG = np.random.default_rng(3)


def test_signatures_match_mindspore():
    expected = {
        "conv2d": "(input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1, "
                  "groups=1)",
        "max_pool2d": "(x, kernel_size, stride=None, padding=0, dilation=1, "
                      "return_indices=False, ceil_mode=False)",
        "batch_norm": "(input_x, running_mean, running_var, weight, bias, training=False, "
                      "momentum=0.1, eps=1e-05)",
        "cross_entropy": "(input, target, weight=None, ignore_index=-100, reduction='mean', "
                         "label_smoothing=0.0)",
        "dropout": "(input, p=0.5, training=True, seed=None)",
        "interpolate": "(input, size=None, scale_factor=None, mode='nearest', "
                       "align_corners=None, recompute_scale_factor=None)",
        "softmax": "(input, axis=-1, *, dtype=None)",
        "randn": "(*size, dtype=None, seed=None)",
        "randint": "(low, high, size, seed=None, *, dtype=None)",
        "uniform": "(shape, minval, maxval, seed=None, dtype=mindspore.float32)",
    }
    for name, sig in expected.items():
        assert str(inspect.signature(getattr(ops, name))) == sig, name


def test_tensor_methods():
    x = Tensor(RNG.standard_normal((2, 2, 4, 4)).astype(np.float32))
    cols = x.unfold(2)
    assert cols.shape == (2, 8, 9)
    assert_close(cols.fold((4, 4), 2), ops.fold(ops.unfold(x, 2), (4, 4), 2))
    v = Tensor(np.array([-1.0, 0.2, 3.0], np.float32))
    assert_close(v.soft_shrink(), np.array([-0.5, 0.0, 2.5], np.float32))
    assert_close(v.hardshrink(0.5), np.array([-1.0, 0.0, 3.0], np.float32))
    assert_close(v.softmax(0), ops.softmax(v, 0))
    assert_close(v.sigmoid(), 1 / (1 + np.exp(-v.asnumpy())))
    t = Tensor(np.array([0.0], np.float32))
    assert t.sigmoid_() is t and t.item() == 0.5


def test_relu_inplace_rebinds_input():
    x = Tensor(np.array([-1.0, 2.0], np.float32))
    out = ops.relu(x, inplace=True)
    assert out is x
    assert_close(x, np.array([0.0, 2.0], np.float32))


def test_embedding_padding_idx_gets_no_gradient():
    idx = Tensor(np.array([[0, 2], [2, 1]], np.int32))
    w = RNG.standard_normal((4, 3))
    g = jax.grad(lambda a: ops.embedding(idx, wrap(a), padding_idx=2)._data.sum())(w)
    np.testing.assert_array_equal(g, [[1, 1, 1], [1, 1, 1], [0, 0, 0], [0, 0, 0]])


def test_dropout_primitive_returns_output_and_mask():
    x = Tensor(np.ones((200,), np.float32) * 3)
    out, mask = ops.Dropout(keep_prob=0.75)(x)
    assert mask.dtype is ms.float32
    m = mask.asnumpy()
    assert set(np.unique(m)) <= {0.0, 1.0}
    assert_close(out, m * 4.0)
    out2, mask2 = ops.Dropout2D(0.5)(Tensor(np.ones((4, 6, 2, 2), np.float32)))
    assert mask2.dtype is ms.bool_
    per_channel = mask2.asnumpy().reshape(24, 4)
    assert np.all(per_channel == per_channel[:, :1])


def test_dropout_inactive_returns_input():
    x = Tensor(np.ones(5, np.float32))
    assert ops.dropout(x, 0.5, training=False) is x
    assert ops.dropout2d(x.reshape(1, 5, 1, 1), 0.0) is not None


def test_grad_of_max_pool_goes_to_the_argmax():
    x = np.array([[[[1.0, 5.0], [3.0, 2.0]]]])
    g = jax.grad(lambda a: ops.max_pool2d(wrap(a), 2)._data.sum())(x)
    np.testing.assert_array_equal(g, [[[[0, 1], [0, 0]]]])


def test_batch_norm_gradient_flows_under_ms_grad():
    x = Tensor(RNG.standard_normal((4, 3)).astype(np.float32))
    rm = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="rm")
    rv = ms.Parameter(Tensor(np.ones(3, np.float32)), name="rv")
    w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")
    b = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="b")

    def loss(inp):
        return (ops.batch_norm(inp, rm, rv, w, b, True) * inp).sum()

    g = ms.grad(loss)(x)
    assert g.shape == (4, 3) and np.all(np.isfinite(g.asnumpy()))
    assert not np.allclose(rm.asnumpy(), 0)  # the running mean moved


@pytest.mark.parametrize("call, exc, match", [
    (lambda: ops.conv2d(Tensor(np.ones((1, 2, 5, 5), np.float32)),
                        Tensor(np.ones((3, 2, 3, 3), np.float32)), padding=1),
     ValueError, "'pad' must be zero when 'pad_mode' is not 'pad'"),
    (lambda: ops.conv2d(Tensor(np.ones((1, 2, 5, 5), np.float32)),
                        Tensor(np.ones((3, 3, 3, 3), np.float32))), ValueError, "C_in"),
    (lambda: ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.float32)), scale_factor=2.0,
                             mode="bilinear"), ValueError, "scale_factor"),
    (lambda: ops.cross_entropy(Tensor(np.ones((2, 3), np.float32)),
                               Tensor(np.array([0, 1], np.int32)), reduction="avg"),
     ValueError, "reduction"),
    (lambda: ops.gelu(Tensor(np.array([1, 2], np.int32))), TypeError, "GeLU"),
    (lambda: ops.avg_pool2d(Tensor(np.ones((1, 4, 4), np.float32)), 2), ValueError,
     "dimension"),
    (lambda: ops.gelu(Tensor(np.ones(2, np.float32)), approximate="fast"), ValueError,
     "approximate"),
])
def test_errors_name_the_op(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_functional_namespace_has_the_rows():
    from msxla.ops import functional as F
    for name in ("conv2d", "softmax", "cross_entropy", "interpolate", "dropout", "uniform"):
        assert getattr(F, name) is getattr(ops, name)
