"""Writes mint.json: MindSpore 2.10's results for ``mindspore.mint`` calls (the
torch-like API: ``dim``/``keepdim`` arguments, ``alpha`` on add/sub, overloads
of max/min/where, creation from a size).

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_mint.py``.
Each case is a Python expression over the inputs below (stored in the JSON);
the output (dtype, shape, values; tuples; Python values) or the builtin
exception class is recorded. ``tests/test_mint_golden.py`` evaluates the same
expressions with ``import msxla as ms``.
"""
import functools

import numpy as np
import mindspore as ms
from mindspore import Tensor, mint

import expr_cases

ms.set_context(pynative_synchronize=True)

RNG = np.random.default_rng(3)
ARRAYS = {
    "x": RNG.standard_normal((3, 4)).astype(np.float32),
    "y": RNG.standard_normal((3, 4)).astype(np.float32),
    "z": RNG.standard_normal((2, 3, 4)).astype(np.float32),
    "i": np.array([[3, -1, 4, 1], [5, 9, -2, 6], [5, 3, 5, 8]], np.int32),
    "b": np.array([[True, False, True, True], [False, False, True, False],
                   [True, True, True, True]]),
    "idx": np.array([[0, 2], [1, 0], [3, 3]], np.int64),
    "rows": np.array([2, 0], np.int64),
    "v": np.array([1.0, 2.0, 3.0], np.float32),
    "m": RNG.standard_normal((4, 2)).astype(np.float32),
    "bm": RNG.standard_normal((2, 4, 3)).astype(np.float32),
    "u": np.array([3, 1, 3, 2, 1, 1], np.int64),
}

CASES = """
mint.add(x, y)
mint.add(x, y, alpha=2)
mint.add(i, 2)
mint.sub(x, y, alpha=0.5)
mint.sub(i, 1)
mint.mul(x, y)
mint.mul(i, 2.5)
mint.div(x, y)
mint.div(i, 2)
mint.div(i, 2, rounding_mode='floor')
mint.remainder(i, 3)
mint.fmod(i, 3)
mint.floor_divide(i, 3)
mint.pow(x, 2)
mint.eq(i, 5)
mint.ne(i, 5)
mint.not_equal(i, 5)
mint.ge(x, y)
mint.greater_equal(i, 3)
mint.clamp(x, -0.5, 0.5)
mint.clamp(x, min=0.0)
mint.clip(i, max=4)
mint.where(b, x, y)
mint.where(b)
mint.sum(x)
mint.sum(x, 1)
mint.sum(i, dim=0, keepdim=True)
mint.sum(x, (0, 1), dtype=ms.float64)
mint.mean(x)
mint.mean(x, 1, True)
mint.mean(z, dim=(0, 2))
mint.prod(x, 1)
mint.prod(i)
mint.amax(x, 1)
mint.amax(x)
mint.amin(z, (0, 2), True)
mint.max(x)
mint.max(x, 1)
mint.max(x, dim=0, keepdim=True)
mint.max(x, y)
mint.min(i)
mint.min(i, 1)
mint.min(x, y)
mint.argmax(x)
mint.argmax(x, 1)
mint.argmax(x, dim=1, keepdim=True)
mint.argmin(i, 0)
mint.all(b)
mint.all(b, 1)
mint.any(b, 1, True)
mint.any(b)
mint.std(x)
mint.std(x, 1)
mint.std(x, 1, correction=0, keepdim=True)
mint.var(z, (0, 2))
mint.std_mean(x, 0)
mint.var_mean(x, 1, correction=0)
mint.logsumexp(x, 1)
mint.cumsum(x, 1)
mint.cumsum(i, 0, dtype=ms.float32)
mint.cummax(i, 1)
mint.cummin(x, 0)
mint.softmax(x, 1)
mint.softmax(x, dim=0)
mint.topk(x, 2)
mint.topk(x, 2, dim=0, largest=False)
mint.sort(x)
mint.sort(i, dim=0, descending=True)
mint.argsort(x)
mint.argsort(i, dim=0, descending=True)
mint.count_nonzero(i)
mint.count_nonzero(b, 1)
mint.nansum(x, 1)
mint.median(i)
mint.median(x, 1)
mint.kthvalue(x, 2, 1)
mint.kthvalue(i, 1, 0, True)
mint.reshape(x, (2, 6))
mint.flatten(z)
mint.flatten(z, 1)
mint.flatten(z, 0, 1)
mint.transpose(z, 0, 2)
mint.permute(z, (2, 0, 1))
mint.unsqueeze(x, 1)
mint.squeeze(mint.unsqueeze(x, 0))
mint.squeeze(mint.unsqueeze(x, 0), 0)
mint.split(x, 2, 1)
mint.split(x, [1, 3], dim=1)
mint.split(z, 1)
mint.chunk(x, 2, 1)
mint.cat((x, y))
mint.cat([x, y], dim=1)
mint.concat((x, y), 1)
mint.stack((x, y))
mint.stack((x, y), dim=2)
mint.gather(x, 1, idx)
mint.index_select(x, 0, rows)
mint.index_select(x, 1, rows)
mint.scatter(x, 1, idx, y)
mint.scatter_add(x, 1, idx, y)
mint.narrow(x, 1, 1, 2)
mint.select(x, 1, 2)
mint.broadcast_to(v, (2, 3))
mint.repeat_interleave(v, 2)
mint.repeat_interleave(x, 2, 0)
mint.repeat_interleave(x, Tensor([1, 0, 2]), dim=0)
mint.swapaxes(z, 0, 1)
mint.t(x)
mint.tril(x)
mint.tril(x, -1)
mint.diag(v)
mint.diag(x, 1)
mint.unbind(x, 1)
mint.meshgrid(v, v[:2])
mint.meshgrid(v, v[:2], indexing='xy')
mint.bmm(bm, mint.transpose(bm, 1, 2))
mint.mm(x, m)
mint.mv(x[:, :3], v)
mint.dot(v, v)
mint.outer(v, v)
mint.baddbmm(z[:, :3, :3], bm[:, :3], bm[:, :3].swapaxes(1, 2), beta=0.5, alpha=2)
mint.addmm(x[:, :2], x, m, beta=2)
mint.clone(x)
mint.zeros((2, 3))
mint.zeros(4, dtype=ms.int32)
mint.zeros([2, 1])
mint.ones((2, 3), dtype=ms.float16)
mint.ones(3)
mint.full((2, 2), 7)
mint.full((2, 2), 1.5, dtype=ms.float64)
mint.empty(2, 3).shape
mint.empty((2, 3), dtype=ms.int32).dtype
mint.empty_like(x).shape
mint.zeros_like(i)
mint.ones_like(x, dtype=ms.int32)
mint.full_like(x, 3)
mint.arange(5)
mint.arange(1, 4, 0.5)
mint.linspace(0, 1, 5)
mint.linspace(0, 10, 3, dtype=ms.int32)
mint.isnan(x)
mint.isfinite(x)
mint.allclose(x, x)
mint.allclose(x, y)
mint.equal(x, x)
mint.frac(x)
mint.fix(x)
mint.xlogy(v, v)
mint.logaddexp(x, y)
mint.diff(x)
mint.diff(x, dim=0)
mint.unique(u)
mint.unique(u, return_inverse=True, return_counts=True)
mint.unique_consecutive(u, True, True)
mint.vdot(v, v)
mint.norm(x)
mint.norm(x, 1, 1)
mint.norm(x, dim=0, keepdim=True)
mint.histc(v, 3, 0, 3)
mint.lerp(x, y, 0.3)
mint.trace(x[:, :3])
mint.item(x[0, 0])
mint.bincount(u)
mint.sqrt(mint.abs(x))
mint.log2(v)
mint.log10(v)
mint.exp2(v)
mint.acos(x / 4)
mint.arctan2(x, y)
mint.bitwise_and(i, 6)
mint.nn.functional.softmax(x, 1)
mint.nn.functional.softmax(x, dim=0)
mint.nn.functional.pad(x, (1, 2))
mint.nn.functional.pad(x, (1, 1, 2, 0), value=3.0)
mint.nn.functional.pad(x, (1, 1), mode='reflect')
mint.nn.CrossEntropyLoss()(x, Tensor([1, 0, 3], ms.int32))
mint.nn.CrossEntropyLoss(reduction='none', label_smoothing=0.1)(x, Tensor([1, 0, 3], ms.int32))
mint.nn.Dropout(0.5).set_train(False)(x)
"""


def main():
    ns = {"ms": ms, "mint": mint, "Tensor": Tensor, "np": np}
    ns.update({k: Tensor(a) for k, a in ARRAYS.items()})
    rec = functools.partial(expr_cases.record, tensor=Tensor, mstype=ms.dtype.Type,
                            py_type=True)
    cases = expr_cases.evaluate([(None, CASES)], ns, rec)
    expr_cases.write("mint.json", expr_cases.plain_inputs(ARRAYS), cases)


if __name__ == "__main__":
    main()
