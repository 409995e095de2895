"""OpSpecs: tensor creation (zeros, ones, full, fill, eye, arange, range, linspace, logspace).

Rows without tensor inputs get their arguments from ``shapes`` callables, so
the forward check runs once per dtype with that dtype as the ``dtype``
argument.
"""
import numpy as np

import msxla as ms
from msxla import ops
from optable import OpSpec

ALL = (np.float32, np.float64, np.float16, np.int32, np.int64, np.int8, np.uint8, np.bool_)
F = (np.float32, np.float64)


def _ms(dt):
    return ms.dtype.to_ms(dt)


def _shape_and_dtype(rng, dt):
    return [(2, 3), _ms(dt)]


def _bounds(rng, dt):
    return [np.asarray(rng.uniform(-2, 0), dt), np.asarray(rng.uniform(1, 3), dt)]


def _np(t):
    return ms.dtype_to_nptype(t)


SPECS = [
    OpSpec("zeros", lambda s, d: np.zeros(s, _np(d)), _shape_and_dtype, dtypes=ALL),
    OpSpec("zeros", lambda: np.zeros((4,), np.float32), lambda rng, dt: [],
           fn=lambda: ops.zeros(4), id="default-dtype"),
    OpSpec("ones", lambda s, d: np.ones(s, _np(d)), _shape_and_dtype, dtypes=ALL),
    OpSpec("ones", lambda: np.ones((2, 1), np.float32), lambda rng, dt: [],
           fn=lambda: ops.ones([2, 1]), id="default-dtype"),
    OpSpec("full", lambda s, d: np.full(s, 3, _np(d)), _shape_and_dtype,
           fn=lambda s, d: ops.full(s, 3, dtype=d), dtypes=ALL),
    OpSpec("full", lambda: np.full((2,), 1, np.int64), lambda rng, dt: [],
           fn=lambda: ops.full((2,), 1.5), id="default-int64"),
    OpSpec("full", lambda v: np.full((2, 3), v), lambda rng, dt: [np.asarray(1.25, dt)],
           fn=lambda v: ops.full((2, 3), v, dtype=v.dtype), dtypes=F, grad=True,
           id="tensor-value"),
    OpSpec("fill", lambda s, d: np.full(s, 2, _np(d)), _shape_and_dtype,
           fn=lambda s, d: ops.fill(d, s, 2.7 if d in (ms.float32, ms.float64) else 2),
           dtypes=(np.int32, np.int64, np.bool_), id="int"),
    OpSpec("fill", lambda v: np.full((3,), v), lambda rng, dt: [np.asarray(0.5, dt)],
           fn=lambda v: ops.fill(v.dtype, (3,), v), dtypes=F, grad=True),
    OpSpec("zeros_like", np.zeros_like, ((2, 3),), dtypes=ALL),
    OpSpec("zeros_like", lambda x: np.zeros_like(x, np.float64), ((2,),),
           fn=lambda x: ops.zeros_like(x, dtype=ms.float64), dtypes=(np.int32,), id="dtype"),
    OpSpec("ones_like", np.ones_like, ((2, 3),), dtypes=ALL),
    OpSpec("full_like", lambda x: np.full_like(x, 2), ((2, 3),),
           fn=lambda x: ops.full_like(x, 2.7), dtypes=(np.int32, np.int64, np.uint8)),
    OpSpec("full_like", lambda x: np.full_like(x, 2.5), ((2, 3),),
           fn=lambda x: ops.full_like(x, 2.5), dtypes=F + (np.float16,), id="float"),
    OpSpec("eye", lambda d: np.eye(2, 3, dtype=_np(d)), lambda rng, dt: [_ms(dt)],
           fn=lambda d: ops.eye(2, 3, d), dtypes=ALL),
    OpSpec("eye", lambda: np.eye(3, dtype=np.float32), lambda rng, dt: [],
           fn=lambda: ops.eye(3), id="square"),
    OpSpec("arange", lambda: np.arange(1, 8, 2), lambda rng, dt: [],
           fn=lambda: ops.arange(1, 8, 2), id="int64"),
    OpSpec("arange", lambda: np.arange(5), lambda rng, dt: [], fn=lambda: ops.arange(5),
           id="end-only"),
    OpSpec("arange", lambda: np.arange(1, 3, 0.25, dtype=np.float32), lambda rng, dt: [],
           fn=lambda: ops.arange(1, 3, 0.25), id="float32"),
    OpSpec("arange", lambda: np.arange(5, 0, -2), lambda rng, dt: [],
           fn=lambda: ops.arange(5, 0, -2), id="negative-step"),
    OpSpec("arange", lambda d: np.arange(0, 4, dtype=_np(d)), lambda rng, dt: [_ms(dt)],
           fn=lambda d: ops.arange(0, 4, dtype=d), dtypes=(np.float64, np.int32, np.float16),
           id="dtype"),
    OpSpec("range", lambda: np.arange(0, 5, 2), lambda rng, dt: [],
           fn=lambda: ops.range(0, 5, 2), id="int"),
    OpSpec("range", lambda: np.arange(0.5, 2.0, 0.5, dtype=np.float32), lambda rng, dt: [],
           fn=lambda: ops.range(0.5, 2.0, 0.5), id="float"),
    OpSpec("linspace", lambda a, b: np.linspace(a, b, 5).astype(a.dtype), _bounds,
           fn=lambda a, b: ops.linspace(a, b, 5), dtypes=F, grad=True),
    OpSpec("linspace", lambda: np.linspace(0, 10, 5).astype(np.float32), lambda rng, dt: [],
           fn=lambda: ops.linspace(0, 10, 5), id="python-ints"),
    OpSpec("logspace", lambda a, b: np.logspace(a, b, 4).astype(np.float32), _bounds,
           fn=lambda a, b: ops.logspace(a, b, 4), dtypes=F, rtol=1e-5),
    OpSpec("logspace", lambda a, b: np.logspace(a, b, 3, base=2.0), _bounds,
           fn=lambda a, b: ops.logspace(a, b, 3, 2, dtype=ms.float64), dtypes=(np.float64,),
           grad=True, id="base2-f64"),
    OpSpec("vander", lambda x: np.vander(x).astype(x.dtype), ((4,),), dtypes=F, grad=True),
    OpSpec("vander", lambda x: np.vander(x, 3).astype(np.int64), ((4,),),
           fn=lambda x: ops.vander(x, 3), dtypes=(np.int32,), id="int-to-int64"),
    OpSpec("scalar_to_tensor", lambda: np.asarray(3.0, np.float32), lambda rng, dt: [],
           fn=lambda: ops.scalar_to_tensor(3)),
    OpSpec("scalar_to_tensor", lambda: np.asarray(3, np.int8), lambda rng, dt: [],
           fn=lambda: ops.scalar_to_tensor(3.7, ms.int8), id="int8"),
    OpSpec("tuple_to_array", lambda: np.array([1, 2, 3], np.int32), lambda rng, dt: [],
           fn=lambda: ops.tuple_to_array((1, 2, 3))),
    OpSpec("tuple_to_array", lambda: np.array([1.5, 2], np.float32), lambda rng, dt: [],
           fn=lambda: ops.tuple_to_array((1.5, 2)), id="float"),
]
