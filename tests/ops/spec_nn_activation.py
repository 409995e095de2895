"""OpSpecs: activations, against float64 numpy references cast to the input dtype."""
import numpy as np
from scipy.special import erf

import msxla as ms
from optable import OpSpec

F = (np.float32, np.float64, np.float16)
F32 = (np.float32, np.float64)


def f64(fn):
    """A reference computed in float64 and returned in the first input's dtype."""
    def ref(x, *rest, **kw):
        rest = [r.astype(np.float64) if isinstance(r, np.ndarray) else r for r in rest]
        return np.asarray(fn(x.astype(np.float64), *rest, **kw)).astype(x.dtype)
    return ref


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softplus(x, beta=1, threshold=20):
    soft = np.log1p(np.exp(np.minimum(x * beta, threshold))) / beta
    return np.where(x * beta > threshold, x, soft)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _gelu(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def _selu(x):
    a, s = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    return s * np.where(x > 0, x, a * np.expm1(np.minimum(x, 0)))


def _prelu(x, w):
    return np.where(x > 0, x, w.reshape(1, -1, 1) * x)


def _glu(x, axis=-1):
    a, b = np.split(x, 2, axis=axis)
    return a * _sigmoid(b)


def _softmax_f32(x, axis=-1, dtype=None):
    return _softmax(x.astype(np.float32), axis)


def _swiglu(x, dim=-1):
    a, b = np.split(x, 2, axis=dim)
    return a * _sigmoid(a) * b


def _gumbel_stats():
    """Hard samples are one-hot; their class frequencies follow softmax(logits)."""
    logits = np.log(np.array([0.2, 0.3, 0.5], np.float32))

    def fn():
        out = ms.ops.gumbel_softmax(ms.Tensor(np.tile(logits, (4000, 1))), hard=True).asnumpy()
        return np.concatenate([[float(np.all(out.sum(1) == 1))], out.mean(0)])
    return fn


SPECS = [
    OpSpec("relu", lambda x: np.maximum(x, 0).astype(x.dtype), dtypes=F + (np.int32, np.int64),
           grad=True),
    OpSpec("relu6", f64(lambda x: np.clip(x * 4, 0, 6) / 4), dtypes=F, grad=True,
           fn=lambda x: ms.ops.relu6(x * 4) / 4, id="scaled"),
    OpSpec("leaky_relu", lambda x, alpha=0.2: np.where(x > 0, x, x * alpha).astype(x.dtype),
           kwargs={"alpha": 0.1}, dtypes=F, grad=True),
    OpSpec("elu", f64(lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))),
           dtypes=F, grad=True),
    OpSpec("selu", f64(_selu), dtypes=F, grad=True),
    OpSpec("celu", f64(lambda x, alpha=1.0: np.maximum(x, 0)
                       + np.minimum(0, alpha * np.expm1(np.minimum(x, 0) / alpha))),
           kwargs={"alpha": 2.0}, dtypes=F, grad=True),
    OpSpec("gelu", f64(_gelu), dtypes=F, grad=True),
    OpSpec("gelu", f64(_gelu), kwargs={"approximate": "tanh"}, dtypes=F, grad=True, id="tanh"),
    OpSpec("fast_gelu", f64(lambda x: x / (1 + np.exp(-1.702 * np.abs(x)))
                            * np.exp(0.851 * (x - np.abs(x)))),
           dtypes=(np.float32, np.float16), grad=True),
    OpSpec("silu", f64(lambda x: x * _sigmoid(x)), dtypes=F, grad=True),
    OpSpec("sigmoid", f64(_sigmoid), dtypes=F, grad=True),
    OpSpec("hardsigmoid", f64(lambda x: np.clip(x * 4 + 3, 0, 6) / 6), dtypes=F, grad=True,
           fn=lambda x: ms.ops.hardsigmoid(x * 4)),
    OpSpec("hardswish", f64(lambda x: x * np.clip(x + 3, 0, 6) / 6), dtypes=F, grad=True,
           shapes=lambda rng, dt: [(rng.standard_normal((3, 4)) * 3).astype(dt)]),
    OpSpec("hardtanh", lambda x, min_val=-1.0, max_val=1.0: np.clip(x, min_val, max_val)
           .astype(x.dtype), kwargs={"min_val": -0.5, "max_val": 0.7},
           dtypes=F + (np.int32,), grad=True),
    OpSpec("mish", f64(lambda x: x * np.tanh(np.log1p(np.exp(x)))), dtypes=F, grad=True),
    OpSpec("softplus", f64(_softplus), dtypes=F, grad=True),
    OpSpec("softplus", f64(_softplus), kwargs={"beta": 2, "threshold": 1}, dtypes=F32,
           grad=True, id="beta"),
    OpSpec("softsign", f64(lambda x: x / (1 + np.abs(x))), dtypes=F, grad=True),
    OpSpec("tanhshrink", f64(lambda x: x - np.tanh(x)), dtypes=F, grad=True),
    OpSpec("softshrink", f64(lambda x, lambd=0.5: np.where(
        x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0))), dtypes=F, grad=True),
    OpSpec("hardshrink", f64(lambda x, lambd=0.5: np.where(np.abs(x) > lambd, x, 0)),
           kwargs={"lambd": 0.3}, dtypes=F, grad=True),
    OpSpec("prelu", f64(_prelu), ((2, 3, 4), (3,)), dtypes=F, grad=True),
    OpSpec("rrelu", lambda x: x, dtypes=(np.float32,), domain="positive"),
    OpSpec("glu", f64(_glu), ((2, 4),), dtypes=F, grad=True),
    OpSpec("glu", f64(_glu), ((4, 3),), kwargs={"axis": 0}, dtypes=F32, grad=True, id="axis0"),
    OpSpec("logsigmoid", f64(lambda x: -np.log1p(np.exp(-x))), dtypes=F, grad=True),
    OpSpec("softmax", f64(_softmax), ((3, 4),), dtypes=F, grad=True),
    OpSpec("softmax", f64(_softmax), ((3, 4),), kwargs={"axis": 0}, dtypes=F32, grad=True,
           id="axis0"),
    OpSpec("softmax", _softmax_f32, ((3, 4),), kwargs={"dtype": ms.float32},
           dtypes=(np.float16,), id="dtype"),
    OpSpec("log_softmax", f64(lambda x, axis=-1: np.log(_softmax(x, axis))), ((3, 4),),
           dtypes=F, grad=True),
    OpSpec("softmin", f64(lambda x, axis=-1: _softmax(-x, axis)), ((3, 4),), dtypes=F,
           grad=True),
    OpSpec("threshold", lambda x, thr, value: np.where(x > thr, x, value).astype(x.dtype),
           kwargs={"thr": 0.1, "value": 20.0}, dtypes=F, grad=True),
    OpSpec("threshold", lambda x, thr, value: np.where(x > thr, x, value).astype(x.dtype),
           kwargs={"thr": 1, "value": 5}, dtypes=(np.int32,), id="int"),
    OpSpec("swiglu", f64(_swiglu), ((3, 4),), dtypes=F, grad=True),
    OpSpec("swiglu", f64(lambda x: _swiglu(x, 0)), ((4, 3),), dtypes=F32, grad=True, id="dim0",
           fn=lambda x: ms.ops.swiglu(x, 0)),
    OpSpec("gumbel_softmax", lambda: np.array([1.0, 0.2, 0.3, 0.5]), shapes=(),
           dtypes=(np.float64,), fn=_gumbel_stats(), atol=0.03, rtol=0, check_dtype=False),
    OpSpec("gumbel_softmax", lambda: np.array([1.0, 1.0]), shapes=(), dtypes=(np.float64,),
           check_dtype=False, id="soft-sums-to-one",
           fn=lambda: ms.ops.gumbel_softmax(ms.Tensor(np.zeros((2, 5), np.float32)), 0.5)
           .asnumpy().sum(-1).astype(np.float64), rtol=1e-5),
]
