"""OpSpecs: convolutions, against naive numpy convolutions (sliding windows / scatter)."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import msxla as ms
from optable import OpSpec

F = (np.float32, np.float64)


def _tup(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def conv_ref(x, w, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """Naive N-d convolution (channels first), MindSpore's pad modes."""
    nd = x.ndim - 2
    s, d, k = _tup(stride, nd), _tup(dilation, nd), w.shape[2:]
    if pad_mode == "pad":
        p = _tup(padding, nd)
        pads = [(q, q) for q in p] if len(p) == nd else [(p[2 * i], p[2 * i + 1])
                                                        for i in range(nd)]
    elif pad_mode == "same":
        pads = []
        for n, kk, ss, dd in zip(x.shape[2:], k, s, d):
            tot = max((-(-n // ss) - 1) * ss + dd * (kk - 1) + 1 - n, 0)
            pads.append((tot // 2, tot - tot // 2))
    else:
        pads = [(0, 0)] * nd
    xp = np.pad(x, [(0, 0), (0, 0)] + pads)
    eff = [dd * (kk - 1) + 1 for kk, dd in zip(k, d)]
    win = sliding_window_view(xp, eff, axis=tuple(range(2, 2 + nd)))
    win = win[(slice(None), slice(None)) + tuple(slice(None, None, ss) for ss in s)
              + tuple(slice(None, None, dd) for dd in d)]
    cin_g, cout_g = w.shape[1], w.shape[0] // groups
    outs = []
    for g in range(groups):
        xg = win[:, g * cin_g:(g + 1) * cin_g]
        wg = w[g * cout_g:(g + 1) * cout_g]
        axes_x = [1] + list(range(2 + nd, 2 + 2 * nd))
        out = np.tensordot(xg, wg, axes=(axes_x, list(range(1, 2 + nd))))
        outs.append(np.moveaxis(out, -1, 1))
    out = np.concatenate(outs, axis=1)
    if bias is not None:
        out = out + bias.reshape((1, -1) + (1,) * nd)
    return out.astype(x.dtype)


def conv_transpose_ref(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                       dilation=1):
    """Naive transposed convolution by scattering each input pixel (any number of dims)."""
    nd = x.ndim - 2
    s, d, op = _tup(stride, nd), _tup(dilation, nd), _tup(output_padding, nd)
    p = _tup(padding, nd)
    pads = [(q, q) for q in p] if len(p) == nd else [(p[2 * i], p[2 * i + 1]) for i in range(nd)]
    k = w.shape[2:]
    cin_g, cout_g = x.shape[1] // groups, w.shape[1]
    full = [(x.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 + op[i] for i in range(nd)]
    out = np.zeros((x.shape[0], cout_g * groups) + tuple(full), np.float64)
    for idx in np.ndindex(*x.shape[2:]):
        for kidx in np.ndindex(*k):
            pos = tuple(idx[i] * s[i] + kidx[i] * d[i] for i in range(nd))
            for g in range(groups):
                xs = x[(slice(None), slice(g * cin_g, (g + 1) * cin_g)) + idx]
                ws = w[(slice(g * cin_g, (g + 1) * cin_g), slice(None)) + kidx]
                out[(slice(None), slice(g * cout_g, (g + 1) * cout_g)) + pos] += xs @ ws
    crop = tuple(slice(pads[i][0], full[i] - pads[i][1]) for i in range(nd))
    out = out[(slice(None), slice(None)) + crop]
    if bias is not None:
        out = out + bias.reshape((1, -1) + (1,) * nd)
    return out.astype(x.dtype)


def _shapes(*shapes):
    def make(rng, dt):
        return [rng.standard_normal(s).astype(dt) if s is not None else None for s in shapes]
    return make


def _conv3d_transpose_ref(x, w, pad_mode="valid", padding=0, stride=1, dilation=1, group=1,
                          output_padding=0):
    return conv_transpose_ref(x, w, None, stride, padding, output_padding, group, dilation)


def _bprop_input(dout, w):
    """Conv2DBackpropInput (stride 2, 'same') as a transposed convolution with its pads."""
    return ms.ops.Conv2DBackpropInput(4, 3, pad_mode="same", stride=2)(dout, w, (1, 2, 6, 6))


SPECS = [
    OpSpec("conv2d", conv_ref, _shapes((1, 2, 5, 5), (3, 2, 3, 3)), dtypes=F, grad=True),
    OpSpec("conv2d", conv_ref, _shapes((1, 2, 6, 5), (3, 2, 3, 2), (3,)),
           kwargs={"stride": 2, "pad_mode": "same"}, dtypes=F, grad=True, id="same-bias"),
    OpSpec("conv2d", conv_ref, _shapes((1, 4, 5, 5), (4, 2, 3, 3)),
           kwargs={"pad_mode": "pad", "padding": (1, 2), "dilation": 2, "groups": 2},
           dtypes=F, grad=True, id="pad-dil-groups"),
    OpSpec("conv2d", conv_ref, _shapes((1, 2, 7, 7), (2, 2, 3, 3)),
           kwargs={"pad_mode": "same", "dilation": 2, "stride": (1, 2)}, dtypes=F,
           id="same-dil"),
    OpSpec("conv1d", conv_ref, _shapes((2, 3, 7), (4, 3, 3), (4,)),
           kwargs={"stride": 2, "pad_mode": "pad", "padding": 1}, dtypes=F, grad=True),
    OpSpec("conv3d", conv_ref, _shapes((1, 2, 4, 4, 3), (2, 2, 2, 2, 2)),
           kwargs={"pad_mode": "pad", "padding": 1, "stride": (1, 2, 1)}, dtypes=F, grad=True),
    OpSpec("conv_transpose2d", conv_transpose_ref, _shapes((1, 2, 3, 4), (2, 3, 3, 3), (3,)),
           kwargs={"stride": 2, "padding": 1, "output_padding": 1}, dtypes=F, grad=True),
    OpSpec("conv_transpose2d", conv_transpose_ref, _shapes((1, 4, 2, 3), (4, 1, 2, 2)),
           kwargs={"groups": 2, "dilation": 2}, dtypes=F, grad=True, id="groups-dil"),
    OpSpec("conv_transpose2d", lambda dout, w: conv_transpose_ref(dout, w, stride=2,
                                                                  padding=(0, 1, 0, 1)),
           _shapes((1, 4, 3, 3), (4, 2, 3, 3)), fn=_bprop_input, dtypes=F, grad=True,
           id="Conv2DBackpropInput"),
    OpSpec("conv3d_transpose", _conv3d_transpose_ref, _shapes((1, 2, 2, 3, 2), (2, 3, 2, 2, 2)),
           kwargs={"stride": 2}, dtypes=F, grad=True),
]
