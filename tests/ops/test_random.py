"""Random ops: set_seed reproducibility, fresh numbers per call (eager and jit), dtypes,
shapes, bounds and MindSpore's argument checks."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops


def _f32(v):
    return Tensor(np.asarray(v, np.float32))


DRAWS = {
    "uniform": lambda: ops.uniform((5,), _f32(0.0), _f32(1.0)),
    "normal": lambda: ops.normal((5,), 0.0, 1.0),
    "standard_normal": lambda: ops.standard_normal((5,)),
    "rand": lambda: ops.rand(5),
    "randn": lambda: ops.randn(5),
    "randint": lambda: ops.randint(0, 100, (5,)),
    "bernoulli": lambda: ops.bernoulli(Tensor(np.zeros(20, np.float32))),
    "multinomial": lambda: ops.multinomial(_f32(np.ones(10)), 5),
    "randperm": lambda: ops.randperm(10),
    "shuffle": lambda: ops.shuffle(Tensor(np.arange(10))),
    # the same shapes as in test_dtype_and_shape: gamma and poisson compile slowly
    "gamma": lambda: ops.gamma((3, 2), _f32([1.0, 2.0]), _f32([1.0])),
    "poisson": lambda: ops.poisson((3, 2), _f32([10.0, 20.0])),
    "standard_laplace": lambda: ops.standard_laplace((5,)),
    "rrelu": lambda: ops.rrelu(_f32(-np.ones(5))),
    "StandardNormal": lambda: ops.StandardNormal(seed=3)((5,)),
    "UniformReal": lambda: ops.UniformReal()((5,)),
    "UniformInt": lambda: ops.UniformInt()((5,), Tensor(0, ms.int32), Tensor(100, ms.int32)),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_set_seed_reproduces_and_calls_differ(name):
    draw = DRAWS[name]
    ms.set_seed(123)
    a1, a2 = draw().asnumpy(), draw().asnumpy()
    ms.set_seed(123)
    b1, b2 = draw().asnumpy(), draw().asnumpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2), "two calls drew the same numbers"


def test_op_seed_changes_the_stream():
    ms.set_seed(5)
    a = ops.standard_normal((4,), seed=1).asnumpy()
    ms.set_seed(5)
    b = ops.standard_normal((4,), seed=2).asnumpy()
    assert not np.array_equal(a, b)


def test_jit_draws_fresh_numbers_every_call_and_follows_set_seed():
    @ms.jit
    def f(x):
        return x + ops.standard_normal((4,))

    x = Tensor(np.zeros(4, np.float32))
    ms.set_seed(7)
    a, b = f(x).asnumpy(), f(x).asnumpy()
    assert not np.array_equal(a, b)
    ms.set_seed(7)
    np.testing.assert_array_equal(f(x).asnumpy(), a)


def test_dropout_under_jit_masks_differ_between_calls():
    @ms.jit
    def f(x):
        return ops.dropout(x, p=0.5)

    x = Tensor(np.ones(64, np.float32))
    a, b = f(x).asnumpy(), f(x).asnumpy()
    assert set(np.unique(a)) <= {0.0, 2.0}
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("call, dtype, shape", [
    (lambda: ops.rand(2, 3), ms.float32, (2, 3)),
    (lambda: ops.rand((2, 3), dtype=ms.float64), ms.float64, (2, 3)),
    (lambda: ops.randn(4, dtype=ms.float16), ms.float16, (4,)),
    (lambda: ops.randint(0, 5, (3, 2)), ms.int64, (3, 2)),
    (lambda: ops.randint(0, 5, (3,), dtype=ms.int8), ms.int8, (3,)),
    (lambda: ops.rand_like(Tensor(np.ones((2, 2)))), ms.float64, (2, 2)),
    (lambda: ops.randn_like(Tensor(np.ones((2, 2)))), ms.float32, (2, 2)),
    (lambda: ops.randint_like(Tensor(np.ones(3, np.int32)), 0, 4), ms.int32, (3,)),
    (lambda: ops.uniform((3, 2), _f32([1.0, 2.0]), _f32(3.0)), ms.float32, (3, 2)),
    (lambda: ops.normal((3, 2), _f32([1.0, 2.0]), 1.0), ms.float32, (3, 2)),
    (lambda: ops.gamma((3, 2), _f32([1.0, 2.0]), _f32([1.0])), ms.float32, (3, 2)),
    (lambda: ops.random_gamma((3,), _f32([1.0, 2.0])), ms.float32, (3, 2)),
    (lambda: ops.random_poisson((3,), _f32([1.0, 2.0]), dtype=ms.int32), ms.int32, (3, 2)),
    (lambda: ops.poisson((3, 2), _f32([10.0, 20.0])), ms.float32, (3, 2)),
    (lambda: ops.multinomial(_f32([[0.0, 1.0, 2.0]]), 4), ms.int32, (1, 4)),
    (lambda: ops.random_categorical(_f32(np.zeros((2, 3))), 4), ms.int64, (2, 4)),
    (lambda: ops.bernoulli(Tensor(np.ones(3, np.int32)), _f32([0.0, 1.0, 1.0])), ms.int32, (3,)),
    (lambda: ops.randperm(4, dtype=ms.int32), ms.int32, (4,)),
    (lambda: ops.RandomPoisson()((2,), _f32([1.0])), ms.int64, (2, 1)),
])
def test_dtype_and_shape(call, dtype, shape):
    out = call()
    assert out.dtype is dtype and out.shape == shape


def test_bounds():
    u = ops.uniform((2000,), _f32(-2.0), _f32(-1.0)).asnumpy()
    assert u.min() >= -2 and u.max() < -1
    r = ops.randint(3, 7, (2000,)).asnumpy()
    assert set(np.unique(r)) == {3, 4, 5, 6}
    ui = ops.UniformInt()((2000,), Tensor(1, ms.int32), Tensor(4, ms.int32)).asnumpy()
    assert set(np.unique(ui)) == {1, 2, 3}
    b = ops.bernoulli(Tensor(np.ones(8, np.float32)), _f32([0, 0, 0, 0, 1, 1, 1, 1])).asnumpy()
    np.testing.assert_array_equal(b, [0, 0, 0, 0, 1, 1, 1, 1])


def test_multinomial_without_replacement_draws_distinct_nonzero_classes():
    for _ in range(5):
        out = ops.multinomial(_f32([0.0, 1.0, 2.0, 3.0]), 3, False).asnumpy()
        assert len(set(out.tolist())) == 3 and 0 not in out


def test_randperm_with_seed_is_fixed_and_permutes():
    a, b = ops.randperm(8, seed=3).asnumpy(), ops.randperm(8, seed=3).asnumpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.sort(a), np.arange(8))


def test_tensor_random_methods():
    t = Tensor(np.zeros(1000, np.float32))
    u = t.uniform(2.0, 3.0).asnumpy()
    assert u.min() >= 2 and u.max() < 3
    assert t.normal_(5.0, 0.1) is t and abs(t.asnumpy().mean() - 5.0) < 0.05
    assert abs(t.exponential_(2.0).asnumpy().mean() - 0.5) < 0.1
    p = Tensor(np.array([0.0, 1.0], np.float32))
    np.testing.assert_array_equal(p.bernoulli().asnumpy(), [0.0, 1.0])
    assert Tensor(np.ones(4, np.float32)).multinomial(2).shape == (2,)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: ops.uniform((3,), 1.0, 2.0), TypeError, "must be a Tensor"),
    (lambda: ops.uniform((3,), _f32(1.0), _f32(2.0), dtype=ms.float64), TypeError, "Float64"),
    (lambda: ops.randint(0, 5, [3]), ValueError, "must be a tuple"),
    (lambda: ops.randint(5, 2, (3,)), ValueError, "randint"),
    (lambda: ops.rand_like(Tensor(np.ones(2, np.int32))), ValueError, "float type"),
    (lambda: ops.randint_like(Tensor(np.ones(2, np.float32)), 0, 3), ValueError, "int type"),
    (lambda: ops.multinomial(_f32([1.0, 2.0]), 3, False), ValueError, "num_samples"),
])
def test_argument_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("count", [3, 4, 9])
def test_random_choice_with_mask_picks_true_positions(count):
    # MindSpore 2.10: (count, rank) int32 indices of distinct True elements in random
    # order, zero rows and False mask beyond the number of True elements.
    x = np.array([[True, False, True], [False, True, True]])
    true_at = {tuple(p) for p in np.argwhere(x)}
    index, mask = ops.RandomChoiceWithMask(count, seed=1)(Tensor(x))
    assert str(index.dtype) == "Int32" and index.shape == (count, 2)
    assert str(mask.dtype) == "Bool" and mask.shape == (count,)
    idx, m = index.asnumpy(), mask.asnumpy()
    assert m.sum() == min(count, len(true_at)) and m[:m.sum()].all()
    picked = [tuple(p) for p in idx[m]]
    assert len(set(picked)) == len(picked) and set(picked) <= true_at
    assert not idx[~m].any()
    jitted = ms.jit(lambda t: ops.choice_with_mask(t, count))(Tensor(x))
    assert {tuple(p) for p in jitted[0].asnumpy()[jitted[1].asnumpy()]} <= true_at


def test_random_choice_with_mask_orders_vary():
    x = Tensor(np.ones(12, np.bool_))
    orders = {tuple(ops.choice_with_mask(x, 12)[0].asnumpy().ravel()) for _ in range(4)}
    assert len(orders) > 1
