"""OpSpecs: dropout statistics, embedding, pixel shuffles, unfold/fold, similarity, bias_add,
dense and interpolation, against loop-based numpy references."""
import numpy as np

from msxla import Tensor, ops
from optable import OpSpec

F = (np.float32, np.float64)


def _dropout_stats(p, n=20000):
    def fn():
        out = ops.dropout(Tensor(np.ones(n, np.float32)), p).asnumpy()
        return np.array([(out == 0).mean(), out.max(), out[out != 0].min()])
    return OpSpec("dropout", lambda: np.array([p, 1 / (1 - p), 1 / (1 - p)]), shapes=(),
                  dtypes=(np.float64,), fn=fn, atol=0.02, rtol=0, check_dtype=False,
                  id=f"p{p}")


def _channel_stats(fn_drop, shape, p=0.4):
    def fn():
        out = fn_drop(Tensor(np.ones(shape, np.float32)), p).asnumpy()
        per_channel = out.reshape(shape[0] * shape[1], -1)
        same = np.all(per_channel == per_channel[:, :1])
        return np.array([float(same), (per_channel[:, 0] == 0).mean()])
    return fn


def _emb_inputs(rng, dt):
    return [rng.integers(0, 5, (2, 3)).astype(np.int32), rng.standard_normal((5, 4)).astype(dt)]


def pixel_shuffle_ref(x, upscale_factor):
    r = upscale_factor
    *pre, c, h, w = x.shape
    out = np.zeros(tuple(pre) + (c // (r * r), h * r, w * r), x.dtype)
    for ci in range(c // (r * r)):
        for i in range(r):
            for j in range(r):
                out[..., ci, i::r, j::r] = x[..., ci * r * r + i * r + j, :, :]
    return out


def pixel_unshuffle_ref(x, downscale_factor):
    r = downscale_factor
    *pre, c, h, w = x.shape
    out = np.zeros(tuple(pre) + (c * r * r, h // r, w // r), x.dtype)
    for ci in range(c):
        for i in range(r):
            for j in range(r):
                out[..., ci * r * r + i * r + j, :, :] = x[..., ci, i::r, j::r]
    return out


def _blocks(h, w, k, d, p, s):
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    return oh, ow


def unfold_ref(x, kernel_size, dilation=1, padding=0, stride=1):
    k, d, p, s = [(v, v) if isinstance(v, int) else v
                  for v in (kernel_size, dilation, padding, stride)]
    n, c, h, w = x.shape
    oh, ow = _blocks(h, w, k, d, p, s)
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    out = np.zeros((n, c, k[0], k[1], oh * ow), x.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            for a in range(oh):
                for b in range(ow):
                    out[:, :, i, j, a * ow + b] = xp[:, :, a * s[0] + i * d[0], b * s[1] + j * d[1]]
    return out.reshape(n, c * k[0] * k[1], oh * ow)


def fold_ref(cols, output_size, kernel_size, dilation=1, padding=0, stride=1):
    k, d, p, s = [(v, v) if isinstance(v, int) else v
                  for v in (kernel_size, dilation, padding, stride)]
    h, w = output_size
    n = cols.shape[0]
    c = cols.shape[1] // (k[0] * k[1])
    oh, ow = _blocks(h, w, k, d, p, s)
    cols = cols.reshape(n, c, k[0], k[1], oh * ow)
    out = np.zeros((n, c, h + 2 * p[0], w + 2 * p[1]), cols.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            for a in range(oh):
                for b in range(ow):
                    out[:, :, a * s[0] + i * d[0], b * s[1] + j * d[1]] += cols[:, :, i, j,
                                                                                a * ow + b]
    return out[:, :, p[0]:p[0] + h, p[1]:p[1] + w]


def _cos(x1, x2, dim=1, eps=1e-8):
    num = (x1 * x2).sum(dim)
    return num / np.maximum(np.linalg.norm(x1, axis=dim) * np.linalg.norm(x2, axis=dim), eps)


def _channel_shuffle(x, groups):
    n, c = x.shape[:2]
    out = np.empty_like(x)
    for i in range(c):  # output i <- input (i % groups) * (c // groups) + i // groups
        out[:, i] = x[:, (i % groups) * (c // groups) + i // groups]
    return out


def _pdist(x, p=2.0):
    n = x.shape[0]
    return np.array([np.sum(np.abs(x[i] - x[j]) ** p) ** (1 / p)
                     for i in range(n) for j in range(i + 1, n)], x.dtype)


def _bidense(x1, x2, w, b):
    out = np.zeros(x1.shape[:-1] + (w.shape[0],))
    for o in range(w.shape[0]):
        out[..., o] = np.einsum("...i,ij,...j->...", x1, w[o], x2) + b[o]
    return out.astype(x1.dtype)


SPECS = [
    _dropout_stats(0.3),
    _dropout_stats(0.8),
    OpSpec("dropout", lambda: np.array([1.0, 0.4]), shapes=(), dtypes=(np.float64,),
           fn=_channel_stats(ops.dropout2d, (50, 40, 2, 3)), atol=0.05, rtol=0, id="2d"),
    OpSpec("dropout", lambda: np.array([1.0, 0.4]), shapes=(), dtypes=(np.float64,),
           fn=_channel_stats(ops.dropout1d, (50, 40, 3)), atol=0.05, rtol=0, id="1d"),
    OpSpec("dropout", lambda: np.array([1.0, 0.4]), shapes=(), dtypes=(np.float64,),
           fn=_channel_stats(ops.dropout3d, (50, 40, 1, 2, 2)), atol=0.05, rtol=0, id="3d"),
    OpSpec("dropout", lambda x: x, ((3, 4),), dtypes=F, grad=True, id="eval",
           fn=lambda x: ops.dropout(x, 0.5, training=False)),
    OpSpec("embedding", lambda i, w: w[i], _emb_inputs, dtypes=F, grad=True, grad_inputs=(1,)),
    OpSpec("embedding", lambda i, w, max_norm: w[i] * np.minimum(
        1, max_norm / (np.linalg.norm(w[i], axis=-1, keepdims=True) + 1e-7)),
        _emb_inputs, kwargs={"max_norm": 1.0}, dtypes=F, rtol=1e-5, atol=1e-6, id="max_norm"),
    OpSpec("pixel_shuffle", pixel_shuffle_ref, ((2, 8, 2, 3),), kwargs={"upscale_factor": 2},
           dtypes=F + (np.int32,), grad=True),
    OpSpec("pixel_shuffle", pixel_shuffle_ref, ((9, 2, 2),), kwargs={"upscale_factor": 3},
           dtypes=F, id="3d"),
    OpSpec("pixel_unshuffle", pixel_unshuffle_ref, ((2, 2, 4, 6),),
           kwargs={"downscale_factor": 2}, dtypes=F + (np.int32,), grad=True),
    OpSpec("unfold", unfold_ref, ((2, 3, 4, 5),), kwargs={"kernel_size": 2}, dtypes=F,
           grad=True),
    OpSpec("unfold", unfold_ref, ((1, 2, 5, 5),),
           kwargs={"kernel_size": (2, 3), "dilation": (1, 2), "padding": 1, "stride": 2},
           dtypes=F, grad=True, id="all-args"),
    OpSpec("fold", fold_ref, ((2, 12, 8),),
           kwargs={"output_size": (4, 5), "kernel_size": 2, "stride": (2, 1)}, dtypes=F,
           grad=True),
    OpSpec("fold", fold_ref, ((1, 8, 9),),
           kwargs={"output_size": (5, 5), "kernel_size": 2, "padding": 1, "stride": 2,
                   "dilation": 1}, dtypes=F, grad=True, id="pad"),
    OpSpec("cosine_similarity", _cos, ((3, 4), (3, 4)), dtypes=F, grad=True),
    OpSpec("cosine_similarity", lambda a, b: _cos(a, b, -1), ((2, 3, 4), (3, 4)), dtypes=F,
           grad=True, id="dim-1", fn=lambda a, b: ops.cosine_similarity(a, b, dim=-1)),
    OpSpec("bias_add", lambda x, b: x + b.reshape(1, -1, 1), ((2, 3, 4), (3,)),
           dtypes=F + (np.int32,), grad=True),
    OpSpec("bias_add", lambda x, b: x + b, ((2, 3), (3,)), dtypes=F, grad=True,
           fn=lambda x, b: ops.BiasAdd("NHWC")(x, b), id="NHWC"),
    OpSpec("dense", lambda x, w, b: x @ w.T + b, ((2, 5, 3), (4, 3), (4,)), dtypes=F,
           grad=True),
    OpSpec("dense", lambda x, w: x @ w, ((3,), (3,)), dtypes=F, grad=True, id="vector",
           fn=lambda x, w: ops.Dense()(x, w)),
    OpSpec("channel_shuffle", _channel_shuffle, ((2, 6, 2, 2),), kwargs={"groups": 3},
           dtypes=F + (np.int32,), grad=True),
    OpSpec("pdist", _pdist, ((4, 3),), dtypes=F, grad=True),
    OpSpec("pdist", _pdist, ((4, 3),), kwargs={"p": 1.5}, dtypes=F, grad=True, id="p1.5"),
    OpSpec("bidense", _bidense, ((2, 3), (2, 4), (5, 3, 4), (5,)), dtypes=F, grad=True),
]
