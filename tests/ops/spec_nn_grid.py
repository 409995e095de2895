"""OpSpecs: affine_grid, grid_sample and max_unpool against per-point numpy loops."""
import numpy as np

from optable import OpSpec

F = (np.float32, np.float64)


def _base(n, align):
    if align:
        return np.linspace(-1, 1, n) if n > 1 else np.zeros(1)
    return (np.arange(n) * 2 + 1) / n - 1


def affine_grid_ref(theta, size, align_corners=False):
    n, _, h, w = size
    out = np.zeros((n, h, w, 2))
    for b in range(n):
        for i, y in enumerate(_base(h, align_corners)):
            for j, x in enumerate(_base(w, align_corners)):
                out[b, i, j] = theta[b] @ np.array([x, y, 1.0])
    return out.astype(theta.dtype)


def _src(c, n, pad, align):
    s = (c + 1) / 2 * (n - 1) if align else ((c + 1) * n - 1) / 2
    if pad == "border":
        s = min(max(s, 0), n - 1)
    elif pad == "reflection":
        lo, hi = (0.0, n - 1.0) if align else (-0.5, n - 0.5)
        span = hi - lo
        d = abs(s - lo)
        k, r = divmod(d, span)
        s = lo + r if k % 2 == 0 else hi - r
        s = min(max(s, 0), n - 1)
    return s


def grid_sample_ref(img, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    n, c, h, w = img.shape
    _, ho, wo, _ = grid.shape
    out = np.zeros((n, c, ho, wo))

    def at(b, y, x):
        return img[b, :, y, x] if 0 <= y < h and 0 <= x < w else np.zeros(c)

    for b in range(n):
        for i in range(ho):
            for j in range(wo):
                x = _src(grid[b, i, j, 0], w, padding_mode, bool(align_corners))
                y = _src(grid[b, i, j, 1], h, padding_mode, bool(align_corners))
                if mode == "nearest":
                    out[b, :, i, j] = at(b, int(np.rint(y)), int(np.rint(x)))
                    continue
                x0, y0 = int(np.floor(x)), int(np.floor(y))
                tx, ty = x - x0, y - y0
                out[b, :, i, j] = ((1 - ty) * ((1 - tx) * at(b, y0, x0) + tx * at(b, y0, x0 + 1))
                                   + ty * ((1 - tx) * at(b, y0 + 1, x0) + tx * at(b, y0 + 1,
                                                                             x0 + 1)))
    return out.astype(img.dtype)


def _grid_inputs(rng, dt):
    return [rng.standard_normal((2, 3, 4, 5)).astype(dt),
            rng.uniform(-1.3, 1.3, (2, 3, 2, 2)).astype(dt)]


def max_unpool_ref(x, idx, kernel_size, stride=None, padding=0, output_size=None):
    nd = len(output_size) if output_size else x.ndim - 2
    k = (kernel_size,) * nd if isinstance(kernel_size, int) else kernel_size
    s = k if stride is None else ((stride,) * nd if isinstance(stride, int) else stride)
    sp = output_size or tuple((n - 1) * s[i] - 2 * padding + k[i]
                              for i, n in enumerate(x.shape[2:]))
    out = np.zeros(x.shape[:2] + (int(np.prod(sp)),), x.dtype)
    for a in range(x.shape[0]):
        for b in range(x.shape[1]):
            out[a, b, idx[a, b].ravel()] = x[a, b].ravel()
    return out.reshape(x.shape[:2] + tuple(sp))


def _unpool_inputs(nd):
    def make(rng, dt):
        shape = (2, 2) + (2,) * nd
        x = rng.standard_normal(shape).astype(dt)
        # one index inside each 2-wide window of the unpooled (4, ...) grid
        idx = np.zeros(shape, np.int64)
        for pos in np.ndindex(*shape):
            offs = [2 * p + rng.integers(0, 2) for p in pos[2:]]
            idx[pos] = np.ravel_multi_index(offs, (4,) * nd)
        return [x, idx]
    return make


SPECS = [
    OpSpec("affine_grid", affine_grid_ref, lambda rng, dt: [rng.standard_normal((2, 2, 3))
                                                            .astype(dt)],
           kwargs={"size": (2, 1, 3, 4)}, dtypes=F, grad=True),
    OpSpec("affine_grid", affine_grid_ref, lambda rng, dt: [rng.standard_normal((1, 2, 3))
                                                            .astype(dt)],
           kwargs={"size": (1, 1, 2, 3), "align_corners": True}, dtypes=F, grad=True,
           id="align"),
    OpSpec("grid_sample", grid_sample_ref, _grid_inputs, dtypes=F, grad=True),
    OpSpec("grid_sample", grid_sample_ref, _grid_inputs,
           kwargs={"padding_mode": "border", "align_corners": True}, dtypes=F, grad=True,
           id="border-align"),
    OpSpec("grid_sample", grid_sample_ref, _grid_inputs, kwargs={"padding_mode": "reflection"},
           dtypes=F, grad=True, id="reflection"),
    OpSpec("grid_sample", grid_sample_ref, _grid_inputs, kwargs={"mode": "nearest"}, dtypes=F,
           id="nearest"),
    OpSpec("max_unpool1d", max_unpool_ref, _unpool_inputs(1), kwargs={"kernel_size": 2},
           dtypes=F, grad=True, grad_inputs=(0,)),
    OpSpec("max_unpool2d", max_unpool_ref, _unpool_inputs(2), kwargs={"kernel_size": 2},
           dtypes=F, grad=True, grad_inputs=(0,)),
    OpSpec("max_unpool3d", max_unpool_ref, _unpool_inputs(3), kwargs={"kernel_size": 2},
           dtypes=F, grad=True, grad_inputs=(0,)),
]
