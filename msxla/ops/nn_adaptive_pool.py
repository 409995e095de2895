"""Op rows: adaptive pooling (adaptive_avg_pool1d/2d/3d, adaptive_max_pool1d/2d/3d) and
the AdaptiveAvgPool2D/3D and AdaptiveMaxPool2D/3D primitives.

Output cell ``i`` of a dim of size ``n`` pooled to ``o`` covers
``[floor(i * n / o), ceil((i + 1) * n / o))``, so windows may overlap and
differ in length when ``o`` does not divide ``n``. Box windows are separable:
pooling one spatial dim at a time gives the same result, and for max pooling
the flat argmax is composed dim by dim (first maximum in row-major order).
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.ops._nn_util import float_rule
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _windows(n, o):
    starts = [(i * n) // o for i in range(o)]
    ends = [-(-((i + 1) * n) // o) for i in range(o)]
    return starts, ends


def _out_sizes(name, x, nd, output_size):
    if x.ndim not in (nd + 1, nd + 2):
        raise ValueError(f"For '{name}', the dimension of 'input' must be {nd + 1} or {nd + 2}, "
                         f"but got {x.ndim}.")
    sizes = x.shape[-nd:]
    if isinstance(output_size, int) or output_size is None:
        output_size = (output_size,) * nd
    output_size = tuple(output_size)
    if len(output_size) != nd:
        raise ValueError(f"For '{name}', 'output_size' must be an int or a tuple of {nd} ints, "
                         f"but got {output_size}.")
    out = tuple(n if o is None else int(o) for n, o in zip(sizes, output_size))
    if any(o <= 0 for o in out):
        raise ValueError(f"For '{name}', 'output_size' must be positive, but got {output_size}.")
    return out


def _avg(x, nd, outs):
    """Window sums one dim at a time, divided once by the window sizes."""
    counts = np.ones(())
    for i in range(nd):
        ax = x.ndim - nd + i
        n, o = x.shape[ax], outs[i]
        starts, ends = _windows(n, o)
        counts = np.multiply.outer(counts, [e - s for s, e in zip(starts, ends)])
        if n == o:
            continue
        mat = np.zeros((n, o))
        for j, (s, e) in enumerate(zip(starts, ends)):
            mat[s:e, j] = 1
        summed = jnp.matmul(jnp.moveaxis(x, ax, -1), jnp.asarray(mat, x.dtype),
                            precision="highest")
        x = jnp.moveaxis(summed, -1, ax)
    return x / jnp.asarray(counts, x.dtype)


def _max(x, nd, outs, with_index):
    """Adaptive max over the last ``nd`` dims, and the flat argmax when ``with_index``."""
    low = -jnp.inf if jnp.issubdtype(x.dtype, jnp.floating) else jnp.iinfo(x.dtype).min
    vals, idx, inner = x, None, 1
    for i in reversed(range(nd)):
        ax = x.ndim - nd + i
        n, o = x.shape[ax], outs[i]
        starts, ends = _windows(n, o)
        width = max(e - s for s, e in zip(starts, ends))
        gather = np.array([[min(s + j, n - 1) for j in range(width)] for s in starts])
        valid = np.array([[s + j < e for j in range(width)] for s, e in zip(starts, ends)])
        shape = [1] * (x.ndim + 1)
        shape[ax], shape[ax + 1] = o, width
        win = jnp.take(vals, jnp.asarray(gather), axis=ax)
        win = jnp.where(jnp.asarray(valid).reshape(shape), win, low)
        a = jnp.argmax(win, axis=ax + 1)
        vals = jnp.max(win, axis=ax + 1)
        if with_index:
            pos = jnp.asarray(starts).reshape(shape[:ax + 1] + shape[ax + 2:]) + a
            if idx is None:
                idx = pos
            else:
                iwin = jnp.take(idx, jnp.asarray(gather), axis=ax)
                idx = pos * inner + jnp.take_along_axis(iwin, jnp.expand_dims(a, ax + 1),
                                                        axis=ax + 1).squeeze(ax + 1)
        inner *= n
    return vals, idx


def _check_divisible(name, x, o):
    if x.shape[-1] % o:
        raise ValueError(f"For '{name}', input's last dimension must be divisible by output size "
                         f"{o}, but got {x.shape[-1]}.")


@op(dtype=float_rule("AdaptiveAvgPool1D", _FLOATS), static=("output_size",),
    prim="AdaptiveAvgPool1D")
def adaptive_avg_pool1d(input, output_size):
    """Average over ``output_size`` equal windows of the last dim (which it must divide)."""
    outs = _out_sizes("adaptive_avg_pool1d", input, 1, output_size)
    _check_divisible("adaptive_avg_pool1d", input, outs[0])
    return _avg(input, 1, outs)


@op(dtype=float_rule("AdaptiveAvgPool2D", _FLOATS), static=("output_size",),
    prim="AdaptiveAvgPool2D", aliases=("adaptive_avg_pool2d_ext",),
    primitive=PrimDef(init=(("output_size", None),)))
def adaptive_avg_pool2d(input, output_size):
    """Average pooling of the last two dims to ``output_size`` (None keeps a dim)."""
    return _avg(input, 2, _out_sizes("adaptive_avg_pool2d", input, 2, output_size))


@op(dtype=float_rule("AdaptiveAvgPool3D", _FLOATS), static=("output_size",),
    prim="AdaptiveAvgPool3D", primitive=PrimDef(init=(("output_size", None),)))
def adaptive_avg_pool3d(input, output_size):
    """Average pooling of the last three dims to ``output_size`` (None keeps a dim)."""
    return _avg(input, 3, _out_sizes("adaptive_avg_pool3d", input, 3, output_size))


@op(static=("output_size",), prim="AdaptiveMaxPool1D")
def adaptive_max_pool1d(input, output_size):
    """Max over ``output_size`` equal windows of the last dim (which it must divide)."""
    outs = _out_sizes("adaptive_max_pool1d", input, 1, output_size)
    _check_divisible("adaptive_max_pool1d", input, outs[0])
    return _max(input, 1, outs, False)[0]


@op(static=("output_size", "return_indices"), prim="AdaptiveMaxPool2D",
    primitive=PrimDef(init=(("output_size", None),),
                      call=lambda prim, x: adaptive_max_pool2d(x, prim.attrs["output_size"], True)))
def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling of the last two dims to ``output_size``; indices are flat H*W (int64)."""
    vals, idx = _max(input, 2, _out_sizes("adaptive_max_pool2d", input, 2, output_size),
                     return_indices)
    return (vals, idx.astype(jnp.int64)) if return_indices else vals


def _adaptive_max3d_call(prim, x, output_size):
    if hasattr(output_size, "asnumpy"):
        output_size = tuple(output_size.asnumpy().tolist())
    return adaptive_max_pool3d(x, output_size, True)


@op(static=("output_size", "return_indices"), prim="AdaptiveMaxPool3D",
    primitive=PrimDef(call=_adaptive_max3d_call))
def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max pooling of the last three dims to ``output_size``; indices are flat (int32)."""
    vals, idx = _max(input, 3, _out_sizes("adaptive_max_pool3d", input, 3, output_size),
                     return_indices)
    return (vals, idx.astype(jnp.int32)) if return_indices else vals



__all__ = exports(__name__)
