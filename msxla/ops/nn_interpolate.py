"""Op rows: ``interpolate`` / ``upsample`` (nearest, nearest-exact, linear, bilinear,
bicubic, trilinear, area) and the ResizeNearestNeighbor, ResizeBilinearV2 and
ResizeBicubic primitives.

Resizing is separable: each spatial axis is resampled on its own, last axis
first, from a sampling plan computed once from the (static) sizes. The plans
follow the kernels MindSpore runs:

- nearest: ``src = min(floor(dst * scale), in - 1)``; nearest-exact adds the
  half-pixel offset; the primitives' ``align_corners`` rounds ``dst * scale``;
- linear: ``src = (dst + 0.5) * scale - 0.5`` (half pixel, clamped at 0), or
  ``dst * (in - 1) / (out - 1)`` with ``align_corners``, or ``dst * scale``
  (the ResizeBilinearV2 legacy mode), computed as ``a + (b - a) * t``;
- bicubic: Keys' cubic through a 1024-entry coefficient table, a = -0.5 with
  half-pixel centres (taps outside the image get weight 0 and the rest are
  renormalised) and a = -0.75 with ``align_corners`` (taps clamped to the edge).

``scale`` is ``in / out``, except for 5-D nearest/trilinear resizes given a
``scale_factor``, which use ``1 / scale_factor``.
"""
from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from msxla.ops.nn_adaptive_pool import adaptive_avg_pool1d, adaptive_avg_pool2d, \
    adaptive_avg_pool3d
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


_SUPPORTED = {  # mode -> rank -> options that may be set
    "nearest": {3: (), 4: (), 5: ("scale_factor",)},
    "linear": {3: ("align_corners",)},
    "bilinear": {4: ("align_corners",)},
    "bicubic": {4: ("align_corners",)},
    "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
    "nearest-exact": {3: (), 4: ()},
    "trilinear": {5: ("align_corners", "scale_factor")},
}
_TABLE = 1024


def _f32(v):
    return np.float32(v)


def _scale(n_in, n_out, align_corners, inv_factor=None):
    if inv_factor is not None:
        return _f32(inv_factor)
    if align_corners and n_out > 1:
        return _f32(n_in - 1) / _f32(n_out - 1)
    return _f32(n_in) / _f32(n_out)


def _nearest_plan(n_in, n_out, align_corners, half_pixel, inv_factor=None):
    s = _scale(n_in, n_out, align_corners, inv_factor)
    dst = np.arange(n_out, dtype=np.float32)
    if half_pixel:
        src = np.floor((dst + _f32(0.5)) * s)
    elif align_corners:
        src = np.floor(dst * s + _f32(0.5))  # roundf: half away from zero (src >= 0)
    else:
        src = np.floor(dst * s)
    return np.minimum(src, n_in - 1).astype(np.int32)


def _linear_plan(n_in, n_out, align_corners, half_pixel, inv_factor=None):
    s = _scale(n_in, n_out, align_corners, inv_factor)
    dst = np.arange(n_out, dtype=np.float32)
    src = (dst + _f32(0.5)) * s - _f32(0.5) if half_pixel else dst * s
    low = np.floor(src)
    lerp = (src - low).astype(np.float32)
    i0 = np.clip(low, 0, n_in - 1).astype(np.int32)
    i1 = np.clip(np.ceil(src), 0, n_in - 1).astype(np.int32)
    if half_pixel:
        lerp = np.where(src < 0, _f32(0), lerp)
    return i0, i1, lerp


def _cubic_coeff(x, a):
    x = np.abs(x)
    return np.where(x <= 1, ((a + 2) * x - (a + 3)) * x * x + 1,
                    np.where(x < 2, ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, 0.0))


def _cubic_plan(n_in, n_out, align_corners, half_pixel):
    s = _scale(n_in, n_out, align_corners)
    a = -0.5 if half_pixel else -0.75
    dst = np.arange(n_out, dtype=np.float32)
    src = (dst + _f32(0.5)) * s - _f32(0.5) if half_pixel else dst * s
    base = np.floor(src).astype(np.int64)
    delta = np.rint((src - base) * _TABLE) / _TABLE  # the coefficient table's resolution
    taps = base[:, None] + np.arange(-1, 3)[None, :]
    w = _cubic_coeff(delta[:, None] - np.arange(-1, 3)[None, :], a).astype(np.float32)
    idx = np.clip(taps, 0, n_in - 1)
    if half_pixel:
        w = np.where(idx == taps, w, 0)
        total = w.sum(1, keepdims=True)
        w = np.where(np.abs(total) >= 1000 * np.finfo(np.float32).eps, w / total, w)
    return idx.astype(np.int32), w.astype(np.float32)


def _along(arr, axis, ndim):
    shape = [1] * ndim
    shape[axis] = -1
    return jnp.asarray(arr).reshape(shape)


def resize(x, sizes, method, align_corners=False, half_pixel=True, inv_factors=None):
    """Resample the last ``len(sizes)`` axes of ``x`` to ``sizes``."""
    nd = len(sizes)
    out_dtype = x.dtype
    if x.dtype in (jnp.float16, jnp.bfloat16):
        x = x.astype(jnp.float32)
    for i in reversed(range(nd)):
        ax = x.ndim - nd + i
        n_in, n_out = x.shape[ax], sizes[i]
        inv = None if inv_factors is None else inv_factors[i]
        if method == "nearest":
            x = jnp.take(x, jnp.asarray(_nearest_plan(n_in, n_out, align_corners, half_pixel,
                                                      inv)), axis=ax)
        elif method == "linear":
            i0, i1, t = _linear_plan(n_in, n_out, align_corners, half_pixel, inv)
            lo, hi = jnp.take(x, jnp.asarray(i0), axis=ax), jnp.take(x, jnp.asarray(i1), axis=ax)
            x = lo + (hi - lo) * _along(t, ax, x.ndim).astype(x.dtype)
        else:
            idx, w = _cubic_plan(n_in, n_out, align_corners, half_pixel)
            out = 0
            for k in range(4):
                out = out + jnp.take(x, jnp.asarray(idx[:, k]), axis=ax) * _along(
                    w[:, k], ax, x.ndim).astype(x.dtype)
            x = out
    return x.astype(out_dtype)


def _as_tuple(v, n):
    if v is None:
        return None
    if isinstance(v, (tuple, list)):
        return tuple(v)
    return (v,) * n


def _check(mode, rank, size, scale_factor, align_corners, recompute_scale_factor):
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set "
                         "simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    if mode not in _SUPPORTED:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(_SUPPORTED)}', but got "
                         f"{mode}")
    if rank not in _SUPPORTED[mode]:
        raise ValueError(f"For 'interpolate', {mode} only support "
                         f"{[r for r in _SUPPORTED[mode]]}D, but got {rank}D.")
    n = rank - 2
    size, scale_factor = _as_tuple(size, n), _as_tuple(scale_factor, n)
    for name, v in (("size", size), ("scale_factor", scale_factor)):
        if v is not None and len(v) != n:
            raise ValueError(f"For 'interpolate', the length of '{name}' must be {n} for a "
                             f"{rank}-D input, but got {len(v)}.")
    if mode == "area" and size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        if size is not None:
            raise ValueError("For 'interpolate', it is incorrect to set "
                             "'recompute_scale_factor' to True after specifying an explicit "
                             "'size'.")
    elif scale_factor is not None and "scale_factor" not in _SUPPORTED[mode][rank]:
        raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set "
                         f"with the mode = {mode} and dim = {rank}D.")
    if align_corners is not None and "align_corners" not in _SUPPORTED[mode][rank]:
        raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be set "
                         f"with the mode = {mode}, and dim = {rank}D")
    return size, scale_factor, bool(recompute_scale_factor)


def _interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
    """Resize the spatial dims of (N, C, ...) to ``size`` or by ``scale_factor``."""
    rank = input.ndim
    size, factors, recompute = _check(mode, rank, size, scale_factor, align_corners,
                                      recompute_scale_factor)
    spatial = input.shape[2:]
    inv = None
    if size is None:
        size = tuple(int(math.floor(n * f)) for n, f in zip(spatial, factors))
        if not recompute:
            inv = tuple(1.0 / f for f in factors)
    ac = bool(align_corners)
    if mode == "area":
        pool = {3: adaptive_avg_pool1d, 4: adaptive_avg_pool2d, 5: adaptive_avg_pool3d}[rank]
        return pool.__wrapped_row__.impl(input, size[0] if rank == 3 else size)
    if mode in ("nearest", "nearest-exact"):
        return resize(input, size, "nearest", False, mode == "nearest-exact", inv)
    if mode == "bicubic":
        return resize(input, size, "cubic", ac, not ac)
    return resize(input, size, "linear", ac, not ac, inv if mode == "trilinear" else None)


_STATIC = ("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor")


@op(static=_STATIC, prim="Interpolate")
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Resize the spatial dims of (N, C, ...) to ``size`` or by ``scale_factor``."""
    return _interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


@op(static=_STATIC, prim="Upsample")
def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
             recompute_scale_factor=None):
    """``interpolate`` under its older name."""
    return _interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


_RESIZE_INIT = (("align_corners", False), ("half_pixel_centers", False))


def _resize_prim(name, method):
    """``name(align_corners=False, half_pixel_centers=False)(x, size)``."""
    def call(prim, x, size):
        a = prim.attrs
        return resize_image(x, _size_arg(size), method, a["align_corners"], a["half_pixel_centers"])
    return PrimDef(name, init=_RESIZE_INIT, call=call)


def _resize_nearest_call(prim, x):
    a = prim.attrs
    return resize_image(x, _size_arg(a["size"]), "nearest", a["align_corners"],
                        a["half_pixel_centers"])


@op(static=("size", "method", "align_corners", "half_pixel_centers"), prim="ResizeBilinearV2",
    public=False, primitive=(PrimDef("ResizeNearestNeighbor", init=(("size", None),) + _RESIZE_INIT,
                                     call=_resize_nearest_call),
                             _resize_prim("ResizeBilinearV2", "linear"),
                             _resize_prim("ResizeBicubic", "cubic")))
def resize_image(x, size, method="linear", align_corners=False, half_pixel_centers=False):
    """Resize the last two dims of (N, C, H, W) (the Resize* primitives)."""
    if align_corners and half_pixel_centers:
        raise ValueError("For 'Resize', 'align_corners' and 'half_pixel_centers' cannot both "
                         "be True.")
    return resize(x, tuple(size), method, align_corners, half_pixel_centers)


def _size_arg(size):
    if hasattr(size, "asnumpy"):
        size = size.asnumpy().tolist()
    return (size,) * 2 if isinstance(size, int) else tuple(int(s) for s in size)


__all__ = exports(__name__)
