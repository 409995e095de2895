"""Tensor ``__getitem__`` / ``__setitem__`` against numpy, MindSpore 2.10's own rules
and errors, and under tracing (the Tensor's data a jax tracer)."""
import jax
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor
from msxla.common.state import StateFrame
from msxla.common.tensor import wrap
from helpers import assert_close

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def T():
    return Tensor(A.copy())


GET_CASES = [
    1, -1, (0, 2), (1, -1, -4), np.s_[1:], np.s_[::2], np.s_[::-1], np.s_[-2:], np.s_[5:10],
    np.s_[:, ::-2], np.s_[:, 2:0:-1, ::3], np.s_[0, 1:3], None, np.s_[None, 0, None],
    np.s_[0, None, :, None, 1], Ellipsis, np.s_[..., 1], np.s_[..., None], np.s_[1, ..., 2],
    (), [0, 1], [1, 0, 1], [-1], [[0, 1], [1, 0]], np.s_[:, [0, 2]], np.s_[0, :, [1, 2]],
    np.s_[:, 0, [1, 2]], ([0, 1], [1, 2]), np.s_[:, [0, 1], [1, 2]], np.s_[[0, 1], :, [1, 2]],
    np.s_[[0, 1], None, [1, 2]], np.s_[None, [0, 1], [1, 2]], [True, False],
    np.s_[0, [True, False, True]], np.s_[..., [True, False, True, False]],
    np.s_[[0, 1], [True, False, True]], np.s_[:, [True, False, True], [0, 2]],
    np.array([1, 0]), np.array([True, False]), np.s_[np.int64(1), np.int32(2)],
]


@pytest.mark.parametrize("index", GET_CASES, ids=repr)
def test_getitem_matches_numpy(index):
    expected = A[index] if not isinstance(index, list) or not any(
        isinstance(i, list) for i in index) else A[tuple(index)]
    assert_close(T()[index], expected)


@pytest.mark.parametrize("index, expected", [
    (Tensor([1, 0]), A[[1, 0]]),
    (Tensor(np.array([[0, 1]], np.int32)), A[np.array([[0, 1]])]),
    (Tensor(1), A[1]),
    ((Tensor(1), Tensor(-1)), A[1, -1]),
    ((slice(None), Tensor([2, 0]), slice(1, 3)), A[:, [2, 0], 1:3]),
    (Tensor(A > 20), A[A > 20]),
    (Tensor([[True, False, True], [False, False, True]]),
     A[np.array([[True, False, True], [False, False, True]])]),
    ((Tensor([True, False]), 1), A[np.array([True, False]), 1]),
    (Tensor(True), A[None]),
    (slice(Tensor(0), Tensor(1)), A[0:1]),
    (jax.numpy.array([1, 0]), A[[1, 0]]),
    # MindSpore reads a list holding sequences or Tensors as a tuple
    ([0, [1]], A[0, [1]]),
    ([[0, 1], [1, 0]], A[[0, 1], [1, 0]]),
    ([Tensor(0), Tensor(1)], A[0, 1]),
    ([[0, 1], slice(None), [1, 2]], A[[0, 1], :, [1, 2]]),
])
def test_getitem_tensor_and_mindspore_list_rules(index, expected):
    assert_close(T()[index], expected)


def test_getitem_keeps_dtype_and_scalar_tensor_indices():
    ti = Tensor(np.arange(6).reshape(2, 3), ms.int32)
    assert ti[1].dtype is ms.int32 and ti[0, 1].item() == 1
    tb = Tensor(np.array([True, False]))
    assert tb[0].dtype is ms.bool_
    s = Tensor(5.0)
    assert s[()].shape == () and s[...].item() == 5.0
    assert s[None].shape == (1,) and s[True].shape == (1,)
    assert_close(T()[Tensor(np.int32(1))][0], A[1, 0])
    x = T()
    assert [row.shape for row in x] == [(3, 4), (3, 4)]


@pytest.mark.parametrize("index, exc, match", [
    (2, IndexError, "index 2 is out of bounds for dimension with size 2"),
    (-3, IndexError, "index -3 is out of bounds for dimension with size 2"),
    ((0, 5), IndexError, "index 5 is out of bounds for dimension with size 3"),
    ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
    ((Ellipsis, Ellipsis), IndexError, "single ellipsis"),
    ([0, 2], IndexError, "index 2 out of bounds for dimension with size 2"),
    ([], IndexError, "list can't be empty"),
    (False, IndexError, "only support 'True'"),
    (1.0, IndexError, "Only support integers"),
    ("a", IndexError, "Only support integers"),
    ({1: 2}, IndexError, "Only support integers"),
    (Tensor(1.0), IndexError, "must be int or bool"),
    (Tensor(np.array([0, 1], np.uint8)), IndexError, "must be int or bool"),
    ([True, False, True], IndexError, "dimension is 2 but corresponding boolean dimension is 3"),
    (Tensor([[True, False], [False, True]]), ValueError, "does not match the shape"),
    (np.s_[::0], ValueError, "'strides' cannot contain 0"),
    ([0.0, 1.0], TypeError, "types only support"),
    (np.s_[0:1.5], TypeError, "slice indices"),
])
def test_getitem_errors(index, exc, match):
    with pytest.raises(exc, match=match):
        T()[index]


def test_indexing_a_0d_tensor_with_an_int_is_a_type_error():
    with pytest.raises(TypeError, match="scalar tensor"):
        Tensor(5.0)[0]


SET_CASES = [
    (0, 1), (0, 1.5), ((0, 0), [1, 2, 3, 4]), (0, [1, 2, 3, 4]), (0, (1, 2, 3, 4)),
    (np.s_[..., 1], 7), (np.s_[:, ::-1, 0], [1.0, 2.0, 3.0]), (np.s_[1, ::-2], -1),
    (([0, 1], [1, 2]), np.array([[9.0] * 4, [8.0] * 4])), ([0, 0], 5), ([True, False], 3),
    (None, 3), (True, 3), (np.s_[:, [0, 2], 1:3], 1.0), (np.s_[-1, -1, -1], 100),
    (np.s_[[1, 0], 0], np.array([[1.0], [2.0]])[0]),
]


@pytest.mark.parametrize("index, value", SET_CASES, ids=repr)
def test_setitem_matches_numpy(index, value):
    x = T()
    x[index] = value
    expected = A.copy()
    expected[index if index is not True else None] = value
    assert_close(x, expected)


def test_setitem_with_tensor_indices_values_and_masks():
    x = T()
    x[Tensor([0, 1])] = Tensor(np.ones((3, 4), np.int32))  # cast to the Tensor's dtype
    assert x.dtype is ms.float32 and (x.asnumpy() == 1).all()
    x = T()
    x[x > 10] = 0
    e = A.copy()
    e[e > 10] = 0
    assert_close(x, e)
    x = T()
    x[x > 20] = Tensor([1.0, 2.0, 3.0])
    e = A.copy()
    e[e > 20] = [1, 2, 3]
    assert_close(x, e)
    x = T()
    x[Tensor([True, False])] = Tensor([5.0])
    e = A.copy()
    e[0] = 5
    assert_close(x, e)
    x = T()
    x[0, 0] = [Tensor(1.0), Tensor(2.0), 3.0, 4.0]
    assert_close(x[0, 0], np.array([1, 2, 3, 4], np.float32))


def test_setitem_casts_values_like_mindspore():
    xi = Tensor(np.arange(4), ms.int32)
    xi[0] = 1.7
    xi[1] = -1.7
    assert xi.dtype is ms.int32 and xi.tolist() == [1, -1, 2, 3]
    xb = Tensor(np.zeros(4, np.bool_))
    xb[0] = 2
    assert xb.tolist() == [True, False, False, False]


def test_setitem_updates_the_same_object_and_parameters():
    x = T()
    alias = x
    x[0] = 0
    assert alias.asnumpy()[0].sum() == 0
    p = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="p")
    p[0] = 5.0
    assert isinstance(p, Parameter) and p.asnumpy().tolist() == [[5, 5, 5], [0, 0, 0]]
    with StateFrame() as frame:  # inside a frame the write goes to the frame
        p[1, 1] = 7.0
    assert p.asnumpy()[1, 1] == 0 and list(frame.written) == [p]
    assert np.asarray(frame.values[p])[1, 1] == 7


@pytest.mark.parametrize("index, value, exc, match", [
    (5, 3, IndexError, "Index 5 is out of bounds for axis 0 with size 2"),
    ((0, 3), 3, IndexError, "Index 3 is out of bounds for axis 1 with size 3"),
    (0, [1, 2, 3], ValueError, "cannot be broadcast"),
    (0, np.ones((2, 3, 4)), ValueError, "cannot be broadcast"),
    ((0, 0), np.ones((1, 4)), ValueError, "cannot be broadcast"),
    (0, None, TypeError, "only support numbers, Tensor, tuple, list as value"),
    (0, "a", TypeError, "only support numbers"),
    ("a", 1, IndexError, "Only support integers"),
])
def test_setitem_errors(index, value, exc, match):
    x = T()
    with pytest.raises(exc, match=match):
        x[index] = value
    assert_close(x, A)  # unchanged


# ------------------------------------------------------------------ tracing
def _traced(fn, *arrays):
    return np.asarray(jax.jit(lambda *a: fn(*[wrap(v) for v in a])._data)(*arrays))


def test_getitem_traces_with_static_and_tensor_indices():
    got = _traced(lambda x: x[0, ::-1, None], A)
    np.testing.assert_array_equal(got, A[0, ::-1, None])
    idx = np.array([1, 0, 1])
    got = _traced(lambda x, i: x[:, i, 1:3], A, idx)
    np.testing.assert_array_equal(got, A[:, idx, 1:3])
    got = _traced(lambda x, i: x[i], A, np.int64(1))  # a traced 0-d index acts as an int
    np.testing.assert_array_equal(got, A[1])


def test_setitem_traces_including_scalar_mask_assignment():
    def f(x, i):
        x[0, i] = 1.0
        x[x > 20] = -1.0
        return x
    got = _traced(f, A, np.array([2, 0]))
    e = A.copy()
    e[0, [2, 0]] = 1
    e[e > 20] = -1
    np.testing.assert_array_equal(got, e)


def test_boolean_mask_selection_under_trace_is_a_clear_error():
    with pytest.raises(RuntimeError, match="depends on the mask's values"):
        _traced(lambda x: x[x > 1], A)
    with pytest.raises(RuntimeError, match="eagerly"):
        _traced(lambda x: _set_vector(x), A)


def _set_vector(x):
    x[x > 20] = Tensor([1.0, 2.0, 3.0])
    return x


def test_grad_flows_through_getitem_and_setitem():
    def loss(d):
        x = wrap(d)
        y = x[:, [0, 2]] * 2
        x[0] = 0.0
        return (y.sum() + (x * x).sum())._data

    g = jax.grad(loss)(A)
    e = 2 * A
    e[0] = 0
    e[:, [0, 2]] += 2
    np.testing.assert_allclose(np.asarray(g), e)
