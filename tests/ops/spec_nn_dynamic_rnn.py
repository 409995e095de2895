"""OpSpecs: the fused recurrent Primitives (DynamicRNN, DynamicGRUV2) against numpy
loops of their documented equations."""
import numpy as np

import msxla as ms
from optable import OpSpec

F = (np.float16, np.float32)


def _sig(v):
    return 1 / (1 + np.exp(-v))


def lstm_ref(x, w, b, h, c, forget_bias=0.0, cell_clip=-1.0):
    x, w, b = x.astype(np.float64), w.astype(np.float64), b.astype(np.float64)
    h, c = h[0].astype(np.float64), c[0].astype(np.float64)
    outs = []
    for t in range(x.shape[0]):
        i, j, f, o = np.split(np.concatenate([x[t], h], -1) @ w + b, 4, -1)
        i, j, f, o = _sig(i), np.tanh(j), _sig(f + forget_bias), _sig(o)
        c = f * c + i * j
        if cell_clip > 0:
            c = np.clip(c, -cell_clip, cell_clip)
        h = o * np.tanh(c)
        outs.append((h, h, c, i, j, f, o, np.tanh(c)))
    return tuple(np.stack(k) for k in zip(*outs))


def gru_ref(x, wi, wh, bi, bh, h, gate_order="rzh", reset_after=True):
    x, wi, wh = x.astype(np.float64), wi.astype(np.float64), wh.astype(np.float64)
    bi, bh, h = bi.astype(np.float64), bh.astype(np.float64), h.astype(np.float64)

    def split(v):
        a, b_, n = np.split(v, 3, -1)
        return (a, b_, n) if gate_order == "rzh" else (b_, a, n)

    outs = []
    for t in range(x.shape[0]):
        xr, xz, xn = split(x[t] @ wi + bi)
        if reset_after:
            hr, hz, hn = split(h @ wh + bh)
            r, z = _sig(xr + hr), _sig(xz + hz)
        else:
            (wr, wz, wn), (br, bz, bn) = split(wh), split(bh)
            r, z = _sig(xr + h @ wr + br), _sig(xz + h @ wz + bz)
            hn = (r * h) @ wn + bn
        n = np.tanh(xn + (r * hn if reset_after else hn))
        h = (1 - z) * n + z * h
        outs.append((h, h, z, r, n, hn))
    return tuple(np.stack(k) for k in zip(*outs))


def _lstm_inputs(rng, dtype, t=3, n=2, i=4, hidden=3):
    return [(rng.standard_normal(s) * 0.5).astype(dtype)
            for s in ((t, n, i), (i + hidden, 4 * hidden), (4 * hidden,), (1, n, hidden),
                      (1, n, hidden))]


def _gru_inputs(rng, dtype, t=3, n=2, i=4, hidden=3):
    return [(rng.standard_normal(s) * 0.5).astype(dtype)
            for s in ((t, n, i), (i, 3 * hidden), (hidden, 3 * hidden), (3 * hidden,),
                      (3 * hidden,), (n, hidden))]


def _as(dtype_like, out):
    return tuple(o.astype(dtype_like.dtype) for o in out)


SPECS = [
    OpSpec("_dynamic_rnn", lambda *a: _as(a[2], lstm_ref(*a)), _lstm_inputs, dtypes=F,
           fn=lambda x, w, b, h, c: ms.ops.DynamicRNN()(x, w, b, None, h, c),
           rtol=2e-2, atol=2e-3),
    OpSpec("_dynamic_rnn", lambda *a: _as(a[2], lstm_ref(*a, forget_bias=1.0, cell_clip=0.5)),
           _lstm_inputs, dtypes=(np.float32,), id="bias_clip",
           fn=lambda x, w, b, h, c: ms.ops.DynamicRNN(forget_bias=1.0, cell_clip=0.5)(
               x, w, b, None, h, c)),
    OpSpec("_dynamic_gru", lambda *a: _as(a[3], gru_ref(*a)), _gru_inputs, dtypes=F,
           fn=lambda x, wi, wh, bi, bh, h: ms.ops.DynamicGRUV2()(x, wi, wh, bi, bh, None, h),
           rtol=2e-2, atol=2e-3),
    OpSpec("_dynamic_gru", lambda *a: _as(a[3], gru_ref(*a, gate_order="zrh", reset_after=False)),
           _gru_inputs, dtypes=(np.float32,), id="zrh_before",
           fn=lambda x, wi, wh, bi, bh, h: ms.ops.DynamicGRUV2(gate_order="zrh",
                                                                reset_after=False)(
               x, wi, wh, bi, bh, None, h)),
]
