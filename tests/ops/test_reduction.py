"""Reductions beyond the op table: output dtypes, Tensor method overloads, primitives,
and errors, against values MindSpore 2.10 gives."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from helpers import assert_close

X = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)


@pytest.mark.parametrize("fn, dtype, out", [
    (ops.sum, ms.int32, ms.int64), (ops.sum, ms.bool_, ms.int64), (ops.sum, ms.uint8, ms.int64),
    (ops.sum, ms.float16, ms.float16), (ops.prod, ms.int8, ms.int64),
    (ops.prod, ms.bool_, ms.int64), (ops.mean, ms.int32, ms.int32),
    (ops.mean, ms.uint8, ms.uint8), (ops.amax, ms.int8, ms.int8), (ops.argmax, ms.int32, ms.int64),
    (ops.argmin, ms.float32, ms.int32), (ops.all, ms.int32, ms.bool_),
    (ops.count_nonzero, ms.float32, ms.int32),
])
def test_output_dtypes(fn, dtype, out):
    assert fn(Tensor(np.arange(6).reshape(2, 3), dtype)).dtype is out


def test_reduce_primitives_keep_dtype():
    xi = Tensor(np.arange(6).reshape(2, 3), ms.int32)
    assert ops.ReduceSum()(xi, 1).dtype is ms.int32
    assert ops.ReduceProd(keep_dims=True)(xi, 1).shape == (2, 1)
    assert_close(ops.ReduceSum()(Tensor([[True, False], [False, False]]), 1),
                 np.array([True, False]))
    assert_close(ops.ReduceMax(True)(Tensor(X), 1), np.array([[5.], [6.]], np.float32))
    assert_close(ops.ReduceMin()(Tensor(X), [0, 1]), np.float32(1.0))
    assert_close(ops.ReduceMean()(Tensor(X)), np.float32(3.5))
    assert_close(ops.ReduceSum()(Tensor(X), Tensor([1])), np.array([9., 12.], np.float32))
    assert_close(ops.ReduceAny()(Tensor(X)), np.bool_(True))


def test_mean_of_ints_truncates():
    assert ops.mean(Tensor([-1, -2], ms.int32)).item() == -1
    assert ops.mean(Tensor([1, 2], ms.int64)).item() == 1


def test_max_min_return_values_and_indices():
    x = Tensor(X)
    assert_close(ops.max(x), (np.float32(6), np.int64(0)))
    assert_close(ops.max(x, 1, True), (np.array([[5.], [6.]], np.float32),
                                       np.array([[1], [2]], np.int64)))
    assert_close(ops.min(x, 0), (np.array([1., 2., 3.], np.float32), np.array([0, 1, 0])))
    assert_close(ops.max(x, 1, initial=5.5), (np.array([5.5, 6.], np.float32), np.array([0, 2])))
    w = Tensor([True, False, True])
    assert_close(ops.max(x, 1, initial=0., where=w), (np.array([3., 6.], np.float32),
                                                      np.array([2, 2])))
    assert_close(ops.amax(x, 1, initial=0., where=w), np.array([3., 6.], np.float32))
    with pytest.raises(ValueError, match="initial"):
        ops.amax(x, 1, where=w)
    with pytest.raises(TypeError, match="int"):
        ops.max(x, (0, 1))


def test_tensor_max_overloads():
    x = Tensor(X)
    assert_close(x.max(), np.float32(6))
    assert_close(x.max(1), (np.array([5., 6.], np.float32), np.array([1, 2])))
    assert_close(x.max(dim=1, keepdim=True)[1], np.array([[1], [2]]))
    assert_close(x.max(axis=1), np.array([5., 6.], np.float32))
    assert_close(x.max(axis=(0, 1)), np.float32(6))
    assert_close(x.max(axis=1, return_indices=True), (np.array([5., 6.], np.float32),
                                                      np.array([1, 2])))
    assert_close(x.min(0)[1], np.array([0, 1, 0]))
    assert_close(x.min(axis=0), np.array([1., 2., 3.], np.float32))


def test_tensor_sum_mean_prod_overloads():
    x = Tensor(X)
    assert_close(x.sum(), np.float32(21))
    assert_close(x.sum(1, keepdim=True), np.array([[9.], [12.]], np.float32))
    assert_close(x.sum(axis=1, keepdims=True), np.array([[9.], [12.]], np.float32))
    assert_close(x.sum(1, ms.int32), np.array([9, 12], np.int32))
    assert_close(x.sum(initial=10), np.float32(31))
    assert_close(x.sum(dim=1, dtype=ms.float64), np.array([9., 12.]))
    assert_close(x.mean(1, True), np.array([[3.], [4.]], np.float32))
    assert_close(x.mean(axis=1, keep_dims=True), np.array([[3.], [4.]], np.float32))
    assert_close(x.mean(dim=1, dtype=ms.float64), np.array([3., 4.]))
    assert_close(x.prod(dim=1, keepdim=True), np.array([[15.], [48.]], np.float32))
    assert_close(x.argmax(1), np.array([1, 2]))
    assert_close(x.argmin(dim=1, keepdim=True), np.array([[0], [1]], np.int32))
    assert_close(x.all(axis=1, keep_dims=True), np.array([[True], [True]]))
    assert_close(x.any(dim=1), np.array([True, True]))
    assert_close(x.count_nonzero(), np.int32(6))
    with pytest.raises(TypeError, match="unexpected keyword"):
        x.sum(foo=1)


def test_std_var_methods_follow_mindspore():
    x = Tensor(X)
    assert_close(x.std(), np.float32(np.std(X)))
    assert_close(x.std(1), np.std(X, axis=1))  # ddof 0 unless given, as MindSpore on CPU
    assert_close(x.std(1, correction=1), np.array([2., 2.], np.float32))
    assert_close(x.var(axis=1, ddof=0, keepdims=True), np.var(X, axis=1, keepdims=True))
    assert_close(x.var(1, 1), np.var(X, axis=1, ddof=1))
    with pytest.raises(TypeError, match="float"):
        ops.std(Tensor([1, 2]))


def test_median_picks_lower_and_propagates_nan():
    xe = Tensor(np.array([[1., 5., 3., 7.], [4., 2., 6., 0.]], np.float32))
    assert_close(ops.median(xe), (np.array([3., 2.], np.float32), np.array([2, 1])))
    assert_close(xe.median(dim=0), ops.median(xe, 0))
    v, i = ops.median(Tensor([1., np.nan, 3.]))
    assert np.isnan(v.item()) and i.item() == 1


def test_scans_and_cumsum_primitive():
    x = Tensor(X)
    assert_close(x.cumsum(), np.cumsum(X))
    assert_close(x.cumsum(axis=1), np.cumsum(X, 1))
    assert_close(ops.cumsum(Tensor([100, 100], ms.int8), 0), np.array([100, -56], np.int8))
    assert ops.cumprod(Tensor([1, 2], ms.int32), 0).dtype is ms.int64
    assert_close(ops.CumSum()(x, 1), np.cumsum(X, 1))
    assert_close(ops.CumSum(exclusive=True)(x, 1), np.array([[0, 1, 6], [0, 4, 6]], np.float32))
    assert_close(ops.CumSum(reverse=True)(x, 1), np.array([[9, 8, 3], [12, 8, 6]], np.float32))
    assert_close(ops.CumSum(True, True)(x, 1), np.array([[8, 3, 0], [8, 6, 0]], np.float32))
    assert_close(ops.CumProd(True, True)(x, 1), np.array([[15, 3, 1], [12, 6, 1]], np.float32))
    assert_close(ops.cummax(Tensor([1., 3., 3., 1.]), 0)[1], np.array([0, 1, 2, 2]))
    assert_close(ops.cummin(Tensor([1., 3., 3., 1.]), 0)[1], np.array([0, 0, 0, 3], np.int32))
    v, i = ops.cummax(Tensor([1., np.nan, 3.]), 0)
    assert np.isnan(v.asnumpy()[1:]).all() and i.asnumpy().tolist() == [0, 1, 1]


def test_arg_primitives():
    x = Tensor(X)
    assert_close(ops.Argmax()(x), np.array([1, 2], np.int32))
    assert_close(ops.Argmax(axis=0, output_type=ms.int64)(x), np.array([1, 0, 1]))
    assert_close(ops.Argmin()(x), np.array([0, 1], np.int32))
    assert_close(ops.ArgMaxWithValue()(x), (np.array([1, 0, 1]), np.array([4., 5., 6.],
                                                                           np.float32)))
    assert_close(ops.ArgMinWithValue(axis=1, keep_dims=True)(x)[0], np.array([[0], [1]]))
    assert_close(x.argmax_with_value(), (np.array([4., 5., 6.], np.float32), np.array([1, 0, 1])))


@pytest.mark.parametrize("call", [
    lambda x: ops.sum(x, 2), lambda x: ops.mean(x, 5), lambda x: ops.argmax(x, 5),
    lambda x: ops.cumsum(x, 5), lambda x: ops.sum(x, (1, 1)),
])
def test_bad_axis_raises_value_error(call):
    with pytest.raises(ValueError, match="For '"):
        call(Tensor(X))


def test_logsumexp_is_stable():
    assert_close(ops.logsumexp(Tensor([1000., 1000.]), 0), np.float32(1000 + np.log(2)))
    assert_close(ops.logsumexp(Tensor(X), (0, 1), True), np.log(np.exp(X).sum()).reshape(1, 1))
