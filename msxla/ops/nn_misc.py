"""Op rows: dropout (dropout, dropout1d/2d/3d), embedding, pixel_shuffle /
pixel_unshuffle / channel_shuffle, unfold / fold (im2col / col2im), cosine_similarity,
pdist, bias_add, dense and bidense,
with the Dropout, Dropout2D, Dropout3D, BiasAdd and Dense primitives.

Dropout keeps each element (or channel) with probability ``1 - p`` and scales
what it keeps by ``1 / (1 - p)``; its mask comes from the global random state
(see ``msxla.ops.random``), so every call, eager or jitted, draws a new one.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from msxla.ops._nn_util import tuple_n
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.random import key_for
from msxla.ops.surface import composite, exports, set_public, tensor_method


# ------------------------------------------------------------------- dropout
def _dropout_prim(spatial, mask_dtype=None):
    def call(prim, x):
        p = 1.0 - prim.attrs["keep_prob"]
        key = key_for(prim.attrs.get("Seed0", 0), prim.attrs.get("Seed1", 0))
        out, mask = _dropout_row(key, x, p, spatial)
        return out, mask.astype(mask_dtype or x.dtype)
    return call


@op(dtype=None, dtype_args=("input",), static=("p", "channel_dims"), prim="Dropout",
    primitive=PrimDef(init=(("keep_prob", 0.5), ("Seed0", 0), ("Seed1", 0)),
                      call=_dropout_prim(0)))
def dropout(key, input, p=0.5, channel_dims=0):
    """Zero elements (or, with ``channel_dims``, whole channels) with probability ``p``; the
    row returns (output, keep mask)."""
    if channel_dims:  # one draw per (N, C): mask broadcast over the spatial dims
        shape = input.shape[:input.ndim - channel_dims] + (1,) * channel_dims
    else:
        shape = input.shape
    keep = jax.random.uniform(key, shape, jnp.float32) >= p
    if p >= 1:
        return jnp.zeros_like(input), jnp.broadcast_to(keep, input.shape)
    scale = jnp.asarray(1.0 / (1.0 - p), input.dtype)
    out = jnp.where(keep, input * scale, jnp.zeros((), input.dtype))
    return out, jnp.broadcast_to(keep, input.shape)


_dropout_row = dropout


def _check_p(name, p):
    if not 0 <= p <= 1:
        raise ValueError(f"For {name}, the 'p' must be a number in range [0, 1], but got {p}.")


def dropout(input, p=0.5, training=True, seed=None):  # noqa: F811 - public face of the row
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``."""
    _check_p("dropout", p)
    if not training or p == 0:
        return input
    return _dropout_row(key_for(seed), input, float(p))[0]


set_public(_dropout_row, dropout)


def _channel_dropout(name, input, p, training, spatial):
    _check_p(name, p)
    if not training or p == 0:
        return input
    return _dropout_row(key_for(), input, float(p), spatial)[0]


@composite()
def dropout1d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, L) or (C, L) with probability ``p``."""
    if input.ndim not in (2, 3):
        raise ValueError(f"For dropout1d, input shape should be 2D or 3D, but got {input.ndim}.")
    return _channel_dropout("dropout1d", input, p, training, 1)


@composite(primitive=PrimDef("Dropout2D", init=(("keep_prob", 0.5),),
                             call=_dropout_prim(2, "bool")))
def dropout2d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, H, W) with probability ``p``."""
    return _channel_dropout("dropout2d", input, p, training, 2)


@composite(primitive=PrimDef("Dropout3D", init=(("keep_prob", 0.5),),
                             call=_dropout_prim(3, "bool")))
def dropout3d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, D, H, W) with probability ``p``."""
    return _channel_dropout("dropout3d", input, p, training, 3)


# ----------------------------------------------------------------- embedding
@op(dtype=None, static=("padding_idx", "max_norm", "norm_type", "scale_grad_by_freq"),
    prim="Embedding")
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Rows of ``weight`` at the indices ``input``; ``padding_idx``'s row gets no gradient
    and ``max_norm`` rescales rows whose ``norm_type``-norm exceeds it."""
    idx = input.astype(jnp.int32)
    if padding_idx is not None:
        padding_idx = padding_idx % weight.shape[0]
        keep = (jnp.arange(weight.shape[0]) != padding_idx)[:, None]
        weight = jnp.where(keep, weight, lax.stop_gradient(weight))
    rows = jnp.take(weight, idx, axis=0)
    if max_norm is not None:
        norm = jnp.sum(jnp.abs(rows) ** norm_type, axis=-1, keepdims=True) ** (1.0 / norm_type)
        factor = jnp.where(norm > max_norm, max_norm / (norm + 1e-7), 1.0)
        rows = rows * lax.stop_gradient(factor).astype(rows.dtype)
    return rows


# ----------------------------------------------------------- pixel shuffles
@op(static=("upscale_factor",), prim="PixelShuffle")
def pixel_shuffle(input, upscale_factor):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r)."""
    r = upscale_factor
    *pre, c, h, w = input.shape
    if c % (r * r):
        raise ValueError(f"For 'pixel_shuffle', the length of third to last dimension is not "
                         f"divisible by 'upscale_factor' squared, but got {c}.")
    x = input.reshape(tuple(pre) + (c // (r * r), r, r, h, w))
    n = len(pre)
    x = x.transpose(tuple(range(n + 1)) + (n + 3, n + 1, n + 4, n + 2))
    return x.reshape(tuple(pre) + (c // (r * r), h * r, w * r))


@op(static=("downscale_factor",), prim="PixelUnshuffle")
def pixel_unshuffle(input, downscale_factor):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W)."""
    r = downscale_factor
    *pre, c, h, w = input.shape
    if h % r or w % r:
        raise ValueError(f"For 'pixel_unshuffle', the height and width must be divisible by "
                         f"'downscale_factor', but got {h} and {w}.")
    x = input.reshape(tuple(pre) + (c, h // r, r, w // r, r))
    n = len(pre)
    x = x.transpose(tuple(range(n + 1)) + (n + 2, n + 4, n + 1, n + 3))
    return x.reshape(tuple(pre) + (c * r * r, h // r, w // r))


@op(static=("groups",), prim="ChannelShuffle")
def channel_shuffle(x, groups):
    """Interleave the channels of (N, C, ...) from ``groups`` groups: (g, C/g) -> (C/g, g)."""
    if x.ndim <= 3:
        raise TypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {x.ndim}.")
    n, c = x.shape[:2]
    if c % groups:
        raise ValueError(f"For ChannelShuffle, the number of channels {c} must be divisible by "
                         f"'groups' {groups}.")
    y = x.reshape((n, groups, c // groups) + x.shape[2:])
    return jnp.swapaxes(y, 1, 2).reshape(x.shape)


# ------------------------------------------------------------- unfold / fold
def _patches(x, kernel, dilation, padding, stride):
    """im2col of (N, C, H, W): (N, C * kh * kw, L), channel-major like MindSpore."""
    n, c = x.shape[:2]
    p = padding if len(padding) == 4 else (padding[0], padding[0], padding[1], padding[1])
    out = lax.conv_general_dilated_patches(
        x, kernel, stride, ((p[0], p[1]), (p[2], p[3])), rhs_dilation=dilation,
        dimension_numbers=("NCHW", "OIHW", "NCHW"), precision=lax.Precision.HIGHEST)
    return out.reshape(n, c * kernel[0] * kernel[1], -1)


def _fold_args(name, kernel_size, dilation, padding, stride):
    return (tuple_n(kernel_size, 2, name, "kernel_size"), tuple_n(dilation, 2, name, "dilation"),
            tuple_n(padding, 2, name, "padding") if isinstance(padding, int) or len(padding) != 4
            else tuple(padding), tuple_n(stride, 2, name, "stride"))


@op(static=("kernel_size", "dilation", "padding", "stride"), prim="Im2Col")
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding (kh, kw) blocks of (N, C, H, W) as columns: (N, C * kh * kw, L)."""
    k, d, p, s = _fold_args("unfold", kernel_size, dilation, padding, stride)
    return _patches(input, k, d, p, s)


@op(static=("output_size", "kernel_size", "dilation", "padding", "stride"), prim="Col2Im")
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum columns (N, C * kh * kw, L) back into (N, C, H, W) (the adjoint of ``unfold``)."""
    k, d, p, s = _fold_args("fold", kernel_size, dilation, padding, stride)
    out_hw = tuple_n(output_size, 2, "fold", "output_size")
    n, ck = input.shape[:2]
    spec = jax.ShapeDtypeStruct((n, ck // (k[0] * k[1])) + out_hw, input.dtype)
    return jax.linear_transpose(lambda z: _patches(z, k, d, p, s), spec)(input)[0]


# --------------------------------------------------------------- similarity
@op(dtype="float", static=("dim", "eps"), prim="CosineSimilarity")
def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """``sum(x1 * x2) / max(||x1|| * ||x2||, eps)`` along ``dim``."""
    num = jnp.sum(x1 * x2, axis=dim)
    den = jnp.sqrt(jnp.sum(x1 * x1, axis=dim)) * jnp.sqrt(jnp.sum(x2 * x2, axis=dim))
    return num / jnp.maximum(den, eps)


@op(dtype="float", static=("p",), prim="Pdist")
def pdist(input, p=2.0):
    """p-norm distances between the rows of (*, N, M): the upper triangle, row by row."""
    n = input.shape[-2]
    i, j = jnp.triu_indices(n, 1)
    diff = jnp.abs(jnp.take(input, i, axis=-2) - jnp.take(input, j, axis=-2))
    if p == 0:
        return (diff != 0).sum(-1).astype(input.dtype)
    if p == float("inf"):
        return diff.max(-1)
    return jnp.sum(diff ** p, axis=-1) ** (1.0 / p)


# ------------------------------------------------------------ bias_add / dense
@op(dtype="promote", static=("data_format",), prim="BiasAdd",
    primitive=PrimDef(init=(("data_format", "NCHW"),),
                      call=lambda prim, x, b: _bias_row(x, b, prim.attrs["data_format"])))
def bias_add(input_x, bias, data_format="NCHW"):
    """Add the 1-D ``bias`` along the channel axis (1, or the last for NHWC)."""
    if data_format == "NHWC" or input_x.ndim == 1:
        return input_x + bias
    return input_x + bias.reshape((1, -1) + (1,) * (input_x.ndim - 2))


_bias_row = bias_add


def bias_add(input_x, bias):  # noqa: F811 - MindSpore's functional signature
    """Add the 1-D ``bias`` along axis 1 of ``input_x``."""
    return _bias_row(input_x, bias)


set_public(_bias_row, bias_add)


@op(dtype="promote", prim="Dense", primitive=True)
def dense(input, weight, bias=None):
    """``input @ weight.T + bias`` (a 1-D ``weight`` gives a dot product)."""
    out = jnp.matmul(input, weight.T if weight.ndim == 2 else weight,
                     precision=lax.Precision.HIGHEST)
    return out if bias is None else out + bias


@op(dtype="promote", prim="BiDense")
def bidense(input1, input2, weight, bias=None):
    """Bilinear map ``out[..., o] = input1 @ weight[o] @ input2 (+ bias[o])``."""
    out = jnp.einsum("...i,oij,...j->...o", input1, weight, input2,
                     precision=lax.Precision.HIGHEST)
    return out if bias is None else out + bias


@tensor_method("fold")
def _tensor_fold(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
    return fold(self, output_size, kernel_size, dilation, padding, stride)


@tensor_method("unfold")
def _tensor_unfold(self, kernel_size, dilation=1, padding=0, stride=1):
    return unfold(self, kernel_size, dilation, padding, stride)



__all__ = exports(__name__)
