"""Elementwise ops through every face: Tensor operators, Tensor methods, Primitive classes,
and MindSpore's values for edge cases (checked against the MindSpore 2.10 oracle)."""
import inspect

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from msxla.ops import operations as P
from helpers import assert_close

A = np.array([[-1.5, 0.0, 2.5], [3.0, -0.5, 1.0]], np.float32)
B = np.array([1.0, 0.0, -2.0], np.float32)
I = np.array([[3, -1, 0], [6, 5, -4]], np.int32)
J = np.array([1, 2, 3], np.int32)


@pytest.mark.parametrize("op, ref", [
    (lambda a, b: a == b, np.equal), (lambda a, b: a != b, np.not_equal),
    (lambda a, b: a < b, np.less), (lambda a, b: a <= b, np.less_equal),
    (lambda a, b: a > b, np.greater), (lambda a, b: a >= b, np.greater_equal),
])
def test_comparison_operators(op, ref):
    out = op(Tensor(A), Tensor(B))
    assert out.dtype is ms.bool_
    assert_close(out, ref(A, B))
    assert_close(op(Tensor(A), 1.0), ref(A, 1.0))
    assert_close(op(1.0, Tensor(A)), ref(1.0, A))  # reflected through the mirrored operator
    assert_close(op(Tensor(I), Tensor(A)), ref(I, A))


def test_eq_with_non_numbers_is_a_python_bool_and_tensors_stay_hashable():
    t = Tensor(A)
    assert (t == None) is False and (t != None) is True  # noqa: E711
    assert (t == "a") is False and (t == [1.0]) is False
    assert {t: 1}[t] == 1 and t in {t}
    assert hash(t) == object.__hash__(t)
    with pytest.raises(TypeError):
        t < None  # noqa: B015


def test_bitwise_and_unary_operators():
    ti, tj = Tensor(I), Tensor(J)
    assert_close(ti & tj, I & J)
    assert_close(ti | tj, I | J)
    assert_close(ti ^ tj, I ^ J)
    assert_close(ti & 2, I & 2)
    # ~ is logical_not for every dtype, as in MindSpore (bool result)
    assert_close(~ti, I == 0)
    assert_close(~Tensor(np.array([True, False])), np.array([False, True]))
    assert_close(abs(Tensor(A)), np.abs(A))
    assert_close(+Tensor(I), I)
    assert_close(-Tensor(A), -A)
    out = round(Tensor(np.array([0.5, 1.5, 2.5, -0.5], np.float32)))
    assert isinstance(out, Tensor)
    assert_close(out, np.array([0.0, 2.0, 2.0, -0.0], np.float32))
    with pytest.raises(TypeError):
        2 & ti  # MindSpore has no reflected bitwise operators  # noqa: B018


def test_bool_and_int_bitwise_promote():
    b = Tensor(np.array([True, False]))
    assert (b & 3).dtype is ms.int64
    assert (b & True).dtype is ms.bool_
    assert (b & Tensor(np.array([1, 3], np.int32))).dtype is ms.int32


def test_tensor_methods():
    t, u = Tensor(A), Tensor(np.abs(A) + 0.5)
    assert_close(t.abs(), np.abs(A))
    assert_close(u.log(), np.log(np.abs(A) + 0.5))
    assert_close(t.clamp(-1.0, 1.0), np.clip(A, -1, 1))
    assert_close(t.clamp(max=0.5), np.minimum(A, 0.5))
    assert_close(t.clip(Tensor(B), None), np.maximum(A, B))
    assert_close(t.eq(Tensor(B)), A == B)
    assert_close(t.logical_and(Tensor(B)), np.logical_and(A, B))
    assert_close(t.round(1), np.round(A, 1))
    assert_close(t.add(Tensor(B), alpha=2), A + 2 * B)
    assert_close(t.sub(Tensor(B), alpha=2), A - 2 * B)
    assert_close(t.subtract(Tensor(B), alpha=0.5), A - 0.5 * B)
    assert_close(t.true_divide(other=u), A / (np.abs(A) + 0.5))
    assert_close(Tensor(I).multiply(value=2), I * 2)
    assert_close(Tensor(I).float_power(other=2), I.astype(np.float64) ** 2)
    assert_close(t == np.float32(1.0), A == 1.0)
    assert_close(Tensor(np.array([True, False])) == np.bool_(True), np.array([True, False]))
    assert_close(t.isclose(t + 1e-7), np.isclose(A, A + np.float32(1e-7)))
    assert t.allclose(t) is True and t.allclose(t + 1.0) is False
    assert_close(Tensor(I).bitwise_not(), ~I)
    assert_close(Tensor(np.array([True, False])).bitwise_not(), np.array([False, True]))
    assert_close(t.lerp(Tensor(B), 0.25), A + 0.25 * (B - A))
    assert_close(t.addcdiv(u, u, value=2.0), A + 2.0)
    assert_close(t.nan_to_num(), A)
    assert_close(t.float_power(2), A.astype(np.float64) ** 2)
    assert_close(Tensor(np.array([1 + 2j], np.complex64)).real(), np.array([1.0], np.float32))


def test_clip_by_value_of_a_list_and_dtype_predicates():
    x = Tensor(A)
    out = ops.clip_by_value([x, x * 2], -1, 1)
    assert isinstance(out, tuple) and len(out) == 2
    assert_close(out[1], np.clip(A * 2, -1, 1))
    with pytest.raises(ValueError, match="clip_by_value"):
        ops.clip_by_value(x)
    assert ops.is_floating_point(x) is True and x.is_floating_point() is True
    assert ops.is_complex(x) is False and Tensor(np.array([1j])).is_complex() is True
    assert Tensor(I).is_signed() is True and Tensor(np.array([1], np.uint8)).is_signed() is False


def test_method_signatures_match_mindspore():
    assert list(inspect.signature(ops.clamp).parameters) == ["input", "min", "max"]
    assert list(inspect.signature(ops.round).parameters) == ["input", "decimals"]
    assert list(inspect.signature(ops.subtract).parameters) == ["input", "other", "alpha"]
    assert list(inspect.signature(ops.addcdiv).parameters) == ["input", "tensor1", "tensor2",
                                                               "value"]
    assert list(inspect.signature(ops.isclose).parameters) == ["input", "other", "rtol", "atol",
                                                               "equal_nan"]
    assert list(inspect.signature(ops.nan_to_num).parameters) == ["input", "nan", "posinf",
                                                                  "neginf"]
    assert list(inspect.signature(ops.sqrt).parameters) == ["x"]
    assert list(inspect.signature(ops.true_divide).parameters) == ["dividend", "divisor"]


def test_primitive_classes():
    x, y = Tensor(A), Tensor(B)
    assert_close(P.Abs()(x), np.abs(A))
    assert_close(P.Exp()(x), np.exp(A))
    assert_close(P.Sqrt()(Tensor(np.abs(A))), np.sqrt(np.abs(A)))
    assert_close(P.Square()(x), A * A)
    assert_close(P.Tanh()(x), np.tanh(A))
    assert_close(P.Floor()(x), np.floor(A))
    assert_close(P.Round()(x), np.round(A))
    assert_close(P.Sign()(x), np.sign(A))
    assert_close(P.Equal()(x, y), A == B)
    assert_close(P.GreaterEqual()(x, y), A >= B)
    assert_close(P.LogicalNot()(x), A == 0)
    assert_close(P.IsNan()(Tensor(np.array([np.nan, 1.0]))), np.array([True, False]))
    assert_close(P.Atan2()(x, y), np.arctan2(A, B))
    assert_close(P.SquaredDifference()(x, y), (A - B) ** 2)
    assert_close(P.Mod()(Tensor(I), Tensor(J)), np.fmod(I, J))
    assert_close(P.TruncateDiv()(Tensor(I), Tensor(J)), np.trunc(I / J).astype(np.int32))
    assert_close(P.LeftShift()(Tensor(I), Tensor(J)), I << J)
    assert_close(P.Lerp()(x, y, 0.5), A + 0.5 * (B - A))
    assert_close(P.Addcmul()(x, x, y, Tensor(np.float32(2))), A + 2 * A * B)
    p = np.array([0.0, 0.25, 1.0], np.float32)
    with np.errstate(divide="ignore"):
        assert_close(P.Logit()(Tensor(p)), np.log(p / (1 - p)), atol=0)
    assert_close(P.Logit(0.1)(Tensor(p)), np.log(np.clip(p, 0.1, 0.9) / (1 - np.clip(p, 0.1, 0.9))))
    assert_close(P.NanToNum(nan=1.0)(Tensor(np.array([np.nan, 2.0], np.float32))),
                 np.array([1.0, 2.0], np.float32))
    assert_close(P.IsClose(equal_nan=True)(Tensor(np.array([np.nan])), Tensor(np.array([np.nan]))),
                 np.array([True]))
    assert repr(P.Abs()) == "Prim[Abs]"


def test_mindspore_edge_values():
    """Values MindSpore 2.10 gives where conventions differ (checked with the oracle)."""
    f = lambda *v: Tensor(np.array(v, np.float32))  # noqa: E731
    assert_close(ops.sign(f(-2.0, 0.0, 3.0, np.nan)), np.array([-1, 0, 1, 0], np.float32))
    assert_close(ops.xlogy(f(0.0, 0.0, 2.0), f(0.0, np.nan, 3.0)),
                 np.array([np.nan, np.nan, 2 * np.log(3)], np.float32))
    assert_close(ops.frac(Tensor(np.array([True, False]))), np.array([0, 0], np.int64))
    assert_close(ops.abs(Tensor(np.array([3 + 4j], np.complex64))),
                 np.array([5 + 0j], np.complex64))
    assert_close(ops.floor_divide(Tensor(np.array([7.5 + 2j, -3 + 4j], np.complex64)),
                                  f(2.0, 1.5)), np.array([3 + 0j, -2 + 0j], np.complex64))
    assert_close(ops.subtract(Tensor(np.array([True, False])), Tensor(np.array([True, True]))),
                 np.array([0, -1], np.int64))
    assert_close(ops.addcmul(*(Tensor(np.array([v], np.int32)) for v in (1, 2, 3)), value=1.5),
                 np.array([7], np.int32))
    assert_close(ops.addcdiv(*(Tensor(np.array(v, np.int64)) for v in ([1, -1], [1, 1], [3, 3])),
                             value=2), np.array([1, -1], np.int64))
    assert_close(ops.fmod(Tensor(np.array([3, -7], np.int32)), Tensor(np.array([0, 2], np.int32))),
                 np.array([3, -1], np.int32))
    assert_close(ops.nan_to_num(Tensor(np.array([np.nan, np.inf, -np.inf], np.float16))),
                 np.array([0, 65504, -65504], np.float16))
    assert_close(ops.sinc(f(0.0, 0.5)), np.array([1.0, 2 / np.pi], np.float32))
    assert_close(ops.clamp(f(1.0, 5.0, 9.0), 6, 2), np.array([2.0, 2.0, 2.0], np.float32))
    assert_close(ops.div(Tensor(I), Tensor(J), rounding_mode="floor"), I // J)
    assert ops.div(Tensor(I), 2, rounding_mode="trunc").dtype is ms.int32
    assert_close(ops.round(Tensor(np.array([15, 25, -15], np.int32)), decimals=-1),
                 np.array([20, 20, -20], np.int32))
    assert_close(ops.copysign(f(1.0, 2.0, 3.0), f(-0.0, 0.0, -1.0)), np.array([-1, 2, -3.0],
                                                                              np.float32))
    assert_close(ops.gcd(Tensor(np.array([-12, 7, 0])), Tensor(np.array([18, 0, 0]))),
                 np.array([6, 7, 0]))


@pytest.mark.parametrize("call, exc, name", [
    (lambda: ops.ceil(Tensor(I)), TypeError, "Ceil"),
    (lambda: ops.digamma(Tensor(I)), TypeError, "Digamma"),
    (lambda: ops.invert(Tensor(A)), TypeError, "Invert"),
    (lambda: ops.bitwise_and(Tensor(A), Tensor(A)), TypeError, "BitwiseAnd"),
    (lambda: Tensor(A) & 1, TypeError, "BitwiseAnd"),
    (lambda: ops.logaddexp(Tensor(A), 1.0), TypeError, "LogAddExp"),
    (lambda: ops.logaddexp(Tensor(I), Tensor(I)), TypeError, "LogAddExp"),
    (lambda: ops.isclose(Tensor(I), Tensor(A)), TypeError, "IsClose"),
    (lambda: Tensor(A).allclose(Tensor(I)), TypeError, "IsClose"),
    (lambda: ops.hypot(Tensor(I), Tensor(I)), TypeError, "Hypot"),
    (lambda: ops.gcd(Tensor(I), 2), TypeError, "Gcd"),
    (lambda: ops.heaviside(Tensor(I), Tensor(A)), TypeError, "Heaviside"),
    (lambda: ops.bitwise_left_shift(Tensor(I), Tensor(J.astype(np.int64))), TypeError,
     "LeftShift"),
    (lambda: ops.logical_and(Tensor(A), 2), TypeError, "LogicalAnd"),
    (lambda: ops.add(Tensor(np.array([True])), Tensor(np.array([True]))), TypeError, "Add"),
    (lambda: ops.negative(Tensor(np.array([True]))), TypeError, "Neg"),
    (lambda: ops.minimum(Tensor(np.array([1j], np.complex64)), Tensor(B)), TypeError, "Minimum"),
    (lambda: ops.lerp(Tensor(A), Tensor(A), 1), TypeError, "Lerp"),
    (lambda: ops.lerp(Tensor(A), Tensor(A.astype(np.float16)), 0.5), TypeError, "Lerp"),
    (lambda: ops.addcmul(Tensor(A), Tensor(I), Tensor(I)), TypeError, "Addcmul"),
    (lambda: ops.clamp(Tensor(np.array([True])), 0, 1), ValueError, "Clamp"),
    (lambda: ops.clamp(Tensor(A)), ValueError, "Clamp"),
    (lambda: ops.div(Tensor(A), Tensor(A), rounding_mode="round"), ValueError, "Div"),
    (lambda: ops.add(Tensor(A), Tensor(np.ones((4, 5), np.float32))), ValueError, "Add"),
])
def test_bad_input_raises_mindspore_exception_naming_the_op(call, exc, name):
    with pytest.raises(exc, match=f"For '{name}'"):
        call()


def test_grad_through_clamp_bounds_and_lerp_weight():
    x = Tensor(np.array([-2.0, 0.5, 3.0], np.float32))
    lo, hi = Tensor(np.float32(-1.0)), Tensor(np.float32(1.0))
    gx, glo, ghi = ms.grad(lambda x, lo, hi: ops.clamp(x, lo, hi).sum(), grad_position=(0, 1, 2))(
        x, lo, hi)
    assert_close(gx, np.array([0, 1, 0], np.float32))
    assert_close(glo, np.float32(1))
    assert_close(ghi, np.float32(1))
    w = Tensor(np.float32(0.25))
    gw = ms.grad(lambda w: ops.lerp(x, x * 2, w).sum())(w)
    assert_close(gw, np.float32(x.asnumpy().sum()))


def test_ops_agree_under_jit():
    def f(x, y):
        z = ops.clamp(ops.exp(x) - y, -1.0, 4.0)
        return ops.where(ops.isclose(x, y) | (x > y), ops.round(z, decimals=1), ops.sign(z))

    x, y = Tensor(A), Tensor(np.broadcast_to(B, A.shape).copy())
    assert_close(ms.jit(f)(x, y), f(x, y).asnumpy())
