"""Indexing, scatter, sorting and padding rows beyond the op table: MindSpore 2.10's
output dtypes, in-place updates, Tensor method overloads, primitives and errors."""
import jax
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops
from msxla.common.tensor import wrap
from helpers import assert_close

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_gather_family():
    x = Tensor(X)
    assert_close(ops.gather(x, Tensor([2, 0], ms.int32), 1), X[:, [2, 0]])
    assert_close(ops.gather(x, Tensor([-1]), 0), X[[-1]])
    assert_close(ops.gather(Tensor([1, 2, 3]), Tensor(1), 0), np.int64(2))
    bd = np.array([[0, 1], [2, 1], [3, 3]])
    assert_close(ops.gather(x, Tensor(bd), 1, 1), np.take_along_axis(X, bd, 1))
    assert_close(ops.Gather(batch_dims=1)(x, Tensor(bd), 1), np.take_along_axis(X, bd, 1))
    assert_close(x.gather(Tensor([1]), 0), X[[1]])
    assert_close(ops.gather_elements(x, 0, Tensor([[0, 1, 2, 0]])), np.array([[0., 5, 10, 3]],
                                                                             np.float32))
    assert_close(ops.gather_d(x, 1, Tensor([[0, 1], [2, 1], [3, 3]])),
                 np.array([[0., 1], [6, 5], [11, 11]], np.float32))
    assert_close(ops.GatherD()(x, 1, Tensor(bd)), np.take_along_axis(X, bd, 1))
    assert_close(ops.gather_nd(x, Tensor([[0], [2]])), X[[0, 2]])
    assert_close(ops.GatherNd()(x, Tensor([[0, 1], [2, 3]])), np.array([1., 11.], np.float32))
    assert_close(x.index_select(1, Tensor([3, 0])), X[:, [3, 0]])
    assert_close(x.index_select(axis=0, index=Tensor([2], ms.int32)), X[[2]])
    assert_close(ops.take(x, Tensor([[0, 5], [11, 3]])), X.reshape(-1)[[[0, 5], [11, 3]]])
    with pytest.raises(TypeError, match="int32 or int64"):
        ops.gather(x, Tensor([0.0]), 0)


def test_where_select_and_masked_ops():
    x = Tensor(X)
    assert ops.where(x > 5, 1, 0).dtype is ms.int64
    out = ops.where(x > 5, Tensor([1, 2, 3, 4], ms.int32), 0.5)
    assert out.dtype is ms.float32
    assert ops.where(Tensor([True]), Tensor([1.], ms.float16), Tensor([3.])).dtype is ms.float32
    assert_close(x.where(x > 5, 0.), np.where(X > 5, X, 0))
    assert ops.select(Tensor([True, False]), 2, 3).tolist() == [2, 3]
    assert_close(ops.Select()(x > 5, x, x * 2), np.where(X > 5, X, 2 * X))
    assert_close(ops.masked_fill(Tensor([1, 2], ms.int32), Tensor([True, False]), 5),
                 np.array([5, 2], np.int32))
    assert_close(ops.masked_fill(Tensor([1., 2.]), Tensor([[True, False], [False, True]]), 0.),
                 np.array([[0., 2.], [1., 0.]], np.float32))
    assert_close(x.masked_select(x > 5), X[X > 5])
    assert_close(ops.masked_select(x, Tensor([True, False, True, False])), X[:, [0, 2]].ravel())
    assert_close(ops.nonzero(Tensor([True, False, True])), np.array([[0], [2]]))
    assert_close(ops.nonzero(x, as_tuple=True), tuple(np.nonzero(X)))
    assert_close(ops.NonZero()(Tensor([[0, 1], [2, 0]])), np.array([[0, 1], [1, 0]]))
    with pytest.raises(ValueError, match="dimension of 'x'"):
        ops.nonzero(Tensor(3))


def test_data_dependent_ops_refuse_to_trace():
    def f(x):
        return ops.masked_select(wrap(x), wrap(x) > 1)._data
    with pytest.raises(RuntimeError, match="For 'masked_select'.*eagerly"):
        jax.jit(f)(X)
    with pytest.raises(RuntimeError, match="For 'unique'"):
        jax.jit(lambda x: ops.unique(wrap(x))[0]._data)(X)


def test_one_hot_dtypes_and_axis():
    assert_close(ops.one_hot(Tensor([0, 2, 1]), 3), np.eye(3, dtype=np.int64)[[0, 2, 1]])
    out = ops.one_hot(Tensor([0, 2, -1], ms.int32), 3, Tensor(1.), Tensor(0.))
    assert_close(out, np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0]], np.float32))
    assert_close(ops.one_hot(Tensor([0, 2]), 3, axis=0), np.array([[1, 0], [0, 0], [0, 1]]))
    out = ops.OneHot(axis=0)(Tensor([0, 2], ms.int32), 3, Tensor(1., ms.float16),
                             Tensor(0., ms.float16))
    assert out.dtype is ms.float16 and out.shape == (3, 2)
    assert ops.one_hot(Tensor([0, 1]), Tensor(2), 1., 0.).dtype is ms.float32


def test_slice_and_strided_slice():
    x3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = Tensor(x3)
    assert_close(ops.slice(t, (0, 1, 0), (2, -1, 2)), x3[:, 1:, :2])
    assert_close(ops.Slice()(t, [1, 0, 1], [1, 2, 3]), x3[1:, :2, 1:])
    with pytest.raises(ValueError, match="no greater than"):
        ops.slice(t, (0, 3, 0), (2, 2, 1))
    ss = ops.strided_slice
    assert_close(ss(t, (1, 2, 3), (0, 0, 0), (-1, -1, -2)), x3[1:0:-1, 2:0:-1, 3:0:-2])
    assert_close(ss(t, (1, 1, 1), (2, 3, 4), (1, 1, 1), begin_mask=0b101), x3[:2, 1:3, :4])
    assert_close(ss(t, (0, 0, 1), (1, 1, 1), (1, 1, 1), end_mask=0b110), x3[0:1, 0:, 1:])
    assert_close(ss(t, (1, 0, 0), (2, 3, 4), (1, 1, 1), shrink_axis_mask=1), x3[1])
    assert_close(ss(t, (0, 0, 0), (2, 3, 4), (1, 1, 1), new_axis_mask=2), x3[0:2, None, 0:3])
    assert_close(ss(t, (1, 0, 1), (2, 0, 3), (1, 1, 1), ellipsis_mask=2), x3[1:2, ..., 1:3])
    assert_close(ss(t, (0, -2, -3), (2, -1, -1), (1, 1, 1)), x3[0:2, -2:-1, -3:-1])
    assert_close(ss(t, (1,), (2,), (1,)), x3[1:2])
    assert_close(ops.StridedSlice(shrink_axis_mask=1)(t, (1, 0, 0), (2, 3, 4), (1, 1, 1)), x3[1])
    with pytest.raises(ValueError, match="strides"):
        ss(t, (0,), (1,), (0,))


def test_in_place_scatters_update_tensors_and_parameters():
    t = Tensor(np.zeros(3, np.float32))
    out = ops.scatter_add(t, Tensor([0, 0, 2]), Tensor([1., 2., 3.]))
    assert t.tolist() == [3, 0, 3] and out.tolist() == [3, 0, 3]
    p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")
    ops.scatter_update(p, Tensor([1]), Tensor([7.]))
    ops.ScatterAdd()(p, Tensor([1, 2]), Tensor([1., 1.]))
    assert isinstance(p, Parameter) and p.tolist() == [0, 8, 1]
    q = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="q")
    ops.index_add(q, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 2), np.float32)), 0)
    assert q.tolist() == [[1, 1], [0, 0], [1, 1]]
    ops.IndexAdd(axis=1)(q, Tensor([1], ms.int32), Tensor(np.ones((3, 1), np.float32)))
    assert q.tolist() == [[1, 2], [0, 1], [1, 2]]
    r = Tensor(np.zeros(4, np.float32))
    ops.scatter_nd_add(r, Tensor([[0], [2], [0]]), Tensor([1., 2., 3.]))
    assert r.tolist() == [4, 0, 2, 0]
    assert ops.scatter_max(Tensor(np.zeros(3, np.float32)), Tensor([0, 0]),
                           Tensor([-1., 2.])).tolist() == [2, 0, 0]
    assert ops.scatter_div(Tensor(np.ones(3, np.float32)), Tensor([0, 0]),
                           Tensor([2., 2.])).tolist() == [0.25, 1, 1]


def test_functional_scatters():
    x = Tensor(X)
    idx = Tensor([[1, 0], [2, 3], [0, 0]])
    nine = Tensor(np.full((3, 2), 9, np.float32))
    e = X.copy()
    e[0, :2] = e[1, 2:] = e[2, 0] = 9
    assert_close(ops.scatter(x, 1, idx, nine), e)
    assert_close(x.scatter(1, idx, nine), e)
    e5 = X.copy()
    e5[0, :2] = e5[1, 2:] = e5[2, 0] = 5
    assert_close(x.scatter(1, idx, 5.0), e5)
    ea = X.copy()
    np.add.at(ea, (np.arange(3)[:, None], idx.asnumpy()), 1)
    assert_close(x.scatter(1, idx, Tensor(np.ones((3, 2), np.float32)), reduce="add"), ea)
    assert_close(x.scatter_add(1, idx, Tensor(np.ones((3, 2), np.float32))), ea)
    assert_close(ops.tensor_scatter_add(x, Tensor([[0, 0], [0, 0]]), Tensor([100., 200.]))[0, 0],
                 np.float32(300))
    assert_close(x.scatter_add(Tensor([[0, 0]]), Tensor([1.])), X + np.eye(3, 4, dtype=np.float32)
                 * (np.arange(3)[:, None] == 0))
    assert_close(ops.tensor_scatter_mul(x, Tensor([[0, 1], [0, 1]]), Tensor([2., 3.]))[0, 1],
                 np.float32(6))
    assert_close(ops.tensor_scatter_elements(x, Tensor([[1, 0]]), Tensor([[7., 8.]]), 1,
                                             "add")[0, :2], np.array([8., 8.], np.float32))
    assert_close(ops.scatter_nd(Tensor([[0, 1], [2, 2]]), Tensor([1., 2.]), (3, 3)),
                 np.array([[0, 1, 0], [0, 0, 0], [0, 0, 2]], np.float32))
    assert_close(ops.TensorScatterUpdate()(x, Tensor([[0, 0]]), Tensor([-1.]))[0, 0],
                 np.float32(-1))
    assert_close(ops.index_fill(x, 1, Tensor([0, 2], ms.int32), 7.)[:, [0, 2]],
                 np.full((3, 2), 7, np.float32))
    e2 = np.zeros((3, 2), np.float32)
    e2[[0, 2]] = 2
    assert_close(Tensor(np.zeros((3, 2), np.float32)).index_add(
        0, Tensor([0, 2], ms.int32), Tensor(np.ones((2, 2), np.float32)), alpha=2), e2)
    with pytest.raises(ValueError, match="dimension of 'indices' cannot be less than 2"):
        ops.tensor_scatter_update(Tensor(np.zeros(3)), Tensor([0, 2]), Tensor([2., 3.]))
    with pytest.raises(ValueError, match="shape of 'updates'"):
        ops.tensor_scatter_add(x, Tensor([[0, 0]]), Tensor([1., 2.]))


def test_topk_sort_argsort():
    x = Tensor(np.array([[1., 5., 3., 5.], [4., 2., 6., 0.]], np.float32))
    v, i = ops.topk(x, 2)
    assert_close((v, i), (np.array([[5., 5.], [6., 4.]], np.float32),
                          np.array([[1, 3], [2, 0]], np.int32)))
    assert_close(ops.topk(x, 1, 0)[1], np.array([[1, 0, 1, 0]], np.int32))
    assert_close(x.topk(2, dim=1, largest=False)[1], np.array([[0, 2], [3, 1]], np.int32))
    assert_close(ops.topk(Tensor([3, 1, 2], ms.int32), 2, largest=False),
                 (np.array([1, 2], np.int32), np.array([1, 2], np.int32)))
    assert ops.TopK()(x, 2)[1].dtype is ms.int32
    with pytest.raises(ValueError, match="k must be in"):
        ops.topk(Tensor([1., 2.]), 3)
    s = Tensor([1., 0., 1., 0., 1.])
    assert ops.sort(s)[1].tolist() == [1, 3, 0, 2, 4]
    assert ops.sort(s, descending=True)[1].tolist() == [0, 2, 4, 1, 3]
    assert ops.Sort(axis=-1, descending=True)(s)[1].tolist() == [0, 2, 4, 1, 3]
    assert x.sort(dim=0)[1].dtype is ms.int32
    assert_close(x.sort(descending=True)[0], -np.sort(-x.asnumpy(), -1))
    assert s.argsort(stable=True).tolist() == [1, 3, 0, 2, 4]
    assert ops.argsort(x, 1, True).tolist() == [[1, 3, 2, 0], [2, 0, 1, 3]]
    assert x.argsort(axis=0).dtype is ms.int32


def test_unique_searchsorted_bucketize_bincount():
    out, idx = ops.unique(Tensor([5, 1, 9, 1, 5, 0]))
    assert out.tolist() == [5, 1, 9, 0] and idx.tolist() == [0, 1, 2, 1, 0, 3]
    assert idx.dtype is ms.int64
    assert ops.unique(Tensor([[3., 1.], [1., 5.]]))[1].dtype is ms.int32
    assert ops.Unique()(Tensor([3, 1, 3]))[0].tolist() == [3, 1]
    vals, inv, counts = Tensor([3, 1, 2, 1, 3]).unique(return_inverse=True, return_counts=True)
    assert vals.tolist() == [1, 2, 3] and inv.tolist() == [2, 0, 1, 0, 2]
    assert counts.tolist() == [2, 1, 2]
    s = Tensor(np.array([1., 3., 5., 7.], np.float32))
    v = Tensor(np.array([[3., 6., 9.], [0., 1., 7.]], np.float32))
    assert ops.searchsorted(s, v).tolist() == [[1, 3, 4], [0, 0, 3]]
    assert ops.searchsorted(s, v, right=True).tolist() == [[2, 3, 4], [0, 1, 4]]
    assert ops.searchsorted(s, v, side="right").tolist() == [[2, 3, 4], [0, 1, 4]]
    s2 = Tensor(np.array([[1., 3., 5.], [2., 4., 6.]], np.float32))
    assert ops.searchsorted(s2, v).tolist() == [[1, 3, 3], [0, 0, 3]]
    assert ops.searchsorted(Tensor([5., 1., 3.]), Tensor([2., 4.]),
                            sorter=Tensor([1, 2, 0])).tolist() == [1, 2]
    out = s.searchsorted(Tensor([3., 6.]))
    assert out.dtype is ms.int32 and out.tolist() == [1, 3]
    b = ops.bucketize(Tensor([[1, 4, 9], [3, 6, 10]]), [1, 3, 5, 7])
    assert b.dtype is ms.int32 and b.tolist() == [[0, 2, 4], [1, 3, 4]]
    assert ops.bucketize(Tensor([[1., 4, 9]]), [1., 3, 5, 7], right=True).tolist() == [[1, 2, 4]]
    c = ops.bincount(Tensor([1, 1, 3, 0], ms.int32))
    assert c.dtype is ms.float32 and c.tolist() == [1, 2, 0, 1]
    assert ops.bincount(Tensor([1, 1, 3]), minlength=6).tolist() == [0, 2, 0, 1, 0, 0]
    assert ops.bincount(Tensor([1, 1, 3, 0]), Tensor([0.5, 1., 2., 1.])).tolist() == \
        [1, 1.5, 0, 2]


def test_pad_modes_and_errors():
    x = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    t = Tensor(x)
    assert_close(ops.pad(t, (1, 2)), np.pad(x, ((0, 0), (0, 0), (1, 2))))
    assert_close(ops.pad(t, [1, 1, 0, 1], value=9.), np.pad(x, ((0, 0), (0, 1), (1, 1)),
                                                            constant_values=9))
    assert_close(ops.pad(t, (-1, 1)), np.array([[[1, 2, 0], [4, 5, 0]]], np.float32))
    assert_close(ops.pad(t, (2, 1), mode="reflect"), np.pad(x, ((0, 0), (0, 0), (2, 1)),
                                                            mode="reflect"))
    assert_close(ops.pad(t, (2, 1), mode="circular"), np.pad(x, ((0, 0), (0, 0), (2, 1)),
                                                             mode="wrap"))
    assert_close(ops.pad(Tensor([[1, 2]]), (1, 1), value=3), np.array([[3, 1, 2, 3]]))
    assert_close(ops.Pad(((0, 0), (1, 1), (2, 0)))(t), np.pad(x, ((0, 0), (1, 1), (2, 0))))
    with pytest.raises(ValueError, match="divisible by 2"):
        ops.pad(t, (1,))
    with pytest.raises(ValueError, match="less than the corresponding input dimension"):
        ops.pad(t, (3, 0), mode="reflect")
    with pytest.raises(ValueError, match="'mode'"):
        ops.pad(t, (1, 1), mode="foo")
