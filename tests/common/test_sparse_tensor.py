"""CSRTensor and COOTensor (``mindspore.CSRTensor``, ``mindspore.COOTensor``) and the
sparse functions of ``ops``: values against numpy's dense computations, MindSpore's
errors, and the same programs in PyNative and every capture mode."""
import numpy as np
import pytest

import msxla as ms
from msxla import COOTensor, CSRTensor, Tensor, nn, ops
from msxla.errors import ConcretizationError
from modes import make

RNG = np.random.default_rng(0)
DENSE = np.array([[0, 2, 0, 0], [1, 0, 0, 3], [0, 0, 0, 0]], np.float32)


def _csr(dense=DENSE, dtype=ms.int32):
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))])
    return CSRTensor(Tensor(indptr, dtype), Tensor(cols, dtype), Tensor(dense[rows, cols]),
                     dense.shape)


def _coo(dense=DENSE, dtype=ms.int32):
    idx = np.argwhere(dense)
    return COOTensor(Tensor(idx, dtype), Tensor(dense[idx[:, 0], idx[:, 1]]), dense.shape)


# ------------------------------------------------------------------ names
def test_names_resolve_where_mindspore_has_them():
    import msxla.common
    import msxla.common.sparse_tensor as st
    assert ms.CSRTensor is msxla.common.CSRTensor is st.CSRTensor
    assert ms.COOTensor is msxla.common.COOTensor is st.COOTensor
    assert ms.RowTensor is st.RowTensor and ms.SparseTensor is st.SparseTensor
    for name in ("csr_to_coo", "coo2csr", "csr2coo", "dense_to_sparse_csr", "dense_to_sparse_coo",
                 "csr_mul", "csr_mv", "csr_reduce_sum", "coo_abs", "csr_tanh", "coalesce"):
        assert callable(getattr(ops, name)), name


def test_multitype_dispatch_on_sparse_types():
    f = ops.MultitypeFuncGraph("f")
    f.register("CSRTensor")(lambda x: "csr")
    f.register("COOTensor")(lambda x: "coo")
    f.register("Tensor")(lambda x: "tensor")
    assert (f(_csr()), f(_coo()), f(Tensor(1.0))) == ("csr", "coo", "tensor")


# ------------------------------------------------------------------ CSRTensor
def test_csr_properties_and_dense():
    c = _csr()
    assert c.shape == (3, 4) and c.ndim == 2 and c.size == 3 and c.itemsize == 4
    assert c.dtype == ms.float32
    np.testing.assert_array_equal(c.indptr.asnumpy(), [0, 1, 3, 3])
    np.testing.assert_array_equal(c.to_dense().asnumpy(), DENSE)
    assert [t.shape for t in c.to_tuple()[:3]] == [(4,), (3,), (3,)] and c.to_tuple()[3] == (3, 4)
    assert c.astype(ms.float64).dtype == ms.float64
    np.testing.assert_array_equal((-c).to_dense().asnumpy(), -DENSE)
    np.testing.assert_array_equal(CSRTensor(csr_tensor=c).to_dense().asnumpy(), DENSE)
    assert repr(c).startswith("CSRTensor(shape=[3, 4], dtype=Float32, indptr=Tensor(")


def test_csr_products_and_sums():
    c = _csr()
    vec = RNG.standard_normal((4, 1)).astype(np.float32)
    mat = RNG.standard_normal((4, 5)).astype(np.float32)
    np.testing.assert_allclose(c.mv(Tensor(vec)).asnumpy(), DENSE @ vec, rtol=1e-6)
    np.testing.assert_allclose(ops.csr_mv(c, Tensor(vec)).asnumpy(), DENSE @ vec, rtol=1e-6)
    np.testing.assert_allclose(c.mm(Tensor(mat)).asnumpy(), DENSE @ mat, rtol=1e-6)
    np.testing.assert_array_equal(c.sum(1).asnumpy(), DENSE.sum(1, keepdims=True))
    np.testing.assert_array_equal(ops.csr_reduce_sum(c, 0).asnumpy(), DENSE.sum(0, keepdims=True))
    y = RNG.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose((c * Tensor(y)).to_dense().asnumpy(), DENSE * y, rtol=1e-6)
    row = RNG.standard_normal((4,)).astype(np.float32) + 2
    np.testing.assert_allclose((c / Tensor(row)).to_dense().asnumpy(), DENSE / row, rtol=1e-6)
    # as MindSpore: a scalar factor gives the stored values, a dense Tensor
    np.testing.assert_array_equal(ops.csr_mul(c, 2.0).asnumpy(), [4, 2, 6])
    np.testing.assert_array_equal(c.abs().values.asnumpy(), [2, 1, 3])


def test_csr_add_merges_patterns():
    other = np.array([[1, 2, 0, 0], [0, 0, 0, -3], [0, 5, 0, 0]], np.float32)
    s = _csr() + _csr(other)
    np.testing.assert_array_equal(s.to_dense().asnumpy(), DENSE + other)
    np.testing.assert_array_equal(s.indptr.asnumpy(), [0, 2, 4, 5])
    d = _csr() - _csr(other)
    np.testing.assert_array_equal(d.to_dense().asnumpy(), DENSE - other)
    a = ops.csr_add(_csr(), _csr(other), Tensor(2.0, ms.float32), Tensor(0.5, ms.float32))
    np.testing.assert_array_equal(a.to_dense().asnumpy(), 2 * DENSE + 0.5 * other)
    m = ops.csr_mm(_csr(), _csr(DENSE.T.copy()))
    np.testing.assert_allclose(m.to_dense().asnumpy(), DENSE @ DENSE.T)


def test_csr_conversions_and_softmax():
    c = _csr()
    coo = c.to_coo()
    np.testing.assert_array_equal(coo.indices.asnumpy(), np.argwhere(DENSE))
    np.testing.assert_array_equal(ops.csr_to_coo(c).to_dense().asnumpy(), DENSE)
    np.testing.assert_array_equal(ops.csr_to_dense(c).asnumpy(), DENSE)
    np.testing.assert_array_equal(ops.csr2coo(c.indptr, 3).asnumpy(), [0, 1, 1])
    np.testing.assert_array_equal(ops.coo2csr(Tensor([0, 1, 1], ms.int32), 3).asnumpy(),
                                  [0, 1, 3, 3])
    d = ops.dense_to_sparse_csr(Tensor(DENSE))
    np.testing.assert_array_equal(d.indptr.asnumpy(), c.indptr.asnumpy())
    assert d.indices.dtype == ms.int32
    sm = ops.csr_softmax(c, ms.float32).values.asnumpy()
    e = np.exp([0.0, 1 - 3, 0.0])
    np.testing.assert_allclose(sm, [1.0, e[1] / (e[1] + 1), 1 / (e[1] + 1)], rtol=1e-6)
    np.testing.assert_allclose(ops.csr_exp(c).values.asnumpy(), np.exp([2, 1, 3]), rtol=1e-6)
    g = ops.csr_gather(c.indptr, c.indices, Tensor(DENSE * 10), (3, 4))
    np.testing.assert_array_equal(g.asnumpy(), [20, 10, 30])


# ------------------------------------------------------------------ COOTensor
def test_coo_properties_and_ops():
    c = _coo()
    assert c.shape == (3, 4) and c.ndim == 2 and c.size == 3 and c.dtype == ms.float32
    np.testing.assert_array_equal(c.to_dense().asnumpy(), DENSE)
    y = RNG.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose((c + Tensor(y)).asnumpy(), DENSE + y, rtol=1e-6)
    np.testing.assert_allclose((c - Tensor(y)).asnumpy(), DENSE - y, rtol=1e-6)
    np.testing.assert_allclose((c * Tensor(y)).to_dense().asnumpy(), DENSE * y, rtol=1e-6)
    np.testing.assert_allclose((c / Tensor(y)).to_dense().asnumpy(),
                               np.where(DENSE != 0, DENSE / y, 0), rtol=1e-6)
    np.testing.assert_array_equal((-c).abs().to_dense().asnumpy(), DENSE)
    np.testing.assert_array_equal(c.to_csr().to_dense().asnumpy(), DENSE)
    assert c.astype(ms.float16).dtype == ms.float16
    np.testing.assert_array_equal(ops.coo_neg(c).to_dense().asnumpy(), -DENSE)


def test_coo_add_coalesce_concat():
    a = COOTensor(Tensor([[0, 1], [1, 2]], ms.int64), Tensor([1, 2], ms.int32), (3, 4))
    b = COOTensor(Tensor([[0, 0], [1, 1]], ms.int64), Tensor([3, 4], ms.int32), (3, 4))
    s = a.add(b, Tensor(0, ms.int32))
    np.testing.assert_array_equal(s.indices.asnumpy(), [[0, 0], [0, 1], [1, 1], [1, 2]])
    np.testing.assert_array_equal(s.values.asnumpy(), [3, 1, 4, 2])
    np.testing.assert_array_equal((a + b).to_dense().asnumpy(),
                                  a.to_dense().asnumpy() + b.to_dense().asnumpy())
    dup = COOTensor(Tensor([[0, 1], [0, 1], [1, 2]], ms.int64), Tensor([1.0, 5.0, 4.0]), (3, 3))
    co = dup.coalesce()
    np.testing.assert_array_equal(co.indices.asnumpy(), [[0, 1], [1, 2]])
    np.testing.assert_array_equal(co.values.asnumpy(), [6, 4])
    np.testing.assert_array_equal(co.to_dense().asnumpy(), dup.to_dense().asnumpy())
    cat = ops.coo_concat((a, b), 1)
    assert cat.shape == (3, 8)
    np.testing.assert_array_equal(cat.indices.asnumpy(), [[0, 1], [0, 4], [1, 2], [1, 5]])
    np.testing.assert_array_equal(cat.values.asnumpy(), [1, 3, 2, 4])
    np.testing.assert_array_equal(ops.dense_to_sparse_coo(Tensor(DENSE)).to_dense().asnumpy(),
                                  DENSE)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("build, exc, words", [
    (lambda: CSRTensor([0, 1], Tensor([0]), Tensor([1.0]), (1, 2)), TypeError, "'indptr' must be"),
    (lambda: CSRTensor(Tensor([0, 1]), Tensor([0]), Tensor([1.0]), [1, 2]), TypeError, "tuple"),
    (lambda: CSRTensor(Tensor([0, 1, 1]), Tensor([0]), Tensor([1.0]), (1, 2)), ValueError,
     "indptr must have length"),
    (lambda: CSRTensor(Tensor([0, 1]), Tensor([0, 1]), Tensor([1.0]), (1, 2)), ValueError,
     "indices and values must equal"),
    (lambda: CSRTensor(Tensor([0.0, 1.0]), Tensor([0]), Tensor([1.0]), (1, 2)), TypeError,
     "int16 or int32 or int64"),
    (lambda: CSRTensor(Tensor([0, 1]), Tensor([0]), Tensor([1.0]), (1, 0)), ValueError,
     "must be positive"),
    (lambda: CSRTensor(csr_tensor=Tensor([1])), TypeError, "to be a CSRTensor"),
    (lambda: COOTensor(Tensor([[0, 1]]), Tensor([1.0]), (2, 2, 2)), ValueError,
     "length of 'shape' must be 2"),
    (lambda: COOTensor(Tensor([[0, 1, 2]]), Tensor([1.0]), (2, 3)), ValueError,
     "'indices.shape[1]' must be 2"),
    (lambda: COOTensor(Tensor([[0.0, 1.0]]), Tensor([1.0]), (2, 3)), TypeError,
     "one of [int16, int32, int64]"),
    (lambda: _coo() + _csr(), TypeError, "not supported"),
    (lambda: _coo() * Tensor(np.ones((2, 2), np.float32)), ValueError, "same shape"),
    (lambda: _csr().mv([1, 2]), TypeError, "'dense_vector' should be 'Tensor'"),
    (lambda: ops.csr_to_coo(_coo()), TypeError, "must be a CSRTensor"),
    (lambda: ops.coo_abs(_csr()), TypeError, "must be a COOTensor"),
])
def test_errors_as_mindspore(build, exc, words):
    with pytest.raises(exc, match=None) as info:
        build()
    assert words in str(info.value)
    assert "test_sparse_tensor.py" in str(info.value)  # names the user's line


# ------------------------------------------------------------------ capture modes
def _build(ip, ix, v):
    return CSRTensor(ip, ix, v, (3, 4))


def _use(c, coo, x, vec):
    d = c.to_dense() + coo.to_dense()
    is_csr = isinstance(c, CSRTensor) and not isinstance(coo, CSRTensor)
    return d, c.mv(vec), (c * x).values, coo.to_csr(), ops.csr_sin(c), is_csr


def _inside(x, vec):
    c = CSRTensor(Tensor([0, 1, 3, 3], ms.int32), Tensor([1, 0, 3], ms.int32), x[0, :3],
                  (3, 4))
    return c.to_dense() * 2, c.sum(1), c.mm(vec).sum(), c.to_coo()


def _dense_parts(out):
    if isinstance(out, (tuple, list)):
        return [p for o in out for p in _dense_parts(o)]
    if isinstance(out, (CSRTensor, COOTensor)):
        return [type(out).__name__, out.shape, out.to_dense().asnumpy()]
    if isinstance(out, Tensor):
        return [out.asnumpy()]
    return [out]


def _check(got, want):
    got, want = _dense_parts(got), _dense_parts(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, np.ndarray):
            np.testing.assert_allclose(g, w, rtol=1e-6)
        else:
            assert g == w


def test_modes_agree_with_pynative(mode):
    ip, ix = Tensor([0, 1, 3, 3], ms.int32), Tensor([1, 0, 3], ms.int32)
    for k in range(2):  # a second call with new values reuses the graph
        v = Tensor(np.array([2, 1, 3], np.float32) + k)
        x = Tensor(RNG.standard_normal((3, 4)).astype(np.float32))
        vec = Tensor(RNG.standard_normal((4, 1)).astype(np.float32))
        out = make(_build, mode)(ip, ix, v)
        assert isinstance(out, CSRTensor)
        _check(out, _build(ip, ix, v))
        c, coo = _build(ip, ix, v), _coo(DENSE + k)
        _check(make(_use, mode)(c, coo, x, vec), _use(c, coo, x, vec))
        _check(make(_inside, mode)(x, vec), _inside(x, vec))


def test_graph_mode_cell_takes_and_returns_sparse():
    class Net(nn.Cell):
        def construct(self, c, x):
            return c.mv(x), CSRTensor(c.indptr, c.indices, c.values * 3, c.shape)

    c, vec = _csr(), Tensor(np.ones((4, 1), np.float32))
    got = make(Net(), "graph-O0")(c, vec)
    np.testing.assert_allclose(got[0].asnumpy(), DENSE @ np.ones((4, 1)))
    np.testing.assert_array_equal(got[1].to_dense().asnumpy(), 3 * DENSE)


def test_value_dependent_sizes_refused_inside_trace():
    def f(c):
        return c + c

    with pytest.raises(ConcretizationError, match="csr_add"):
        ms.jit(f, capture_mode="trace")(_csr())

    def g(x):
        return ops.dense_to_sparse_coo(x)

    with pytest.raises(ConcretizationError, match="dense_to_sparse_coo"):
        ms.jit(g, capture_mode="trace")(Tensor(DENSE))


def _branch(c, x):
    if x.sum() > 0:
        d = c * x
    else:
        d = -c
    return d.to_dense(), d


def _loop(c, x):
    while x.sum() < 10:  # a graph loop carrying the CSRTensor
        c = CSRTensor(c.indptr, c.indices, c.values * 2, c.shape)
        x = x + 1
    return c


@pytest.mark.parametrize("mode", ["ast-O0", "bytecode-O0"])
def test_sparse_through_tensor_control_flow(mode):
    c = _csr()
    for s in (1.0, -1.0):
        x = Tensor(np.full((3, 4), s, np.float32))
        _check(make(_branch, mode)(c, x), _branch(c, x))
        y = Tensor(np.full((1,), s, np.float32))
        _check(make(_loop, mode)(c, y), _loop(c, y))
