"""Gradients with respect to ``mutable`` tuples, lists and dicts of Tensors.

MindSpore's graph differentiates the Tensors inside a ``mutable`` container and
returns their gradients in a container of the same kind (tuple, list, dict),
nested containers included; ``mutable`` marks its result with
``__ms_mutable__``, ``__ms_dynamic_len__`` and ``__ms_origin_object__`` and
makes a ``const_arg`` Tensor variable. Checked with the gradient differentiated
through the function run in every mode, and with the gradient taken inside it.
"""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, mutable, ops

from modes import make

A = np.array([[0.5, 0.6], [1.2, 1.3]], np.float32)
B = np.array([[2.0, -1.0], [0.5, 3.0]], np.float32)
C = np.array([[1.5, 0.25], [-2.0, 1.0]], np.float32)


def build(kind):
    """The container, the function of it, and the expected gradients (numpy)."""
    a, b, c = Tensor(A), Tensor(B), Tensor(C)
    if kind == "tuple_tuple":
        # f = sum(a * 3 + c * c); b is read by nothing
        return mutable(((a, b), c)), (lambda t: (t[0][0] * 3 + t[1] * t[1]).sum()), \
            ((3 * np.ones_like(A), np.zeros_like(B)), 2 * C)
    if kind == "list_tuple":
        return mutable([(a, b), c]), (lambda t: (t[0][0] * 3 + t[1] * t[1]).sum()), \
            [(3 * np.ones_like(A), np.zeros_like(B)), 2 * C]
    if kind == "tuple_list":
        return mutable(([a, b], c)), (lambda t: (t[0][1] * t[1]).sum()), \
            ([np.zeros_like(A), C], B)
    if kind == "dict_tuple":
        return mutable({"x": (a, b), "y": c}), (lambda t: (t["x"][0] * t["y"]).sum()), \
            {"x": (C, np.zeros_like(B)), "y": A}
    raise AssertionError(kind)


def check(got, want):
    if isinstance(want, np.ndarray):
        assert isinstance(got, Tensor)
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
        return
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, dict):
        assert list(got) == list(want)
        for k in want:
            check(got[k], want[k])
    elif isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)


KINDS = ["tuple_tuple", "list_tuple", "tuple_list", "dict_tuple"]


@pytest.mark.parametrize("kind", KINDS)
def test_grad_pynative(kind):
    arg, fn, want = build(kind)
    check(ops.GradOperation()(fn)(arg), want)


@pytest.mark.parametrize("kind", ["list_tuple", "dict_tuple"])
def test_grad_of_function_run_in_mode(kind, mode):
    arg, fn, want = build(kind)
    check(ops.GradOperation()(make(fn, mode))(arg), want)


@pytest.mark.parametrize("kind", ["tuple_list", "dict_tuple"])
def test_grad_taken_inside_mode(kind, any_mode):
    arg, fn, want = build(kind)
    got = make(lambda t: ops.GradOperation()(fn)(t), any_mode)(arg)
    check(got, want)


def test_get_all_wraps_the_container(mode):
    arg, fn, want = build("list_tuple")
    got = ops.GradOperation(get_all=True)(make(fn, mode))(arg)
    assert type(got) is tuple and len(got) == 1
    check(got[0], want)


@pytest.mark.parametrize("value", [(1.0, 2.0), [1, 2], {"a": 1}, 3, 2.5])
def test_mutable_marks(value):
    m = mutable(value)
    assert m.__ms_mutable__ is True
    assert m.__ms_dynamic_len__ is False
    assert m.__ms_origin_object__ is value
    assert m == value and m is not value
    assert mutable(list(value) if isinstance(value, tuple) else [1],
                   dynamic_len=True).__ms_dynamic_len__ is True


def test_mutable_tensor_is_marked_in_place():
    x = Tensor(A, const_arg=True)
    m = mutable(x)
    assert m is x and m.__ms_origin_object__ is x and m.__ms_mutable__ is True
    assert x.const_arg is False
    assert ms.jit(lambda t: t * 2)(m).asnumpy().tolist() == (A * 2).tolist()
