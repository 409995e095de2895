"""Op rows: windowed pooling (max_pool2d/3d, avg_pool1d/2d/3d, lp_pool1d/2d) and the
MaxPool / AvgPool / MaxPool3D / AvgPool3D / MaxPoolWithArgmax(V2) primitives.

Values come from one ``jax.lax.reduce_window`` (differentiable, with padding,
dilation and ceil mode as extra high-side padding). Max-pool indices are
computed separately, one spatial dim at a time: a window maximum over a box is
the maximum over rows of the per-row maxima, so the flat index is built from
the last dim outward and ties resolve to the first element in row-major order.

Output size follows MindSpore (PyTorch rules): ``floor`` or ``ceil`` of
``(in + 2 * pad - dilation * (k - 1) - 1) / stride + 1``, where in ceil mode a
last window starting in the right padding is dropped. ``padding`` may also be a
(low, high) pair per dim, which is how the TF-style 'same' primitives run.
"""
from __future__ import annotations

import functools
import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from msxla.common import dtype as mstype
from msxla.ops._nn_util import float_rule, tuple_n
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _pads(name, padding, nd):
    if isinstance(padding, int):
        return ((padding, padding),) * nd
    padding = tuple(int(p) for p in padding)
    if len(padding) == 1:
        return ((padding[0], padding[0]),) * nd
    if len(padding) == nd:
        return tuple((p, p) for p in padding)
    if len(padding) == 2 * nd:
        return tuple((padding[2 * i], padding[2 * i + 1]) for i in range(nd))
    raise ValueError(f"For '{name}', 'padding' must be an int or a tuple of {nd} ints, "
                     f"but got {padding}.")


def window_geometry(name, in_sizes, kernel, stride, padding, dilation, ceil_mode):
    """Output sizes and the (low, high) padding that realises them, per spatial dim."""
    nd = len(in_sizes)
    kernel = tuple_n(kernel, nd, name, "kernel_size")
    stride = kernel if stride is None or stride == () else tuple_n(stride, nd, name, "stride")
    dilation = tuple_n(dilation, nd, name, "dilation")
    pads = _pads(name, padding, nd)
    outs, full = [], []
    for n, k, s, d, (lo, hi) in zip(in_sizes, kernel, stride, dilation, pads):
        span = n + lo + hi - d * (k - 1) - 1
        if span < 0:
            raise ValueError(f"For '{name}', the kernel size {kernel} is larger than the padded "
                             f"input {tuple(in_sizes)}.")
        out = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (out - 1) * s >= n + lo:
            out -= 1
        outs.append(out)
        full.append((lo, max((out - 1) * s + d * (k - 1) + 1 - n - lo, 0)))
    return tuple(outs), kernel, stride, dilation, tuple(full), pads


def _lowest(dtype):
    if jnp.issubdtype(dtype, jnp.floating):
        return -jnp.inf
    return jnp.iinfo(dtype).min


def _max_values(x, kernel, stride, dilation, full):
    lead = (1,) * (x.ndim - len(kernel))
    return lax.reduce_window(x, np.array(_lowest(x.dtype), x.dtype), lax.max,
                             lead + kernel, lead + stride,
                             ((0, 0),) * len(lead) + full, window_dilation=lead + dilation)


def max_indices(x, outs, kernel, stride, dilation, full, index_dtype=jnp.int64):
    """Flat (row-major, per channel) index of each window's first maximum."""
    nd = len(kernel)
    sp0 = x.ndim - nd
    vals, idx = x, None
    inner = 1
    for i in reversed(range(nd)):
        ax = sp0 + i
        lo, hi = full[i]
        cfg = [(0, 0)] * x.ndim
        cfg[ax] = (lo, hi)
        pv = jnp.pad(vals, cfg, constant_values=_lowest(x.dtype))
        pi = None if idx is None else jnp.pad(idx, cfg)
        take = [lax.slice_in_dim(pv, j * dilation[i], j * dilation[i] + (outs[i] - 1) * stride[i]
                                 + 1, stride[i], axis=ax) for j in range(kernel[i])]
        stack = jnp.stack(take)
        a = jnp.argmax(stack, axis=0)
        vals = jnp.max(stack, axis=0)
        shape = [1] * x.ndim
        shape[ax] = outs[i]
        pos = (jnp.arange(outs[i]) * stride[i] - lo).reshape(shape) + a * dilation[i]
        if pi is None:
            idx = pos
        else:
            istack = jnp.stack([lax.slice_in_dim(pi, j * dilation[i], j * dilation[i]
                                                 + (outs[i] - 1) * stride[i] + 1, stride[i],
                                                 axis=ax) for j in range(kernel[i])])
            idx = pos * inner + jnp.take_along_axis(istack, a[None], axis=0)[0]
        inner *= x.shape[ax]
    return idx.astype(index_dtype)


def _max_pool(name, nd, x, kernel_size, stride, padding, dilation, return_indices, ceil_mode):
    if x.ndim != nd + 2:
        raise ValueError(f"For '{name}', the input x rank must be equal to {nd + 2}, but got "
                         f"{x.ndim}.")
    outs, k, s, d, full, _ = window_geometry(name, x.shape[2:], kernel_size, stride, padding,
                                             dilation, ceil_mode)
    if any(v != 1 for v in d):
        # reduce_window has no gradient with window dilation: gather at the argmax instead.
        idx = max_indices(x, outs, k, s, d, full)
        flat = x.reshape(x.shape[:2] + (-1,))
        out = jnp.take_along_axis(flat, idx.reshape(idx.shape[:2] + (-1,)), axis=2)
        out = out.reshape(idx.shape)
        return (out, idx) if return_indices else out
    out = _max_values(x, k, s, d, full)
    if return_indices:
        return out, max_indices(x, outs, k, s, d, full)
    return out


def _max_pool_call(nd, with_argmax=False, argmax_dtype=mstype.int32):
    def call(prim, x):
        k, s, pads = _prim_geometry(prim, x, nd)
        ceil = bool(prim.attrs.get("ceil_mode") or False)
        fn = max_pool2d if nd == 2 else max_pool3d
        out = fn(x, k, s, pads, 1, ceil_mode=ceil, return_indices=with_argmax)
        if with_argmax:
            return out[0], out[1].astype(argmax_dtype)
        return out
    return call


def _argmax_v2_call(prim, x):
    a = prim.attrs
    out, idx = max_pool2d(x, a["kernel_size"], a["strides"], a["pads"], a["dilation"],
                          return_indices=True, ceil_mode=a["ceil_mode"])
    return out, idx.astype(a["argmax_type"])


_POOL_INIT = (("kernel_size", 1), ("strides", 1), ("pad_mode", "valid"))
_POOL2D_INIT = _POOL_INIT + (("data_format", "NCHW"),)


@op(static=("kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"),
    prim="MaxPool2D",
    primitive=(PrimDef("MaxPool", init=_POOL2D_INIT, call=_max_pool_call(2)),
               PrimDef("MaxPoolWithArgmax", init=_POOL2D_INIT, call=_max_pool_call(2, True)),
               PrimDef("MaxPoolWithArgmaxV2", init=(("kernel_size", None), ("strides", None),
                                                    ("pads", 0), ("dilation", (1, 1)),
                                                    ("ceil_mode", False),
                                                    ("argmax_type", mstype.int64)),
                       call=_argmax_v2_call)))
def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """2-D max pooling of (N, C, H, W); with ``return_indices`` also the flat H*W argmax."""
    return _max_pool("max_pool2d", 2, x, kernel_size, stride, padding, dilation,
                     return_indices, ceil_mode)


@op(static=("kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    prim="MaxPool3D",
    primitive=PrimDef(init=_POOL_INIT + (("pad_list", 0), ("ceil_mode", None),
                                         ("data_format", "NCDHW")), call=_max_pool_call(3)))
def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """3-D max pooling of (N, C, D, H, W); with ``return_indices`` also the flat argmax."""
    return _max_pool("max_pool3d", 3, x, kernel_size, stride, padding, dilation,
                     return_indices, ceil_mode)


def _avg_pool(name, nd, x, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override):
    if x.ndim != nd + 2:
        raise ValueError(f"For '{name}', the dimension of the input must be {nd + 2}, "
                         f"but got {x.ndim}.")
    outs, k, s, d, full, pads = window_geometry(name, x.shape[2:], kernel_size, stride, padding,
                                                1, ceil_mode)
    lead = (1, 1)
    total = lax.reduce_window(x, np.array(0, x.dtype), lax.add, lead + k, lead + s,
                              ((0, 0), (0, 0)) + full)
    if divisor_override:
        return total / jnp.asarray(divisor_override, x.dtype)
    # Divisor per output position (shape-only, so computed with numpy).
    per_dim = []
    for i in range(nd):
        n, (lo, hi), (plo, phi) = x.shape[2 + i], full[i], pads[i]
        valid = np.zeros(n + lo + hi)
        if count_include_pad:
            valid[lo - plo:lo + n + phi] = 1
        else:
            valid[lo:lo + n] = 1
        per_dim.append(np.array([valid[o * s[i]:o * s[i] + k[i]].sum() for o in range(outs[i])]))
    counts = functools.reduce(np.multiply.outer, per_dim)
    return total / jnp.asarray(counts, x.dtype)


def _avg_pool_call(nd):
    def call(prim, x):
        a = prim.attrs
        k, s, pads = _prim_geometry(prim, x, nd)
        same = str(a.get("pad_mode", "valid")).lower() == "same"
        include = bool(a.get("count_include_pad", True)) and not same
        if nd == 2:
            return avg_pool2d(x, k, s, pads, False, include)
        return avg_pool3d(x, k, s, pads, bool(a.get("ceil_mode") or False), include,
                          a.get("divisor_override", 0))
    return call


_AVG_PRIMS = {
    2: PrimDef("AvgPool", init=_POOL2D_INIT, call=_avg_pool_call(2)),
    3: PrimDef("AvgPool3D", init=_POOL_INIT + (("pad", 0), ("ceil_mode", False),
                                               ("count_include_pad", True),
                                               ("divisor_override", 0), ("data_format", "NCDHW")),
               call=_avg_pool_call(3)),
}


def _avg_row(nd, with_override):
    name = f"avg_pool{nd}d"

    def impl(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
             count_include_pad=True, divisor_override=0):
        return _avg_pool(name, nd, input_x, kernel_size, stride, padding, ceil_mode,
                         count_include_pad, divisor_override)

    if not with_override:
        def impl(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,  # noqa: F811
                 count_include_pad=True):
            return _avg_pool(name, nd, input_x, kernel_size, stride, padding, ceil_mode,
                             count_include_pad, 0)

    impl.__name__ = name
    impl.__doc__ = (f"{nd}-D average pooling; ``count_include_pad`` counts the zero padding "
                    f"in the divisor" + ("; ``divisor_override`` replaces it." if with_override
                                         else "."))
    static = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"]
    if with_override:
        static.append("divisor_override")
    return op(name, dtype=float_rule(f"AvgPool{nd}D" if nd != 2 else "AvgPool", _FLOATS),
              static=tuple(static), prim=f"AvgPool{nd}D" if nd != 2 else "AvgPool",
              primitive=_AVG_PRIMS.get(nd))(impl)


avg_pool1d = _avg_row(1, False)
avg_pool2d = _avg_row(2, True)
avg_pool3d = _avg_row(3, True)


def _lp_pool(name, nd, x, norm_type, kernel_size, stride, ceil_mode):
    """MindSpore's ``(avg_pool(x ** p) * prod(kernel)) ** (1 / p)``: a ceil-mode window that
    runs past the input is averaged over its in-bounds part, then scaled by the full size."""
    outs, k, s, d, full, _ = window_geometry(name, x.shape[-nd:], kernel_size, stride, 0, 1,
                                             ceil_mode)
    lead = (1,) * (x.ndim - nd)
    total = lax.reduce_window(x ** norm_type, np.array(0, x.dtype), lax.add, lead + k,
                              lead + s, ((0, 0),) * len(lead) + full)
    per_dim = [np.array([min(o * s[i] + k[i], x.shape[x.ndim - nd + i]) - o * s[i]
                         for o in range(outs[i])], np.float64) for i in range(nd)]
    scale = math.prod(k) / functools.reduce(np.multiply.outer, per_dim)
    total = total * jnp.asarray(scale, x.dtype)
    return (jnp.sign(total) * jnp.maximum(jnp.abs(total), 0)) ** (1.0 / norm_type)


@op(dtype=float_rule("LPPool1D", _FLOATS), static=("norm_type", "kernel_size", "stride",
                                                   "ceil_mode"), prim="LPPool1D")
def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over the window of x ** p) ** (1 / p)`` along the last dim."""
    return _lp_pool("lp_pool1d", 1, x, norm_type, kernel_size, stride, ceil_mode)


@op(dtype=float_rule("LPPool2D", _FLOATS), static=("norm_type", "kernel_size", "stride",
                                                   "ceil_mode"), prim="LPPool2D")
def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over the window of x ** p) ** (1 / p)`` over the last two dims."""
    return _lp_pool("lp_pool2d", 2, x, norm_type, kernel_size, stride, ceil_mode)


# ---------------------------------------------------------------- primitives
def _prim_geometry(prim, x, nd):
    """kernel, stride and TF-style pads of a MaxPool/AvgPool primitive."""
    a = prim.attrs
    k, s = a["kernel_size"], a["strides"]
    k = tuple(k)[-nd:] if not isinstance(k, int) and len(k) == nd + 2 else k
    s = tuple(s)[-nd:] if not isinstance(s, int) and len(s) == nd + 2 else s
    k, s = tuple_n(k, nd, prim.name, "kernel_size"), tuple_n(s, nd, prim.name, "strides")
    mode = str(a.get("pad_mode", "valid")).lower()
    if mode not in ("valid", "same", "pad"):
        raise ValueError(f"For '{prim.name}', the 'pad_mode' must be in ['VALID', 'SAME'], "
                         f"but got {a['pad_mode']}.")
    if mode == "same":
        pads = []
        for n, kk, ss in zip(x.shape[-nd:], k, s):
            tot = max((math.ceil(n / ss) - 1) * ss + kk - n, 0)
            pads += [tot // 2, tot - tot // 2]
        return k, s, tuple(pads)
    if mode == "pad":
        return k, s, a.get("pad", a.get("pad_list", 0))
    return k, s, 0


__all__ = exports(__name__)
