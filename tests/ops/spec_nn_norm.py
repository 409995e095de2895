"""OpSpecs: normalisation layers against numpy."""
import numpy as np

import msxla as ms
from optable import OpSpec

F = (np.float32, np.float64)


def _norm(x, axes, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    var = x64.var(axis=axes, keepdims=True)
    return (x64 - mean) / np.sqrt(var + eps)


def layer_norm_ref(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    k = len(normalized_shape)
    y = _norm(x, tuple(range(x.ndim - k, x.ndim)), eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y.astype(x.dtype)


def batch_norm_ref(x, rm, rv, w, b, training=False, momentum=0.1, eps=1e-5):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        y = _norm(x, (0,) + tuple(range(2, x.ndim)), eps)
    else:
        y = (x - rm.reshape(shape)) / np.sqrt(rv.reshape(shape) + eps)
    return (y * w.reshape(shape) + b.reshape(shape)).astype(x.dtype)


def group_norm_ref(x, num_groups, weight=None, bias=None, eps=1e-5):
    n = x.shape[0]
    y = _norm(x.reshape(n, num_groups, -1), (2,), eps).reshape(x.shape)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (y * weight.reshape(shape) + bias.reshape(shape)).astype(x.dtype)


def rms_norm_ref(x, gamma, epsilon=1e-6):
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1 / np.sqrt((x.astype(np.float64) ** 2).mean(axis=axes, keepdims=True) + epsilon)
    return (x * rstd * gamma).astype(x.dtype), rstd.astype(np.float32)


def lrn_ref(x, depth_radius=2, bias=1.0, alpha=1.0, beta=0.5):
    c = x.shape[1]
    total = np.zeros_like(x, dtype=np.float64)
    for i in range(c):
        lo, hi = max(0, i - depth_radius), min(c, i + depth_radius + 1)
        total[:, i] = (x[:, lo:hi].astype(np.float64) ** 2).sum(axis=1)
    return (x / (bias + alpha * total) ** beta).astype(x.dtype)


def _inputs(*shapes, positive=()):
    def make(rng, dt):
        out = []
        for i, s in enumerate(shapes):
            a = rng.uniform(0.5, 2.0, s) if i in positive else rng.standard_normal(s)
            out.append(a.astype(dt))
        return out
    return make


SPECS = [
    OpSpec("layer_norm", lambda x, w, b: layer_norm_ref(x, (4,), w, b),
           _inputs((2, 3, 4), (4,), (4,)), dtypes=F + (np.float16,), grad=True,
           fn=lambda x, w, b: ms.ops.layer_norm(x, (4,), w, b)),
    OpSpec("layer_norm", layer_norm_ref, _inputs((2, 3, 4)),
           kwargs={"normalized_shape": (3, 4), "eps": 1e-3}, dtypes=F, grad=True, id="noaffine"),
    OpSpec("layer_norm", lambda x, g, b: layer_norm_ref(x, (3, 4), g, b, 1e-7),
           _inputs((2, 3, 4), (3, 4), (3, 4)), dtypes=F, grad=True, id="LayerNorm-prim",
           fn=lambda x, g, b: ms.ops.LayerNorm(1, 1)(x, g, b)[0]),
    OpSpec("batch_norm", batch_norm_ref, _inputs((4, 3, 2, 2), (3,), (3,), (3,), (3,),
                                                 positive=(2,)),
           dtypes=F + (np.float16,), grad=True, grad_inputs=(0, 3, 4)),
    OpSpec("batch_norm", batch_norm_ref, _inputs((5, 3), (3,), (3,), (3,), (3,), positive=(2,)),
           kwargs={"training": True}, dtypes=F, grad=True, grad_inputs=(0, 3, 4), id="train"),
    OpSpec("batch_norm", batch_norm_ref, _inputs((4, 3, 2, 2), (3,), (3,), (3,), (3,),
                                                 positive=(2,)),
           kwargs={"training": True, "eps": 1e-3}, dtypes=F, grad=True, grad_inputs=(0, 3, 4),
           id="train4d"),
    OpSpec("group_norm", lambda x, w, b: group_norm_ref(x, 3, w, b),
           _inputs((2, 6, 3), (6,), (6,)), dtypes=F, grad=True,
           fn=lambda x, w, b: ms.ops.group_norm(x, 3, w, b)),
    OpSpec("rms_norm", rms_norm_ref, _inputs((2, 3, 4), (4,)), dtypes=F, grad=True),
    OpSpec("rms_norm", lambda x, g: rms_norm_ref(x, g, 1e-3), _inputs((2, 3, 4), (3, 4)),
           dtypes=F, fn=lambda x, g: ms.ops.RmsNorm(1e-3)(x, g), id="prim"),
    OpSpec("l2_normalize", lambda x: (x / np.sqrt(np.maximum((x.astype(np.float64) ** 2)
                                                             .sum(-1, keepdims=True), 1e-4)))
           .astype(x.dtype), ((3, 4),), dtypes=F, grad=True,
           fn=lambda x: ms.ops.L2Normalize(axis=-1)(x)),
    OpSpec("lrn", lrn_ref, ((2, 5, 2, 2),), dtypes=F, grad=True,
           fn=lambda x: ms.ops.LRN(depth_radius=2)(x)),
]
