"""Writes numpy_module.json: MindSpore 2.10's ``mindspore.numpy`` results.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_numpy_module.py``.

Same format as shape_ops.json (see make_shape_ops.py): expressions over fixed
inputs, with ``mnp`` bound to ``mindspore.numpy``; ``tests/test_numpy_module.py``
evaluates them with ``msxla.numpy``.
"""
import json
import os

import numpy as np
import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor, ops

ms.set_context(pynative_synchronize=True)

ARRAYS = {
    "a": np.arange(6, dtype=np.int32).reshape(2, 3),
    "f": np.array([[0.5, -1.5, 2.0], [3.25, 0.0, -0.75]], np.float32),
    "v": np.array([1.0, 2.0, 4.0], np.float32),
    "b": np.array([[True, False, True], [False, False, True]]),
}

CASES = """
mnp.array([1, 2])
mnp.array([1.0, 2])
mnp.array(1)
mnp.array(2.5)
mnp.array([True, False])
mnp.array([1, 2], ndmin=3)
mnp.array([[1, 2], [3, 4]], dtype=mnp.float64)
mnp.asarray([1, 2])
mnp.asarray(a)
mnp.asfarray([1, 2])
mnp.asfarray(a, mnp.int32)
mnp.copy(f)
mnp.zeros((2, 3))
mnp.zeros(3)
mnp.ones((2,), mnp.int32)
mnp.full((2,), 3)
mnp.full((2,), 3.5)
mnp.full((2,), True)
mnp.full(2, [1, 2])
mnp.full((2, 3), v)
mnp.full((2, 2), 7, mnp.float16)
mnp.empty((2,)).shape
mnp.zeros_like(a)
mnp.ones_like(a, shape=(3,))
mnp.ones_like(f, dtype=mnp.int32)
mnp.full_like(a, 2.5)
mnp.full_like(f, 2.5)
mnp.arange(5)
mnp.arange(5.0)
mnp.arange(1, 5, 2)
mnp.arange(0, 1, 0.25)
mnp.arange(5, dtype=mnp.float32)
mnp.linspace(0, 1, 5)
mnp.linspace(0, 1, 5, endpoint=False)
mnp.linspace(0, 1, 5, retstep=True)
mnp.linspace(0, 10, 5, dtype=mnp.int32)
mnp.linspace(2, 3, 1)
mnp.logspace(0, 2, 3)
mnp.logspace(0, 3, 4, base=2.0)
mnp.logspace(0, 2, 3, endpoint=False)
mnp.geomspace(1, 1000, 4)
mnp.eye(3)
mnp.eye(2, 3, 1)
mnp.eye(3, k=-1, dtype=mnp.int32)
mnp.identity(2)
mnp.tri(3)
mnp.tri(2, 4, 1, mnp.int32)
mnp.tril(a)
mnp.triu(a, 1)
mnp.diag(a)
mnp.diag(a, 1)
mnp.diag(v)
mnp.diag(v, -1)
mnp.diagflat(a)
mnp.diagonal(a)
mnp.diagonal(f, 1)
mnp.trace(a)
mnp.trace(f)
mnp.trace(a, 1)
mnp.meshgrid(v, mnp.arange(2))
mnp.meshgrid(v, mnp.arange(2), indexing='ij')
mnp.meshgrid(v, mnp.arange(2), sparse=True)
mnp.reshape(a, (3, 2))
mnp.reshape(a, -1)
mnp.ravel(a)
mnp.transpose(a)
mnp.transpose(mnp.ones((2, 3, 4)), (1, 2, 0))
mnp.swapaxes(a, 0, 1)
mnp.moveaxis(mnp.ones((2, 3, 4)), 0, -1)
mnp.rollaxis(mnp.ones((2, 3, 4)), 2)
mnp.rollaxis(mnp.ones((2, 3, 4)), 0, 2)
mnp.expand_dims(a, 0)
mnp.expand_dims(a, (0, 3))
mnp.squeeze(mnp.ones((1, 3, 1)))
mnp.squeeze(mnp.ones((1, 3, 1)), 0)
mnp.concatenate((a, a))
mnp.concatenate((a, a), 1)
mnp.concatenate((a, a), axis=None)
mnp.append(a, a)
mnp.append(a, a, 0)
mnp.stack((a, a), 1)
mnp.hstack((a, a))
mnp.vstack((a, a))
mnp.vstack((v, v))
mnp.dstack((a, a))
mnp.column_stack((v, v))
mnp.split(a, 3, 1)
mnp.split(a, [1], 1)
mnp.split(mnp.arange(6), [1, 4])
mnp.array_split(a, 2, 1)
mnp.array_split(mnp.arange(7), 3)
mnp.hsplit(a, 3)
mnp.vsplit(a, 2)
mnp.dsplit(mnp.ones((2, 2, 4)), 2)
mnp.tile(a, 2)
mnp.tile(a, (2, 1, 2))
mnp.repeat(a, 2)
mnp.repeat(a, 2, 1)
mnp.repeat(a, [1, 2], 0)
mnp.flip(a)
mnp.flip(a, 1)
mnp.fliplr(a)
mnp.flipud(a)
mnp.roll(a, 1)
mnp.roll(a, -1, 1)
mnp.rot90(a)
mnp.rot90(a, 2)
mnp.rot90(a, 1, (1, 0))
mnp.broadcast_to(a, (2, 2, 3))
mnp.broadcast_arrays(a, v)
mnp.atleast_1d(f)
mnp.atleast_2d(v)
mnp.atleast_3d(a)
mnp.atleast_2d(v, a)
mnp.where(a > 2, a, 0)
mnp.where(b, f, -1.0)
mnp.take(a, mnp.array([0, 2]), 1)
mnp.take(a, mnp.array([0, 5, 9]))
mnp.take(a, mnp.array([-1, 3]), 1, mode='wrap')
mnp.size(a)
mnp.size(a, 1)
mnp.dot(a, a.T)
mnp.dot(f, v)
mnp.dot(v, v)
mnp.dot(mnp.ones((2, 3, 4)), mnp.ones((4, 5)))
mnp.matmul(a, a.T)
mnp.matmul(f, v)
mnp.outer(a, a)
mnp.outer(v, v)
mnp.inner(a, a)
mnp.inner(f, v)
mnp.tensordot(a, a.T, 1)
mnp.tensordot(f, f, 2)
mnp.tensordot(f, f, ((1,), (1,)))
mnp.kron(a, a)
mnp.cross(mnp.ones((2, 3)), f)
mnp.cross(mnp.ones((3, 2)), f.T, axisa=0, axisb=0)
mnp.multi_dot([a, a.T, a])
mnp.matrix_power(mnp.ones((2, 2)), 3)
mnp.norm(f)
mnp.norm(f, axis=1)
mnp.norm(f, 1)
mnp.norm(v, 3)
mnp.add(a, 1)
mnp.add(a, 1.5)
mnp.subtract(a, f)
mnp.divide(a, 2)
mnp.true_divide(a, a + 1)
mnp.floor_divide(a, 4)
mnp.remainder(a, 4)
mnp.mod(f, 1.0)
mnp.power(a, 2)
mnp.power(f, 2)
mnp.maximum(a, 2)
mnp.minimum(f, v)
mnp.abs(f)
mnp.absolute(a)
mnp.negative(a)
mnp.exp(f)
mnp.log(v)
mnp.sqrt(v)
mnp.square(a)
mnp.sin(f)
mnp.tanh(f)
mnp.exp(f, dtype=mnp.float64)
mnp.abs(a, dtype=mnp.float32)
mnp.clip(a, 1, 3)
mnp.clip(f, -1.0, 1.0)
mnp.around(f)
mnp.sum(a)
mnp.sum(a, 0)
mnp.sum(f, 1, keepdims=True)
mnp.sum(a, dtype=mnp.float32)
mnp.sum(f, initial=10.0)
mnp.mean(f)
mnp.mean(f, 0)
mnp.mean(a, dtype=mnp.float64)
mnp.max(a)
mnp.max(f, 1)
mnp.amax(f, 0, keepdims=True)
mnp.min(a, 1)
mnp.amin(f)
mnp.argmax(f)
mnp.argmax(f, 1)
mnp.argmin(f, 0)
mnp.std(f)
mnp.var(f, 1)
mnp.std(f, ddof=1)
mnp.cumsum(a)
mnp.cumsum(f, 1)
mnp.ptp(f)
mnp.ptp(f, 1)
mnp.average(f)
mnp.average(f, 1, weights=v)
mnp.count_nonzero(f)
mnp.diff(a)
mnp.diff(f, 2)
mnp.diff(a, axis=0)
mnp.equal(a, 2)
mnp.less(f, v)
mnp.greater_equal(a, 3)
mnp.logical_and(b, a > 2)
mnp.logical_not(b)
mnp.isnan(f)
mnp.isfinite(f)
mnp.isclose(f, f + 1e-7)
mnp.array_equal(a, a)
mnp.array_equal(a, f)
mnp.array_equal(a, v)
mnp.array_equiv(v, mnp.stack((v, v)))
mnp.isscalar(2.0)
mnp.isscalar(a)
mnp.promote_types(mnp.int32, mnp.float16)
mnp.result_type(a, f)
mnp.int_
mnp.float_
mnp.pi
mnp.tril_indices(3)
mnp.triu_indices(3, 1, 4)
mnp.tril_indices_from(a)
mnp.triu_indices_from(a, -1)
mnp.diag_indices(3)
mnp.indices((2, 3))
mnp.vander(mnp.arange(3))
mnp.vander(v, 2, True)
"""


def _record(out):
    if isinstance(out, (tuple, list)):
        return {"seq": [_record(o) for o in out]}
    if isinstance(out, Tensor):
        arr = out.asnumpy()
        if arr.dtype == np.bool_:
            vals = arr.astype(np.int64)
        else:
            vals = arr.astype(np.float64)
        return {"dtype": str(out.dtype), "shape": list(arr.shape),
                "values": np.nan_to_num(vals, nan=0.0).reshape(-1).tolist()}
    if isinstance(out, ms.dtype.Type):
        return {"mstype": str(out)}
    return {"py": out}


def _builtin(exc):
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return "Exception"


def main():
    ns = {"ms": ms, "ops": ops, "Tensor": Tensor, "np": np, "mnp": mnp}
    ns.update({k: Tensor(a) for k, a in ARRAYS.items()})
    cases = []
    for group, text in (("numpy", CASES),):
        for expr in [e.strip() for e in text.strip().splitlines() if e.strip()]:
            try:
                rec = {"expr": expr, "group": group, "out": _record(eval(expr, ns))}  # noqa: S307
            except Exception as exc:  # noqa: BLE001 - recorded as the expected failure
                rec = {"expr": expr, "group": group, "error": _builtin(exc),
                       "message": str(exc).splitlines()[0][:200]}
            cases.append(rec)
    out = {"inputs": {k: {"dtype": str(a.dtype), "values": a.tolist()}
                      for k, a in ARRAYS.items()}, "cases": cases}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "numpy_module.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
