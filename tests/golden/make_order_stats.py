"""Writes order_stats.json: MindSpore 2.10's results for segment reductions, order
statistics, view scatters and the remaining math rows.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_order_stats.py``.

Each case is a Python expression over the inputs below (fixed values, stored in
the JSON). For each it records the output (dtype, shape and values; tuples of
outputs too), or the name of the builtin exception class MindSpore raised.
``tests/ops/test_order_stats_golden.py`` evaluates the same expressions with
``import msxla as ms``. A case whose MindSpore CPU build has no kernel is
recorded as an error with an empty message and checked against numpy instead.
"""
import functools

import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

import expr_cases

ms.set_context(pynative_synchronize=True)

NAN = float("nan")
ARRAYS = {
    "x": np.array([[1.0, -2.0, 3.0], [4.0, 0.5, -6.0], [7.0, 8.0, 9.0], [-1.0, 2.0, 2.0],
                   [0.0, 3.0, -4.0]], np.float32),
    "xi": np.array([[1, -2, 3], [4, 5, -6], [7, 8, 9], [-1, 2, 2], [0, 3, -4]], np.int32),
    "ids": np.array([0, 2, 0, 3, 2], np.int32),
    "ids_out": np.array([0, 5, 0, -1, 2], np.int32),
    "ids2": np.array([[0, 1], [1, 0]], np.int32),
    "m": np.arange(12, dtype=np.float32).reshape(3, 4),
    "seq": np.arange(12, dtype=np.float32).reshape(3, 4),
    "lens": np.array([1, 3, 4], np.int32),
    "lens_t": np.array([2, 3, 1, 0], np.int32),
    "nanv": np.array([[1.0, NAN, 3.0, 2.0, NAN, 0.5], [NAN, NAN, NAN, 1.0, 2.0, 3.0],
                      [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]], np.float32),
    "allnan": np.array([NAN, NAN, NAN], np.float32),
    "h": np.array([-1.5, 0.2, 0.3, 1.0, 2.0, 2.5, -3.0, 0.0], np.float32),
    "b": np.array([[True, False, False, True]]),
    "u": np.array([1, 1, 2, 2, 2, 3, 1, 1], np.int32),
    "u2": np.array([[1, 1, 2], [1, 1, 2], [3, 1, 2]], np.int32),
    "up": np.array([5, 3, 5, 1, 3, 7], np.int32),
    "src2": np.array([[10.0, 11.0, 12.0, 13.0], [20.0, 21.0, 22.0, 23.0]], np.float32),
    "src3": np.array([-1.0, -2.0, -3.0], np.float32),
    "low": np.array([[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [-1.0, 0.25, 3.0]], np.float32),
    "sq": np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.0], [0.5, 0.0, 4.0]], np.float32),
    "obs": np.array([[0.0, 1.0, 2.0, 4.0], [1.0, 0.5, -1.0, 2.0]], np.float32),
    "fw": np.array([1, 2, 1, 3], np.int32),
    "aw": np.array([0.5, 1.0, 2.0, 1.0], np.float32),
    "ga": np.array([0.5, 1.0, 2.0, 4.5], np.float32),
    "gx": np.array([0.3, 1.0, 2.5, 3.0], np.float32),
    "mv": np.array([2.5, 3.0, 4.0], np.float32),
}

CASES = """
ops.unsorted_segment_sum(x, ids, 4)
ops.unsorted_segment_sum(xi, ids, 4)
ops.unsorted_segment_max(x, ids, 4)
ops.unsorted_segment_max(xi, ids, 4)
ops.unsorted_segment_min(x, ids, 4)
ops.unsorted_segment_min(xi, ids, 4)
ops.unsorted_segment_prod(x, ids, 4)
ops.unsorted_segment_prod(xi, ids, 4)
ops.unsorted_segment_sum(x, ids_out, 3)
ops.unsorted_segment_sum(m[:2, :2], ids2, 2)
ops.UnsortedSegmentSum()(x, ids, 4)
ops.UnsortedSegmentMax()(x, ids, 4)
ops.UnsortedSegmentMin()(x, ids, 4)
ops.UnsortedSegmentProd()(x, ids, 4)
x.unsorted_segment_max(ids, 4)
ops.reverse_sequence(seq, lens, 1, 0)
ops.reverse_sequence(seq, lens_t, 0, 1)
ops.ReverseSequence(1, 0)(seq, lens)
ops.quantile(x, 0.3)
ops.quantile(x, 0.3, axis=1)
ops.quantile(x, Tensor([0.25, 0.75], ms.float32), axis=0, keepdims=True)
ops.nanquantile(nanv, 0.5, axis=1)
ops.nanmedian(nanv)
ops.nanmedian(nanv, 0)
ops.nanmedian(nanv, 1, True)
ops.nanmedian(allnan)
nanv.nanmedian()
ops.msort(x)
ops.msort(xi)
ops.aminmax(x)
ops.aminmax(x, axis=1, keepdims=True)
ops.aminmax(xi, axis=-1)
x.aminmax(axis=0)
ops.top_k(x, 2)
ops.top_k(xi, 1, False)
ops.histc(h, 4)
ops.histc(h, 5, -2.0, 2.0)
ops.histc(h, 3, 1.0, 1.0)
ops.Histogram(4, -3.0, 3.0)(h)
h.histc(bins=4, min=-1.0, max=1.0)
ops.diff(x)
ops.diff(x, 1, 0)
ops.diff(xi, axis=0)
ops.diff(b)
ops.diff(x, 1, 0, x[:1])
ops.diff(x, 1, -1, None, x[:, :2])
ops.diff(x, 2)
ops.slice_scatter(m, src2, 0, 0, 3, 2)
ops.slice_scatter(m, src2[:, :3].T, 1, 1)
ops.select_scatter(m, src3, 1, 2)
ops.select_scatter(m, src2[0], 0, -1)
ops.select_scatter(m, src2[0], 0, 3)
ops.diagonal_scatter(m, src3)
ops.diagonal_scatter(m, src3, 1)
ops.diagonal_scatter(m, src3[:2], -1)
ops.diagonal_scatter(m.T, src3, 0, 1, 0)
ops.inplace_update(m, src2[:, :4], (2, 0))
ops.inplace_update(m, src2[:1], 1)
ops.InplaceUpdate((0, 2))(m, src2)
ops.matrix_determinant(sq)
ops.log_matrix_determinant(sq)
ops.log_matrix_determinant(-sq)
ops.cholesky_inverse(low)
ops.cholesky_inverse(low.T, upper=True)
ops.CholeskyInverse(False)(low)
ops.cov(obs)
ops.cov(obs, correction=0)
ops.cov(obs, fweights=fw)
ops.cov(obs, aweights=aw)
ops.cov(obs, fweights=fw, aweights=aw)
ops.cov(obs[0])
ops.renorm(m, 2, 0, 5.0)
ops.renorm(m, 1, 1, 10.0)
ops.Renorm(2, 0, 5.0)(m)
ops.approximate_equal(x, x + 0.3, 0.5)
ops.approximate_equal(x, x + 0.3)
ops.ApproximateEqual(0.5)(x, x + 0.3)
ops.mvlgamma(mv, 1)
ops.mvlgamma(mv, 3)
ops.Mvlgamma(2)(mv)
ops.igamma(ga, gx)
ops.igammac(ga, gx)
ops.Igamma()(ga, gx)
ops.fills(x, 2.5)
ops.fills(xi, 2.0)
ops.unique_consecutive(u)
ops.unique_consecutive(u, True, True)
ops.unique_consecutive(u2, True, True, 0)
ops.unique_consecutive(u2, return_counts=True, dim=1)
ops.unique_with_pad(up, 0)
ops.unique_with_pad(up, -1)
m.ptp()
m.ptp(axis=1, keepdims=True)
"""


def _inputs():
    """The inputs, with the positions of their NaNs (stored as 0 in the values)."""
    out = {}
    for k, a in ARRAYS.items():
        nans = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
        out[k] = {"dtype": str(a.dtype), "values": np.where(nans, 0, a).tolist()
                  if nans.any() else a.tolist(), "nan": np.argwhere(nans).tolist()
                  if a.dtype.kind == "f" else []}
    return out


def main():
    ns = {"ms": ms, "ops": ops, "Tensor": Tensor, "np": np}
    ns.update({k: Tensor(a) for k, a in ARRAYS.items()})
    rec = functools.partial(expr_cases.record, tensor=Tensor, nan="null")
    cases = expr_cases.evaluate([(None, CASES)], ns, rec)
    expr_cases.write("order_stats.json", _inputs(), cases)


if __name__ == "__main__":
    main()
