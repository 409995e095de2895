"""Gradients, Jacobians and higher orders against central differences (float64)."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops

from helpers import numerical_grad

RNG = np.random.default_rng(7)
A = RNG.uniform(0.5, 1.5, (2, 3))
B = RNG.uniform(-1.0, 1.0, (2, 3))


def rational(x, y):
    return ops.sum(x * y / (1 + x * x) + y ** 3 - ops.maximum(x, y) * 0.5)


def rational_np(x, y):
    return float(np.sum(x * y / (1 + x * x) + y ** 3 - np.maximum(x, y) * 0.5))


def test_grad_matches_central_differences():
    gx, gy = ms.grad(rational, (0, 1))(Tensor(A), Tensor(B))
    nx, ny = numerical_grad(rational_np, [A, B], eps=1e-6)
    np.testing.assert_allclose(gx.asnumpy(), nx, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gy.asnumpy(), ny, rtol=1e-6, atol=1e-8)
    assert gx.dtype == ms.float64


def test_weight_grad_matches_central_differences():
    w = Parameter(Tensor(A.copy()), name="w")

    def f(x):
        return rational(x, w)

    gw = ms.grad(f, None, w)(Tensor(B))
    (nw,) = numerical_grad(lambda wv: rational_np(B, wv), [A], eps=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), nw, rtol=1e-6, atol=1e-8)


def test_second_order_matches_differences_of_first_order():
    def f(x):
        return ops.sum(x * x * x / (2 + x))

    def first(x):
        return ops.sum(ms.grad(f)(x) * B)

    g2 = ms.grad(first)(Tensor(A))
    (n2,) = numerical_grad(lambda a: float(np.sum(ms.grad(f)(Tensor(a)).asnumpy() * B)), [A],
                           eps=1e-6)
    np.testing.assert_allclose(g2.asnumpy(), n2, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("jac", ["jacfwd", "jacrev"])
def test_jacobian_matches_central_differences(jac):
    def f(x, y):
        return x * y / (1 + x * x)

    J = getattr(ms, jac)(f, (0, 1))(Tensor(A), Tensor(B))
    for k, J_k in enumerate(J):
        assert J_k.shape == (2, 3, 2, 3) and J_k.dtype == ms.float64
        for i in np.ndindex(2, 3):
            def comp(x, y, i=i):
                return float((x * y / (1 + x * x))[i])
            num = numerical_grad(comp, [A, B], eps=1e-6)[k]
            np.testing.assert_allclose(J_k.asnumpy()[i], num, rtol=1e-6, atol=1e-8)


def test_hessian_by_jacfwd_of_jacrev():
    def f(x):
        return ops.sum(x * x * x)

    x = np.array([0.5, -1.0, 2.0])
    H = ms.jacfwd(ms.jacrev(f))(Tensor(x))
    np.testing.assert_allclose(H.asnumpy(), np.diag(6 * x), rtol=1e-12)


def test_jvp_and_vjp_agree_with_the_jacobian():
    def f(x, y):
        return x * y * y - x / y, x + y

    x, y = Tensor(A), Tensor(B + 2)
    u, v = RNG.normal(size=A.shape), RNG.normal(size=A.shape)
    J = ms.jacrev(f, (0, 1))(x, y)
    out, tangent = ms.jvp(f, (x, y), (Tensor(u), Tensor(v)))
    for o in range(2):
        expect = (np.einsum("abcd,cd->ab", J[o][0].asnumpy(), u)
                  + np.einsum("abcd,cd->ab", J[o][1].asnumpy(), v))
        np.testing.assert_allclose(tangent[o].asnumpy(), expect, rtol=1e-12)
    _, vjp_fn = ms.vjp(f, x, y)
    gx, gy = vjp_fn(Tensor(u), Tensor(v))
    expect_x = (np.einsum("ab,abcd->cd", u, J[0][0].asnumpy())
                + np.einsum("ab,abcd->cd", v, J[1][0].asnumpy()))
    np.testing.assert_allclose(gx.asnumpy(), expect_x, rtol=1e-12)
    assert gy.shape == B.shape
