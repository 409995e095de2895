"""Parameter state through differentiation: writes land once, never as tracers.

A Parameter written inside a differentiated function (``ops.assign``,
``set_data``, moving statistics) is stored exactly once per call with its
primal value, also through nested grads and when the grad runs inside a
traced function; reads of Parameters that are not differentiated fall
through to the enclosing frame.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops
from msxla.common.state import StateFrame, current_frame
from msxla.common.tensor import wrap

X = np.array([1.0, 2.0, 3.0], np.float32)


def _concrete(p):
    return isinstance(p._value, jax.Array) and not isinstance(p._value, jax.core.Tracer)


def _counter():
    return Parameter(Tensor(np.zeros((), np.float32)), name="calls", requires_grad=False)


def test_write_inside_grad_lands_once_with_primal_value():
    w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")
    m = Parameter(Tensor(np.zeros(3, np.float32)), name="m", requires_grad=False)
    calls = _counter()

    def f(x):
        ops.assign_add(calls, Tensor(np.float32(1)))
        ops.assign(m, m * 0.9 + x * 0.1)
        return x * w

    for step in (1, 2):
        g = ms.grad(f, 0, w)(Tensor(X))
        assert calls.asnumpy() == step
        assert _concrete(m) and _concrete(calls) and _concrete(w)
    np.testing.assert_allclose(m.asnumpy(), X * 0.1 * 0.9 + X * 0.1, rtol=1e-6)
    np.testing.assert_allclose(g[0].asnumpy(), [2, 3, 4])
    np.testing.assert_allclose(g[1].asnumpy(), X)
    assert current_frame() is None


def test_nested_grads_write_once():
    calls = _counter()
    w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")

    def f(x):
        ops.assign_add(calls, Tensor(np.float32(1)))
        return x * x * x * w

    gg = ms.grad(ms.grad(f))(Tensor(X))
    np.testing.assert_allclose(gg.asnumpy(), 6 * X * w.asnumpy())
    assert calls.asnumpy() == 1 and _concrete(calls)
    v, g = ms.value_and_grad(ms.grad(f), None, w)(Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), 3 * X * X)
    assert calls.asnumpy() == 2 and _concrete(calls)


def test_write_to_differentiated_weight_keeps_weight_gradient():
    # MindSpore: the written value is detached; a later read still
    # differentiates with respect to the Parameter itself.
    m = Parameter(Tensor(np.ones(3, np.float32)), name="m")

    def f(x):
        ops.assign(m, m * 2 + x)
        return x * m

    gx, gm = ms.grad(f, 0, m)(Tensor(X))
    np.testing.assert_allclose(gx.asnumpy(), 2 + X)
    np.testing.assert_allclose(gm.asnumpy(), X)
    np.testing.assert_allclose(m.asnumpy(), 2 + X)
    assert _concrete(m)


def test_set_data_with_new_shape_inside_grad():
    m = Parameter(Tensor(np.ones(3, np.float32)), name="m", requires_grad=False)

    def f(x):
        m.set_data(Tensor(np.zeros((2, 2), np.float32)) + x[0])
        return x * 3

    g = ms.grad(f)(Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), [3, 3, 3])
    assert m.shape == (2, 2) and _concrete(m)
    np.testing.assert_allclose(m.asnumpy(), np.full((2, 2), 1.0))


def test_exception_inside_fn_leaves_state_and_frames_alone():
    m = Parameter(Tensor(np.zeros(3, np.float32)), name="m", requires_grad=False)

    def f(x):
        ops.assign(m, x)
        raise KeyError("boom")

    with pytest.raises(KeyError):
        ms.grad(f)(Tensor(X))
    assert current_frame() is None
    np.testing.assert_allclose(m.asnumpy(), np.zeros(3))


def test_grad_inside_a_traced_frame_reads_and_writes_the_frame():
    """What jit does: Parameters hold tracers in an outer frame; grad must trace."""
    w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")
    m = Parameter(Tensor(np.zeros(3, np.float32)), name="m", requires_grad=False)

    def f(x):
        ops.assign(m, m + x)
        return x * x * w

    @jax.jit
    def step(w_val, m_val, x_val):
        frame = StateFrame({w: w_val, m: m_val})
        with frame:
            gx, gw = ms.grad(f, 0, w)(wrap(x_val))
        params, values = frame.written_values()
        assert params == [m]
        return gx._data, gw._data, values[0]

    gx, gw, new_m = step(w._value, m._value, jnp.asarray(X))
    np.testing.assert_allclose(gx, 2 * X * np.array([2, 3, 4]))
    np.testing.assert_allclose(gw, X * X)
    np.testing.assert_allclose(new_m, X)
    assert _concrete(m) and m.asnumpy().sum() == 0  # the frame's owner writes back, not grad


def test_param_written_by_inner_grad_reaches_outer_frame_once():
    calls = _counter()

    def inner(x):
        ops.assign_add(calls, Tensor(np.float32(1)))
        return x * x

    def outer(x):
        return ms.grad(inner)(x) * x

    g = ms.grad(outer)(Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), 4 * X)
    assert calls.asnumpy() == 1 and _concrete(calls)


def test_reads_of_other_parameters_are_constants():
    w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")
    v = Parameter(Tensor(np.array([1.0, 1.0, 2.0], np.float32)), name="v")

    def f(x):
        return x * w * v

    gx, gw = ms.grad(f, 0, [w])(Tensor(X))
    np.testing.assert_allclose(gx.asnumpy(), [2, 3, 8])
    np.testing.assert_allclose(gw[0].asnumpy(), X * [1, 1, 2])


def test_parameter_passed_as_input_is_differentiated_in_place():
    w = Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")

    def f(p, x):
        return p * x + w  # reads w both as the argument and through the closure

    g = ms.grad(f, 0)(w, Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), X + 1)
