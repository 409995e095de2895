"""Op rows: normalisation (layer_norm, batch_norm, group_norm, rms_norm) and the
LayerNorm, BatchNorm, L2Normalize and LRN primitives.

Statistics of half-precision inputs are computed in float32 and the result is
cast back. ``batch_norm`` in training mode normalises with the biased batch
variance and moves the running statistics toward the batch ones
(``running = (1 - momentum) * running + momentum * batch``, unbiased variance);
when the running statistics are Parameters it writes them back in place, which
under jit or grad goes through the Parameter state frame like any other write.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.ops._nn_util import float_rule
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports, set_public


_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _compute_dtype(x):
    return jnp.float32 if x.dtype in (jnp.float16, jnp.bfloat16) else x.dtype


def _normalize(x, axes, eps):
    """(normalized x in the compute dtype, mean, rstd) over ``axes`` (keepdims)."""
    xc = x.astype(_compute_dtype(x))
    mean = jnp.mean(xc, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(xc - mean), axis=axes, keepdims=True)
    rstd = 1.0 / jnp.sqrt(var + eps)
    return (xc - mean) * rstd, mean, rstd


def _affine(y, weight, bias, shape=None):
    if weight is not None:
        y = y * (weight if shape is None else weight.reshape(shape))
    if bias is not None:
        y = y + (bias if shape is None else bias.reshape(shape))
    return y


def _layer_norm_prim(prim, input_x, gamma, beta):
    a = prim.attrs
    begin = a["begin_norm_axis"] % input_x.ndim
    return _layer_norm_row(input_x, tuple(input_x.shape[begin:]), gamma, beta, a["epsilon"])


@op(dtype=float_rule("LayerNorm", _FLOATS), dtype_args=("input",),
    static=("normalized_shape", "eps"), prim="LayerNorm",
    primitive=PrimDef(init=(("begin_norm_axis", 1), ("begin_params_axis", 1),
                                 ("epsilon", 1e-7)), call=_layer_norm_prim))
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the trailing ``normalized_shape`` dims, then ``* weight + bias``."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape):]) != shape:
        raise ValueError(f"For 'layer_norm', the trailing dims of 'input' {input.shape} must be "
                         f"'normalized_shape' {shape}.")
    axes = tuple(range(input.ndim - len(shape), input.ndim))
    y, mean, rstd = _normalize(input, axes, eps)
    return _affine(y, weight, bias).astype(input.dtype), mean, rstd


_layer_norm_row = layer_norm


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):  # noqa: F811
    """Normalise over the trailing ``normalized_shape`` dims, then ``* weight + bias``."""
    return _layer_norm_row(input, normalized_shape, weight, bias, eps)[0]


set_public(_layer_norm_row, layer_norm)


def _batch_norm_prim(prim, input_x, scale, bias, mean, variance):
    a = prim.attrs
    out, new_mean, new_var, bmean, bvar = _batch_norm_row(
        input_x, mean, variance, scale, bias, a["is_training"], a["momentum"], a["epsilon"])
    if a["is_training"]:
        _write_back(mean, new_mean)
        _write_back(variance, new_var)
    return out, bmean, bvar, bmean, bvar


@op(dtype=float_rule("BatchNorm", _FLOATS), dtype_args=("input_x",),
    static=("training", "momentum", "eps"), prim="BatchNorm",
    primitive=PrimDef(init=(("is_training", False), ("epsilon", 1e-5), ("momentum", 0.1),
                                 ("data_format", "NCHW")), call=_batch_norm_prim))
def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
               eps=1e-5):
    """Batch normalisation over every dim but 1 (channels); see the module docstring."""
    if input_x.ndim < 2:
        raise ValueError(f"For 'batch_norm', the dimension of 'input_x' must be at least 2, but "
                         f"got {input_x.ndim}.")
    shape = (1, -1) + (1,) * (input_x.ndim - 2)
    axes = (0,) + tuple(range(2, input_x.ndim))
    if training:
        y, mean, _ = _normalize(input_x, axes, eps)
        xc = input_x.astype(_compute_dtype(input_x))
        var = jnp.mean(jnp.square(xc - mean), axis=axes)
        mean = mean.reshape(-1)
        n = input_x.size // input_x.shape[1]
        unbiased = var * (n / max(n - 1, 1))
        new_mean = ((1 - momentum) * running_mean + momentum * mean).astype(running_mean.dtype)
        new_var = ((1 - momentum) * running_var + momentum * unbiased).astype(running_var.dtype)
        out = _affine(y, weight, bias, shape).astype(input_x.dtype)
        return out, new_mean, new_var, mean, var
    xc = input_x.astype(_compute_dtype(input_x))
    y = (xc - running_mean.reshape(shape)) / jnp.sqrt(running_var.reshape(shape) + eps)
    out = _affine(y, weight, bias, shape).astype(input_x.dtype)
    return out, running_mean, running_var, running_mean, running_var


_batch_norm_row = batch_norm


def _write_back(param, value):
    if isinstance(param, Parameter):
        param._data = value._data


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False,  # noqa: F811
               momentum=0.1, eps=1e-5):
    """Batch normalisation over every dim but 1 (channels); in training, the running
    statistics (when Parameters) are updated in place."""
    out, new_mean, new_var, _, _ = _batch_norm_row(input_x, running_mean, running_var, weight,
                                                   bias, training, momentum, eps)
    if training:
        _write_back(running_mean, new_mean)
        _write_back(running_var, new_var)
    return out


set_public(_batch_norm_row, batch_norm)


@op(dtype=float_rule("GroupNorm", _FLOATS), dtype_args=("input",),
    static=("num_groups", "eps"), prim="GroupNorm")
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise each of ``num_groups`` channel groups, then per-channel ``* weight + bias``."""
    n, c = input.shape[:2]
    if c % num_groups:
        raise ValueError(f"For 'group_norm', the number of channels {c} must be divisible by "
                         f"'num_groups' {num_groups}.")
    grouped = input.reshape((n, num_groups, -1))
    y = _normalize(grouped, (2,), eps)[0].reshape(input.shape)
    shape = (1, -1) + (1,) * (input.ndim - 2)
    return _affine(y, weight, bias, shape).astype(input.dtype)


def _rms_norm_prim(prim, x, gamma):
    return _rms_norm_row(x, gamma, prim.attrs["epsilon"])


@op(dtype=float_rule("RmsNorm", _FLOATS), dtype_args=("x",), static=("epsilon",),
    prim="RmsNorm", primitive=PrimDef(init=(("epsilon", 1e-6),), call=_rms_norm_prim))
def rms_norm(x, gamma, epsilon=1e-6):
    """``x / sqrt(mean(x ** 2) + epsilon) * gamma`` over ``gamma``'s dims; returns (y, rstd)."""
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    xc = x.astype(_compute_dtype(x))
    rstd = 1.0 / jnp.sqrt(jnp.mean(jnp.square(xc), axis=axes, keepdims=True) + epsilon)
    return (xc * rstd * gamma).astype(x.dtype), rstd.astype(jnp.float32)


_rms_norm_row = rms_norm


def _l2_normalize_call(prim, x):
    axis = prim.attrs["axis"]
    if isinstance(axis, (tuple, list)) and len(axis) != 1:
        raise TypeError(f"For 'L2Normalize', the length of 'axis' must be 1, but got "
                        f"{len(axis)}, later will support multiple axis!")
    return l2_normalize(x, axis, prim.attrs["epsilon"])


@op(dtype=float_rule("L2Normalize", _FLOATS), static=("axis", "epsilon"), prim="L2Normalize",
    public=False, primitive=PrimDef(init=(("axis", 0), ("epsilon", 1e-4)), call=_l2_normalize_call))
def l2_normalize(x, axis=0, epsilon=1e-4):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))`` (the L2Normalize primitive)."""
    axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    xc = x.astype(_compute_dtype(x))
    norm = jnp.sqrt(jnp.maximum(jnp.sum(jnp.square(xc), axis=axis, keepdims=True), epsilon))
    return (xc / norm).astype(x.dtype)


@op(dtype=float_rule("LRN", _FLOATS),
    static=("depth_radius", "bias", "alpha", "beta", "norm_region"), prim="LRN",
    primitive=PrimDef(init=(("depth_radius", 5), ("bias", 1.0), ("alpha", 1.0),
                                        ("beta", 0.5), ("norm_region", "ACROSS_CHANNELS"))))
def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalisation across channels of (N, C, H, W):
    ``x / (bias + alpha * sum of x ** 2 over 2 * depth_radius + 1 channels) ** beta``."""
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', 'norm_region' must be 'ACROSS_CHANNELS', but got "
                         f"{norm_region}.")
    sq = jnp.square(x.astype(_compute_dtype(x)))
    padded = jnp.pad(sq, ((0, 0), (depth_radius, depth_radius), (0, 0), (0, 0)))
    c = x.shape[1]
    total = sum(padded[:, i:i + c] for i in range(2 * depth_radius + 1))
    return (x / (bias + alpha * total) ** beta).astype(x.dtype)


__all__ = exports(__name__)
