"""``ops.composite``: MultitypeFuncGraph dispatch, HyperMap, Map and partial."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops
from msxla.ops import composite as C
from msxla.ops import functional as F

X = Tensor(np.array([1.0, 2.0, 3.0], np.float32))


def _overloaded():
    add = C.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def _(a, b):
        return "NN", a + b

    @add.register("Tensor", "Tensor")
    def _(a, b):
        return "TT", a + b

    @add.register("Tensor", "Number")
    def _(a, b):
        return "TN", a * b

    @add.register("Tuple", "Number")
    def _(a, b):
        return "TupN", b

    @add.register("List", "None")
    def _(a, b):
        return "LNone", len(a)

    @add.register("String", ms.int64)
    def _(a, b):
        return "SInt64", a * b

    @add.register("Function", "Bool")
    def _(a, b):
        return "FB", a()

    return add


@pytest.mark.parametrize("args, expect", [
    ((1, 2), ("NN", 3)),
    ((True, False), ("NN", 1)),  # Bool is a Number, first registration wins
    ((1.5, 2), ("NN", 3.5)),
    (((1, 2), 3), ("TupN", 3)),
    (([1, 2, 3], None), ("LNone", 3)),
    (("ab", 2), ("SInt64", "abab")),
    ((lambda: 7, True), ("FB", 7)),
])
def test_dispatch_on_type_names(args, expect):
    assert _overloaded()(*args) == expect


def test_tensors_and_parameters_are_tensors():
    add = _overloaded()
    kind, out = add(X, X)
    assert kind == "TT"
    np.testing.assert_allclose(out.asnumpy(), [2, 4, 6])
    kind, out = add(Parameter(X, name="p"), 2)
    assert kind == "TN"
    np.testing.assert_allclose(out.asnumpy(), [2, 4, 6])


def test_dispatch_errors():
    add = _overloaded()
    with pytest.raises(ValueError, match="cannot find fn"):
        add(X, "s")
    with pytest.raises(TypeError, match="numpy"):
        add(np.ones(2), 1)
    with pytest.raises(RuntimeError, match="Foo"):
        add.register("Foo")(lambda a: a)
    with pytest.raises(TypeError):
        add.register(3)(lambda a: a)


def test_single_entry_is_called_for_any_type():
    one = C.MultitypeFuncGraph("one")
    one.register("Tensor")(lambda a: a * 2)
    assert one(3) == 6


def test_hyper_map_nested_and_map_flat():
    add = _overloaded()
    out = C.HyperMap(add)(((X,), X), ((2,), 3))
    assert out[0][0][0] == "TN" and out[1][0] == "TN"
    np.testing.assert_allclose(out[1][1].asnumpy(), [3, 6, 9])
    assert C.HyperMap()(lambda a, b: a + b, [1, 2], [10, 20]) == (11, 22)
    assert C.HyperMap(add)(1, 2) == ("NN", 3)
    assert C.Map()(lambda a, b: a * b, (1, 2), (3, 4)) == (3, 8)
    assert C.Map(add)([1, 2], [3, 4]) == (("NN", 4), ("NN", 6))
    assert ops.HyperMap is C.HyperMap and ops.MultitypeFuncGraph is C.MultitypeFuncGraph


def test_partial():
    assert F.partial(lambda a, b, c: a + b + c, 1)(2, 3) == 6
    assert ops.partial(lambda a, b, c: a * b + c, 2, 3)(4) == 10


def test_optimizer_style_sgd_with_hyper_map():
    sgd = C.MultitypeFuncGraph("sgd")

    @sgd.register("Number", "Tensor", "Tensor")
    def _sgd(lr, grad, param):
        return ops.assign(param, param - lr * grad)

    w = Parameter(Tensor(np.array([1.0, -1.0], np.float32)), name="w")
    b = Parameter(Tensor(np.array([0.5], np.float32)), name="b")
    params = ms.ParameterTuple([w, b])
    x = Tensor(np.array([2.0, 3.0], np.float32))

    def loss_fn(x):
        return ops.sum((x * w + b) ** 2)

    hyper_map = C.HyperMap()
    grad_fn = ms.value_and_grad(loss_fn, None, params)
    losses = []
    for _ in range(20):
        loss, grads = grad_fn(x)
        hyper_map(F.partial(_sgd, 0.02), grads, params)
        losses.append(float(loss.asnumpy()))
    assert losses[-1] < 0.05 * losses[0]
    # one step by hand from the final parameters
    wv, bv, xv = w.asnumpy(), b.asnumpy(), x.asnumpy()
    r = xv * wv + bv
    loss, grads = grad_fn(x)
    np.testing.assert_allclose(grads[0].asnumpy(), 2 * r * xv, rtol=1e-5)
    np.testing.assert_allclose(grads[1].asnumpy(), [np.sum(2 * r)], rtol=1e-5)


def test_composite_ones_like_follows_the_value_type():
    # MindSpore 2.10: Tensor -> ones Tensor, int -> 1, tuple/list -> tuple
    y = ms.Tensor(np.array([2.0, 3.0], np.float32))
    out = C.ones_like((y, 3, [y]))
    assert isinstance(out, tuple) and out[1] == 1 and type(out[1]) is int
    np.testing.assert_array_equal(out[0].asnumpy(), np.ones(2, np.float32))
    assert isinstance(out[2], tuple) and str(out[2][0].dtype) == "Float32"
    assert C.ones_like is not ms.ops.ones_like


def test_add_flags_marks_and_returns_the_function():
    def f(x):
        return x
    assert C.add_flags(f, has_effect=True) is f and f._func_graph_flags == {"has_effect": True}
    g = C.add_flags(defer_inline=True)(lambda x: x)
    assert g._func_graph_flags == {"defer_inline": True}


def test_row_tensor_parts_and_dispatch():
    from msxla import RowTensor
    rows = RowTensor(Tensor(np.array([0, 2, 0])), Tensor(np.ones((3, 2), np.float32)), (4, 2))
    assert rows.dense_shape == (4, 2) and rows.indices.shape == (3,)
    scale = C.MultitypeFuncGraph("scale")

    @scale.register("Tensor", "RowTensor")
    def _(s, g):
        return RowTensor(g.indices, g.values * s, g.dense_shape)

    @scale.register("Tensor", "Tensor")
    def _(s, g):
        return g * s

    out = scale(Tensor(3.0), rows)
    assert isinstance(out, RowTensor) and out.values.asnumpy()[0, 0] == 3.0
    assert RowTensor(row_tensor=out).dense_shape == (4, 2)
    with pytest.raises(ValueError):
        RowTensor(Tensor(np.array([0])), Tensor(np.ones((2, 2), np.float32)), (4, 2))
