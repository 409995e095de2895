"""Op rows: sampling grids and unpooling: affine_grid, grid_sample (bilinear / nearest with
'zeros', 'border' or 'reflection' padding, 4-D and 5-D) and max_unpool1d/2d/3d.

Grid coordinates are normalised to [-1, 1] over the input; with ``align_corners``
-1 and 1 are the centres of the corner pixels, otherwise their outer edges.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from msxla.ops._nn_util import tuple_n
from msxla.ops.opdef import op
from msxla.ops.surface import exports


def _base(n, align_corners, dtype):
    if align_corners:
        return jnp.linspace(-1.0, 1.0, n, dtype=dtype) if n > 1 else jnp.zeros((1,), dtype)
    return ((jnp.arange(n, dtype=dtype) * 2 + 1) / n - 1).astype(dtype)


@op(dtype="float", static=("size", "align_corners"), prim="AffineGrid")
def affine_grid(theta, size, align_corners=False):
    """The sampling grid (N, H, W, 2) or (N, D, H, W, 3) of the affine maps ``theta``."""
    if len(size) not in (4, 5):
        raise ValueError(f"For 'affine_grid', 'size' must have 4 or 5 elements, but got {size}.")
    spatial = tuple(size[2:])
    axes = [_base(n, align_corners, theta.dtype) for n in reversed(spatial)]  # x, y(, z)
    mesh = jnp.meshgrid(*axes, indexing="xy") if len(spatial) == 2 else \
        [m.transpose(2, 1, 0) for m in jnp.meshgrid(*axes, indexing="ij")]
    base = jnp.stack(list(mesh) + [jnp.ones(spatial, theta.dtype)], axis=-1)
    return jnp.einsum("...k,njk->n...j", base, theta, precision="highest")


def _unnormalize(coord, n, align_corners):
    if align_corners:
        return (coord + 1) / 2 * (n - 1)
    return ((coord + 1) * n - 1) / 2


def _reflect(coord, lo, hi):
    span = hi - lo
    if span <= 0:
        return jnp.zeros_like(coord)
    c = jnp.abs(coord - lo)
    flips = jnp.floor(c / span)
    extra = c - flips * span
    return jnp.where(flips % 2 == 0, lo + extra, hi - extra)


def _source(coord, n, padding_mode, align_corners):
    c = _unnormalize(coord, n, align_corners)
    if padding_mode == "border":
        c = jnp.clip(c, 0, n - 1)
    elif padding_mode == "reflection":
        c = _reflect(c, 0.0, n - 1.0) if align_corners else _reflect(c, -0.5, n - 0.5)
        c = jnp.clip(c, 0, n - 1)
    return c


def _gather(img, idx):
    """img (C, *spatial); idx list of int arrays (*out) -> (C, *out)."""
    return img[(slice(None),) + tuple(idx)]


@op(dtype="float", dtype_args=("input", "grid"), static=("mode", "padding_mode", "align_corners"),
    prim="GridSampler2D")
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample (N, C, *spatial) at the normalised points ``grid`` (N, *out, ndim)."""
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"For 'grid_sample', 'mode' must be 'bilinear' or 'nearest', but got "
                         f"{mode}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For 'grid_sample', 'padding_mode' must be 'zeros', 'border' or "
                         f"'reflection', but got {padding_mode}.")
    spatial = input.shape[2:]
    nd = len(spatial)
    # grid's last axis is (x, y[, z]): reversed spatial order.
    src = [_source(grid[..., nd - 1 - i], spatial[i], padding_mode, bool(align_corners))
           for i in range(nd)]

    def sample(img, coords):
        if mode == "nearest":
            idx = [jnp.round(c).astype(jnp.int32) for c in coords]
            inside = jnp.all(jnp.stack([(i >= 0) & (i < n) for i, n in zip(idx, spatial)]), 0)
            idx = [jnp.clip(i, 0, n - 1) for i, n in zip(idx, spatial)]
            return jnp.where(inside, _gather(img, idx), 0)
        lows = [jnp.floor(c) for c in coords]
        out = 0
        for corner in range(2 ** nd):
            idx, w, inside = [], 1, True
            for d in range(nd):
                hi = (corner >> d) & 1
                i = lows[d] + hi
                w = w * (coords[d] - lows[d] if hi else 1 - (coords[d] - lows[d]))
                inside = inside & (i >= 0) & (i <= spatial[d] - 1)
                idx.append(jnp.clip(i, 0, spatial[d] - 1).astype(jnp.int32))
            out = out + jnp.where(inside, _gather(img, idx) * w, 0)
        return out

    return jax.vmap(sample)(input, src).astype(input.dtype)


def _max_unpool(name, nd, x, indices, kernel_size, stride, padding, output_size):
    k = tuple_n(kernel_size, nd, name, "kernel_size")
    s = k if stride is None else tuple_n(stride, nd, name, "stride")
    p = tuple_n(padding, nd, name, "padding")
    spatial_in = x.shape[-nd:]
    default = tuple((n - 1) * s[i] - 2 * p[i] + k[i] for i, n in enumerate(spatial_in))
    out_sp = default if output_size is None else tuple(output_size)[-nd:]
    for o, d, st in zip(out_sp, default, s):
        if not d - st < o < d + st:
            raise ValueError(f"For '{name}', 'output_size' must be between {tuple(default)} "
                             f"minus and plus the stride {s} (exclusive), but got {out_sp}.")
    lead = x.shape[:-nd]
    flat = jnp.zeros(lead + (math.prod(out_sp),), x.dtype)
    vals = x.reshape(lead + (-1,))
    idx = indices.reshape(lead + (-1,)).astype(jnp.int32)
    scatter = jax.vmap(lambda f, i, v: f.at[i].set(v))
    for _ in lead[:-1]:
        scatter = jax.vmap(scatter)
    out = scatter(flat, idx, vals) if lead else flat.at[idx].set(vals)
    return out.reshape(lead + out_sp)


def _unpool_row(nd):
    name = f"max_unpool{nd}d"

    def impl(x, indices, kernel_size, stride=None, padding=0, output_size=None):
        return _max_unpool(name, nd, x, indices, kernel_size, stride, padding, output_size)

    impl.__name__ = name
    impl.__doc__ = (f"Inverse of {nd}-D max pooling: place each value at its flat index in "
                    f"a zero tensor of the unpooled size.")
    return op(name, dtype=None, static=("kernel_size", "stride", "padding", "output_size"),
              prim=f"MaxUnpool{nd}D")(impl)


max_unpool1d = _unpool_row(1)
max_unpool2d = _unpool_row(2)
max_unpool3d = _unpool_row(3)


__all__ = exports(__name__)
