"""More nn layers and losses against MindSpore 2.10 (``golden/make_nn_layers_extra.py``):
padding, transposed 1-D/3-D convolutions, Linear, BiDense, Upsample, pixel and channel
shuffles, ClipByNorm, Norm, triangles, the math Cells and the margin, embedding,
likelihood and overlap losses (outputs and gradients with the same weights), with
errors, reprs, Parameter names and signatures. The layers MindSpore's CPU build has
no kernel for (InstanceNorm, Roll, ...) are checked against numpy."""
import numpy as np
import pytest

import msxla as ms
from msxla import nn
from layer_golden import check_case, check_error, check_repr, check_signature, load

import make_nn_layers_extra  # noqa: E402 - tests/golden is on sys.path (layer_golden)

DATA = load("nn_layers_extra.json")
EAGER = {"pad_symmetric", "conv1d_transpose", "conv3d_transpose", "bidense", "upsample_bilinear",
         "clip_by_norm", "cosine_embedding", "focal_index", "multiclass_dice"}


# One case per family runs by default; the others are marked slow (the long run has all).
DEFAULT = {"pad_symmetric", "reflection_pad2d", "replication_pad3d", "conv1d_transpose",
           "conv3d_transpose_pad", "linear", "bidense_3d", "upsample_bilinear", "pixel_shuffle",
           "clip_by_norm", "moments", "margin_ranking", "gaussian_nll", "poisson_nll_full",
           "dice"}


@pytest.mark.parametrize("name", [n if n in DEFAULT else pytest.param(n, marks=pytest.mark.slow)
                                  for n in sorted(DATA["cases"])])
def test_layer_matches_mindspore(name):
    check_case(DATA, name, "eager" if name in EAGER else "jit", make_nn_layers_extra.CASES)


def test_goldens_cover_every_case():
    assert set(DATA["cases"]) | set(DATA["no_cpu_kernel"]) == set(make_nn_layers_extra.CASES)


@pytest.mark.parametrize("code", sorted(DATA["errors"]))
def test_invalid_arguments_raise_like_mindspore(code):
    check_error(DATA, code)


@pytest.mark.parametrize("code", sorted(DATA["reprs"]))
def test_repr_and_parameter_names(code):
    check_repr(DATA, code)


@pytest.mark.parametrize("cls_name", sorted(DATA["signatures"]))
def test_constructor_signature(cls_name):
    check_signature(DATA, cls_name)


def _instance_norm_ref(x, gamma, beta, eps):
    axes = tuple(range(2, x.ndim))
    mean = x.mean(axes, keepdims=True)
    var = x.var(axes, keepdims=True)
    shape = (1, -1) + (1,) * len(axes)
    return (x - mean) / np.sqrt(var + eps) * gamma.reshape(shape) + beta.reshape(shape)


@pytest.mark.parametrize("cls,shape", [(nn.InstanceNorm1d, (2, 3, 5)),
                                       (nn.InstanceNorm2d, (2, 3, 4, 5)),
                                       (nn.InstanceNorm3d, (1, 2, 3, 2, 4))])
def test_instance_norm_against_numpy(cls, shape):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32) * 2 + 1
    net = cls(shape[1], momentum=0.2)
    gamma = rng.standard_normal(shape[1]).astype(np.float32)
    beta = rng.standard_normal(shape[1]).astype(np.float32)
    net.gamma.set_data(ms.Tensor(gamma))
    net.beta.set_data(ms.Tensor(beta))
    net.set_train(True)
    out = net(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, _instance_norm_ref(x, gamma, beta, 1e-5), rtol=1e-4,
                               atol=1e-5)
    axes = tuple(range(2, x.ndim))
    n = np.prod(shape[2:])
    mean = x.mean(axes).mean(0)
    var = (x.var(axes) * n / (n - 1)).mean(0)
    np.testing.assert_allclose(net.moving_mean.asnumpy(), 0.8 * 0 + 0.2 * mean, rtol=1e-5)
    np.testing.assert_allclose(net.moving_variance.asnumpy(), 0.8 * 1 + 0.2 * var, rtol=1e-5)
    net.set_train(False)  # instance statistics in evaluation too; moving ones unchanged
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.moving_mean.asnumpy(), 0.2 * mean, rtol=1e-5)


def test_instance_norm_gradients_against_jax_free_numpy_difference():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 2, 3)).astype(np.float64)
    net = nn.InstanceNorm1d(2, dtype=ms.float64)
    grad = ms.grad(lambda t: (net(t) * ms.Tensor(np.arange(12.).reshape(2, 2, 3))).sum())(
        ms.Tensor(x)).asnumpy()
    eps, num = 1e-6, np.zeros_like(x)
    w = np.arange(12.).reshape(2, 2, 3)
    g, b = np.ones(2), np.zeros(2)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        num[idx] = ((_instance_norm_ref(x + d, g, b, 1e-5) * w).sum()
                    - (_instance_norm_ref(x - d, g, b, 1e-5) * w).sum()) / (2 * eps)
    np.testing.assert_allclose(grad, num, rtol=1e-5, atol=1e-6)


def test_roll_and_onehot_against_numpy():
    x = np.arange(12.).reshape(3, 4).astype(np.float32)
    np.testing.assert_array_equal(nn.Roll(2, 0)(ms.Tensor(x)).asnumpy(), np.roll(x, 2, 0))
    np.testing.assert_array_equal(nn.Roll((1, -1), (0, 1))(ms.Tensor(x)).asnumpy(),
                                  np.roll(x, (1, -1), (0, 1)))
    idx = np.array([0, 3, 1], np.int32)
    out = nn.OneHot(depth=4, on_value=2.0, off_value=-1.0)(ms.Tensor(idx))
    want = np.where(np.eye(4)[idx] > 0, 2.0, -1.0).astype(np.float32)
    np.testing.assert_array_equal(out.asnumpy(), want)
    assert out.dtype == ms.float32
    out0 = nn.OneHot(axis=0, depth=4)(ms.Tensor(idx)).asnumpy()
    np.testing.assert_array_equal(out0, np.eye(4, dtype=np.float32)[idx].T)


def test_clip_by_norm_along_an_axis_against_numpy():
    """The documented rule per slice (MindSpore 2.10's CPU kernel scales every row after
    the first by a wrong norm when ``axis`` is set, so this case is not a golden)."""
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    norm = np.sqrt((x * x).sum(1, keepdims=True))
    want = x * 1.0 / np.maximum(norm, 1.0)
    got = nn.ClipByNorm(axis=1)(ms.Tensor(x), ms.Tensor(1.0)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)
