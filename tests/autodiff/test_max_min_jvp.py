"""The max/min derivative msxla installs (msxla/_max_min_jvp.py): same values as
jax's rule where that rule is sound, and no lost gradient where XLA recomputes an
operand with different rounding than the result it is compared against."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import msxla as ms
from msxla import Tensor, ops


@pytest.mark.parametrize("fn, x, y, want_x, want_y", [
    (lax.max, [1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [0.0, 0.5, 1.0], [1.0, 0.5, 0.0]),
    (lax.min, [1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [1.0, 0.5, 0.0], [0.0, 0.5, 1.0]),
    (lax.max, [np.nan, 1.0, 0.0], [1.0, np.nan, -0.0], [0.0, 0.0, 0.5], [0.0, 0.0, 0.5]),
    (lax.min, [np.nan, -np.inf, 0.0], [1.0, -np.inf, -0.0], [0.0, 0.5, 0.5], [0.0, 0.5, 0.5]),
])
def test_tangent_share_wins_ties_and_nan(fn, x, y, want_x, want_y):
    x, y = np.array(x, np.float32), np.array(y, np.float32)
    gx, gy = jax.grad(lambda a, b: fn(a, b).sum(), (0, 1))(x, y)
    np.testing.assert_array_equal(gx, want_x)
    np.testing.assert_array_equal(gy, want_y)
    jgx, jgy = jax.jit(jax.grad(lambda a, b: fn(a, b).sum(), (0, 1)))(x, y)
    np.testing.assert_array_equal(jgx, want_x)
    np.testing.assert_array_equal(jgy, want_y)


def test_python_scalar_operand_and_second_order():
    assert float(jax.grad(lambda s: lax.max(s, jnp.arange(3.0)).sum())(1.0)) == 1.5
    # d2/dx2 of x * max(x, 1) at x = 2 is 2; at x = 0.5 it is 0.
    d2 = jax.grad(jax.grad(lambda x: x * lax.max(x, 1.0)))
    assert float(d2(2.0)) == 2.0
    assert float(d2(0.5)) == 0.0


def test_integer_max_is_not_differentiated():
    out = jax.jit(lambda a, b: lax.max(a, b))(np.arange(3), np.array([2, 1, 0]))
    np.testing.assert_array_equal(out, [2, 1, 2])


def test_hypot_gradient_at_o1_equals_eager():
    """The operand of hypot's min/max is recomputed in two fusions at O1; an FMA
    contracted one way in one kernel and the other way in the other used to make
    the gradient 0 for about a quarter of these inputs."""
    def loss(x, y, a, b, s):
        u = x + (x + 1.0) * 0.0
        v = a * ops.tanh(s.max()) + (b + y) * 0.5
        return ops.hypot(u, v).sum()

    grad = ms.grad(loss, 1)
    jitted = ms.jit(grad, capture_mode="trace", jit_level="O1")
    rng = np.random.default_rng(0)
    for _ in range(60):
        args = [Tensor(rng.standard_normal((1, 2)).astype(np.float32)) for _ in range(5)]
        np.testing.assert_allclose(jitted(*args).asnumpy(), grad(*args).asnumpy(),
                                   rtol=1e-5, atol=1e-6)
