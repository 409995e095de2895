"""Windowed reductions: reduce_window and select_and_scatter -> GE pooling and scans.

Patterns, tried in order::

    reduce_window add/mul, window = the whole dim, padding (n-1, 0)  -> Cumsum / Cumprod
                               (padding (0, n-1): reverse=true)
    reduce_window max on the two spatial dims of a 4-D tensor         -> MaxPoolV3 (NCHW)
    reduce_window add on the two spatial dims of a 4-D tensor         -> AvgPoolV2 * kh*kw
    select_and_scatter (GE select, add scatter) on a 4-D tensor       -> MaxPoolV3Grad

Any other reduce_window is decomposed: pad with the init value (Dilation
first for base dilation), take one strided Slice per window position and
combine them element-wise (Maximum, Add, ..., or the reduction body itself,
converted once per position, for bodies such as logaddexp).
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.ge.convert_reduce import _BOOL_COMBINE, _KINDS, _is_identity
from msxla.ge.convert_shape import pad, strided_slice
from msxla.ge.registry import ge_converter

MAX_WINDOW_POSITIONS = 4096


def _window(op, rank):
    return dict(
        window=parse.ints(op, "window_dimensions"),
        strides=parse.ints(op, "window_strides", [1] * rank),
        base=parse.ints(op, "base_dilations", [1] * rank),
        wdil=parse.ints(op, "window_dilations", [1] * rank),
        padding=parse.padding(op, "padding", rank),
    )


def _cumulative(ctx, x, kind, w):
    """Cumsum / Cumprod when the window spans one whole dim with causal padding."""
    scan = {"stablehlo.add": "Cumsum", "stablehlo.multiply": "Cumprod"}.get(kind)
    if scan is None or x.dtype == np.bool_ or any(d != 1 for d in w["base"] + w["wdil"]) or \
            any(s != 1 for s in w["strides"]):
        return None
    dims = [i for i, k in enumerate(w["window"]) if k != 1]
    if len(dims) != 1:
        return None
    a = dims[0]
    n = x.shape[a]
    if w["window"][a] != n or any(p != (0, 0) for i, p in enumerate(w["padding"]) if i != a):
        return None
    if w["padding"][a] not in ((n - 1, 0), (0, n - 1)):
        return None
    reverse = w["padding"][a] == (0, n - 1)
    return ctx.b.add1(scan, [x, ctx.b.axis_const(a)], x.dtype, x.shape, exclusive=False,
                      reverse=reverse)


def _spatial_2d(x, w):
    """The NCHW transpose for a pooling window on two dims of a 4-D tensor, or None."""
    if x.rank != 4 or any(d != 1 for d in w["base"] + w["wdil"]):
        return None
    moving = [i for i in range(4) if w["window"][i] != 1 or w["strides"][i] != 1
              or w["padding"][i] != (0, 0)]
    if len(moving) > 2:
        return None
    spatial = moving
    for cand in ([2, 3], [1, 2]):
        if set(moving) <= set(cand):
            spatial = cand
            break
    if len(spatial) != 2:
        return None
    rest = [i for i in range(4) if i not in spatial]
    return rest + sorted(spatial)


def _pool(ctx, x, kind, init_value, w, out_shape):
    if kind not in ("stablehlo.maximum", "stablehlo.add") or x.dtype.kind != "f":
        return None
    perm = _spatial_2d(x, w)
    if perm is None or not _is_identity(init_value, _KINDS[kind][3](x.dtype), x.dtype):
        return None
    b = ctx.b
    xt = b.transpose(x, perm)
    k = [w["window"][i] for i in perm[2:]]
    s = [w["strides"][i] for i in perm[2:]]
    pads = [p for i in perm[2:] for p in w["padding"][i]]
    shape = [out_shape[i] for i in perm]
    attrs = dict(ksize=[1, 1] + k, strides=[1, 1] + s, padding_mode="CALCULATED", pads=pads,
                 data_format="NCHW", global_pooling=False, ceil_mode=False)
    if kind == "stablehlo.maximum":
        y = b.add("MaxPoolV3", [xt], [(x.dtype, shape)], attrs, layout="NCHW")[0]
    else:
        y = b.add("AvgPoolV2", [xt], [(x.dtype, shape)], dict(attrs, exclusive=False),
                  layout="NCHW")[0]
        y = b.binary("Mul", y, b.const(np.asarray(k[0] * k[1], x.dtype)))
    inverse = [perm.index(i) for i in range(4)]
    return b.transpose(y, inverse)


def _generic(ctx, op, x, init, kind, w, out_shape):
    b = ctx.b
    positions = int(np.prod(w["window"]))
    if positions > MAX_WINDOW_POSITIONS:
        raise ctx.unsupported(op, f"with a window of {positions} positions")
    low = [lo for lo, _ in w["padding"]]
    high = [hi for _, hi in w["padding"]]
    xp = pad(ctx, op, x, b.reshape(init, ()), low, high, [d - 1 for d in w["base"]])
    combine = _KINDS[kind][2] if kind else None
    if x.dtype == np.bool_ and combine:
        combine = _BOOL_COMBINE.get(combine, combine)
    body = op.regions[0].blocks[0]
    acc = None
    for offset in np.ndindex(*w["window"]):
        start = [o * d for o, d in zip(offset, w["wdil"])]
        limit = [st + (n - 1) * s + 1 for st, n, s in zip(start, out_shape, w["strides"])]
        part = strided_slice(b, xp, start, limit, w["strides"])
        if acc is None:
            acc = part
        elif combine:
            acc = b.binary(combine, acc, part)
        else:
            acc = ctx.run_block(body, [acc, part])[0]
    return acc


@ge_converter("stablehlo.reduce_window")
def _reduce_window(ctx, op):
    ins = ctx.inputs(op)
    if len(ins) != 2:
        raise ctx.unsupported(op, f"with {len(ins) // 2} operands")
    x, init = ins
    kind = parse.single_body_op(op.regions[0])
    w = _window(op, x.rank)
    if kind not in _KINDS:  # e.g. logaddexp (logcumsumexp): the body, inlined per position
        return [_generic(ctx, op, x, init, None, w, parse.value_type(op.results[0])[0])]
    out_shape, _ = parse.value_type(op.results[0])
    init_value = ctx.const_value(init)
    if _is_identity(init_value, _KINDS[kind][3](x.dtype), x.dtype):
        found = _cumulative(ctx, x, kind, w)
        if found is not None:
            return [found]
    found = _pool(ctx, x, kind, init_value, w, out_shape)
    if found is not None:
        return [found]
    return [_generic(ctx, op, x, init, kind, w, out_shape)]


@ge_converter("stablehlo.select_and_scatter")
def _select_and_scatter(ctx, op):
    """jax's max-pool gradient -> MaxPoolV3Grad(x, MaxPoolV3(x), grad)."""
    b = ctx.b
    x, source, init = ctx.inputs(op)
    select = parse.body_ops(op.regions[0])
    scatter = parse.single_body_op(op.regions[1])
    ok_select = len(select) == 2 and select[0].name == "stablehlo.compare" and \
        parse.comparison(select[0])[0] == "GE"
    w = _window(op, x.rank)
    w.setdefault("base", [1] * x.rank)
    perm = _spatial_2d(x, w)
    zero = ctx.const_value(init)
    if not (ok_select and scatter == "stablehlo.add" and perm is not None and
            zero is not None and not np.any(zero) and x.dtype.kind == "f"):
        raise ctx.unsupported(op, "other than a 2-D max-pool gradient")
    xt = b.transpose(x, perm)
    st = b.transpose(source, perm)
    k = [w["window"][i] for i in perm[2:]]
    s = [w["strides"][i] for i in perm[2:]]
    pads = [p for i in perm[2:] for p in w["padding"][i]]
    attrs = dict(ksize=[1, 1] + k, strides=[1, 1] + s, padding_mode="CALCULATED", pads=pads,
                 data_format="NCHW", global_pooling=False, ceil_mode=False)
    pooled = b.add("MaxPoolV3", [xt], [(x.dtype, st.shape)], attrs, layout="NCHW")[0]
    grad = b.add("MaxPoolV3Grad", [xt, pooled, st], [(x.dtype, xt.shape)], attrs,
                 layout="NCHW")[0]
    return [b.transpose(grad, [perm.index(i) for i in range(4)])]
