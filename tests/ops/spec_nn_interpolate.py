"""OpSpecs: interpolate / upsample / the Resize primitives, against per-pixel numpy loops.
(MindSpore's own numbers for every mode are compared in test_nn_ops_golden.py.)"""
import numpy as np

from msxla import ops
from optable import OpSpec

F = (np.float32, np.float64)


def _src(o, n_in, n_out, align, half):
    if align:
        return o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    s = n_in / n_out
    return max((o + 0.5) * s - 0.5, 0.0) if half else o * s


def _lin_weights(n_in, n_out, align=False, half=True):
    """(n_out, n_in) matrix of linear interpolation weights."""
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        s = _src(o, n_in, n_out, align, half)
        i0 = min(int(np.floor(s)), n_in - 1)
        i1 = min(i0 + 1, n_in - 1)
        t = s - np.floor(s) if i0 < n_in - 1 else 0.0
        m[o, i0] += 1 - t
        m[o, i1] += t
    return m


def _near_weights(n_in, n_out, exact=False):
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        i = int(np.floor((o + 0.5 if exact else o) * n_in / n_out))
        m[o, min(i, n_in - 1)] = 1
    return m


def _apply(x, mats):
    out = x.astype(np.float64)
    nd = len(mats)
    for i, m in enumerate(mats):
        out = np.moveaxis(np.tensordot(m, np.moveaxis(out, x.ndim - nd + i, 0), axes=1), 0,
                          x.ndim - nd + i)
    return out.astype(x.dtype)


def _keys(t, a):
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a if t < 2 else 0.0


def _cubic_weights(n_in, n_out, align=False):
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        s = o * (n_in - 1) / (n_out - 1) if align else (o + 0.5) * n_in / n_out - 0.5
        base = int(np.floor(s))
        taps = [(base + k, _keys(s - (base + k), -0.75 if align else -0.5)) for k in (-1, 0, 1, 2)]
        if not align:
            taps = [(i, w) for i, w in taps if 0 <= i < n_in]
            total = sum(w for _, w in taps)
            taps = [(i, w / total) for i, w in taps]
        for i, w in taps:
            m[o, min(max(i, 0), n_in - 1)] += w
    return m


def interp_ref(mode, size, align=False):
    def ref(x):
        sp = x.shape[2:]
        if mode in ("nearest", "nearest-exact"):
            mats = [_near_weights(n, o, mode == "nearest-exact") for n, o in zip(sp, size)]
        elif mode == "bicubic":
            mats = [_cubic_weights(n, o, align) for n, o in zip(sp, size)]
        else:
            mats = [_lin_weights(n, o, align) for n, o in zip(sp, size)]
        return _apply(x, mats)
    return ref


def _spec(mode, shape, size, align=None, name="interpolate", grad=True, tol=1e-5):
    kwargs = {"size": size, "mode": mode}
    if align is not None:
        kwargs["align_corners"] = align
    return OpSpec(name, lambda x, **kw: interp_ref(mode, size, bool(align))(x), (shape,),
                  kwargs=kwargs, dtypes=F, grad=grad, id=f"{mode}-{align}",
                  rtol=tol, atol=tol)


SPECS = [
    _spec("nearest", (1, 2, 5), (8,), grad=False),
    _spec("nearest", (1, 2, 3, 4), (5, 7)),
    _spec("nearest", (1, 1, 2, 3, 2), (3, 4, 3)),
    _spec("nearest-exact", (1, 2, 3, 4), (5, 3)),
    _spec("linear", (2, 1, 5), (8,)),
    _spec("linear", (2, 1, 5), (3,), align=True),
    _spec("bilinear", (1, 2, 3, 4), (5, 7)),
    _spec("bilinear", (1, 2, 3, 4), (2, 3)),
    _spec("bilinear", (1, 2, 3, 4), (5, 7), align=True),
    _spec("trilinear", (1, 1, 2, 3, 2), (3, 4, 3)),
    _spec("bicubic", (1, 1, 4, 5), (6, 3), tol=2e-3, grad=False),
    _spec("bicubic", (1, 1, 4, 5), (6, 3), align=True, tol=2e-3, grad=False),
    _spec("bilinear", (1, 2, 3, 4), (5, 7), name="upsample"),
    OpSpec("interpolate", lambda x: x.reshape(1, 2, 3, 2).mean(-1), ((1, 2, 6),),
           dtypes=F, grad=True, id="area",
           fn=lambda x: ops.interpolate(x.reshape(1, 2, 3, 2), size=(3, 1),
                                              mode="area").reshape(1, 2, 3)),
    OpSpec("resize_image", lambda x: _apply(x, [_lin_weights(3, 5, half=False),
                                                _lin_weights(4, 6, half=False)]),
           ((1, 2, 3, 4),), dtypes=F, grad=True, id="ResizeBilinearV2", rtol=1e-5, atol=1e-5,
           fn=lambda x: ops.ResizeBilinearV2()(x, (5, 6))),
    OpSpec("resize_image", lambda x: _apply(x, [_near_weights(3, 5), _near_weights(4, 6)]),
           ((1, 2, 3, 4),), dtypes=F, id="ResizeNearestNeighbor",
           fn=lambda x: ops.ResizeNearestNeighbor((5, 6))(x)),
]
