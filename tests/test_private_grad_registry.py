"""``mindspore.ops._grad.grad_base.bprop_getters`` / ``bprops``: a bprop registered for a
Primitive class (or name) is what grad gives for that Primitive's calls, in PyNative
and every capture mode; the registries are shared with ``ops._grad_experimental``."""
import numpy as np
import pytest

import msxla as ms
from modes import make
from msxla import Tensor, ops
from msxla.ops import PrimitiveWithInfer, prim_attr_register
from msxla.ops import operations as P
from msxla.ops._grad import get_bprop_fn
from msxla.ops._grad.grad_base import bprop_getters, bprops
from msxla.ops._grad_experimental import grad_base as experimental


class ScaledMul(PrimitiveWithInfer):
    """A user Primitive with a Python forward."""

    @prim_attr_register
    def __init__(self, scale=1.0):
        pass

    def __call__(self, x, y):
        return x * y * self.scale


@pytest.fixture
def registry():
    """The registries, emptied of what the test registered."""
    before = dict(bprop_getters.data), dict(bprops.data)
    yield bprop_getters
    for reg, old in zip((bprop_getters, bprops), before):
        reg.data.clear()
        reg.data.update(old)


X = np.array([1.0, 2.0], np.float32)
Y = np.array([3.0, 4.0], np.float32)


def _grads(fn, mode):
    grad = make(ops.grad(fn, grad_position=(0, 1)), mode)
    return [g.asnumpy() for g in grad(Tensor(X), Tensor(Y))]


def test_registered_getter_is_used_for_a_user_primitive(registry, any_mode):
    @registry.register(ScaledMul)
    def get_bprop(self):
        scale = self.scale

        def bprop(x, y, out, dout):
            return dout * 10 * scale, dout * 20

        return bprop

    prim = ScaledMul(2.0)
    np.testing.assert_allclose(prim(Tensor(X), Tensor(Y)).asnumpy(), X * Y * 2)
    gx, gy = _grads(lambda a, b: prim(a, b).sum(), any_mode)
    np.testing.assert_allclose(gx, [20.0, 20.0])
    np.testing.assert_allclose(gy, [20.0, 20.0])


def test_without_a_registration_the_derivative_is_msxla_own(registry):
    prim = ScaledMul(2.0)
    gx, gy = _grads(lambda a, b: prim(a, b).sum(), "pynative")
    np.testing.assert_allclose(gx, Y * 2)
    np.testing.assert_allclose(gy, X * 2)


def test_a_builtin_primitive_takes_the_registered_bprop_by_name(registry, jit_mode):
    @registry.register("Mul")
    def get_bprop(self):
        def bprop(a, b, out, dout):
            return ops.ones_like(a) * 7, out  # `out` is the forward's value
        return bprop

    gx, gy = _grads(lambda a, b: P.Mul()(a, b).sum(), jit_mode)
    np.testing.assert_allclose(gx, [7.0, 7.0])
    np.testing.assert_allclose(gy, X * Y)
    # the functional op is not a Primitive call: its derivative is unchanged
    gx, gy = _grads(lambda a, b: ops.mul(a, b).sum(), jit_mode)
    np.testing.assert_allclose(gx, Y)


def test_bprops_hold_bprop_functions_and_the_lookup(registry):
    def bprop(x, y, out, dout):
        return dout, -dout

    bprops.register(ScaledMul)(bprop)
    assert get_bprop_fn(ScaledMul()) is bprop
    assert get_bprop_fn("ScaledMul") is bprop
    gx, gy = _grads(lambda a, b: ScaledMul()(a, b).sum(), "pynative")
    np.testing.assert_allclose(gx, [1.0, 1.0])
    np.testing.assert_allclose(gy, [-1.0, -1.0])


def test_getters_resolve_through_subclasses_and_closures(registry):
    def getter(self):
        return lambda x, y, out, dout: (dout, dout)

    registry.register(ScaledMul)(getter)

    class Sub(ScaledMul):
        pass

    assert get_bprop_fn(Sub(), get_closure=True) is getter
    assert get_bprop_fn(P.Add()) is None
    with pytest.raises(TypeError, match="Primitive class or a Primitive name"):
        registry.register(3)(getter)


def test_experimental_path_shares_the_registries():
    assert experimental.bprop_getters is bprop_getters and experimental.bprops is bprops
    assert ms.ops._grad_experimental.get_bprop_fn is get_bprop_fn
