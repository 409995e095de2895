"""Tensor method overloads of the shape/creation/linalg rows, and the rows under jit.

The golden suite (test_shape_golden.py) covers the forms MindSpore's CPU build
runs; this file checks the remaining forms against numpy and that the rows
give the same results when captured into a graph.
"""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from helpers import assert_close

RNG = np.random.default_rng(3)
A = RNG.standard_normal((2, 3, 4)).astype(np.float32)
I = np.arange(6, dtype=np.int32).reshape(2, 3)


def test_view_as_other_dtype_round_trips():
    t = Tensor(A)
    as_int = t.view(ms.int32)
    assert as_int.dtype is ms.int32 and as_int.shape == A.shape
    assert_close(as_int, A.view(np.int32))
    assert_close(as_int.view(ms.float32), A)
    narrow = t.view(ms.float16)
    assert narrow.shape == (2, 3, 8)
    assert_close(narrow, A.view(np.float16))
    assert_close(Tensor(I.reshape(3, 2)).view(ms.int64), I.reshape(3, 2).view(np.int64))


def test_view_dtype_needs_divisible_last_dim():
    with pytest.raises(ValueError, match="divisible by 2"):
        Tensor(I).view(ms.int64)


@pytest.mark.parametrize("args, kwargs, want", [
    ((), {}, lambda a: a.reshape(-1)),
    ((1,), {}, lambda a: a.reshape(2, 12)),
    ((0, 1), {}, lambda a: a.reshape(6, 4)),
    ((), {"start_dim": 1, "end_dim": 2}, lambda a: a.reshape(2, 12)),
    (("F",), {}, lambda a: a.flatten(order="F")),
    ((), {"order": "F", "start_dim": 1}, lambda a: np.transpose(a).reshape(4, 6)),
])
def test_tensor_flatten_starts_at_dim_0(args, kwargs, want):
    assert_close(Tensor(A).flatten(*args, **kwargs), want(A))


def test_transpose_overloads():
    t = Tensor(A)
    assert_close(t.transpose(), np.transpose(A))
    assert_close(t.transpose(0, 2), np.swapaxes(A, 0, 2))
    assert_close(t.transpose(dim0=1, dim1=-1), np.swapaxes(A, 1, 2))
    assert_close(t.transpose(1, 2, 0), np.transpose(A, (1, 2, 0)))
    assert_close(t.transpose([1, 2, 0]), np.transpose(A, (1, 2, 0)))
    assert_close(t.permute(dims=(2, 0, 1)), np.transpose(A, (2, 0, 1)))
    with pytest.raises(ValueError, match="Tensor.transpose"):
        t.transpose(0, 3)


def test_repeat_tiles_and_adds_leading_dims():
    t = Tensor(I)
    assert_close(t.repeat(3, 2), np.tile(I, (3, 2)))
    assert_close(t.repeat((2, 1, 3)), np.tile(I, (2, 1, 3)))
    with pytest.raises(ValueError, match="Tensor.repeat"):
        t.repeat(2)


def test_diag_with_diagonal_argument():
    v = np.array([1.0, 2.0, 3.0], np.float32)
    assert_close(Tensor(v).diag(1), np.diag(v, 1))
    assert_close(Tensor(v).diag(-2), np.diag(v, -2))
    m = A[0]
    assert_close(Tensor(m).diag(1), np.diag(m, 1))


def test_misc_method_forms():
    t = Tensor(A)
    assert_close(t.unbind(dim=2)[3], A[:, :, 3])
    assert_close(t.chunk(2, axis=2)[1], A[:, :, 2:])
    assert_close(t.split(split_size=2, dim=2)[0], A[:, :, :2])
    assert_close(t.narrow(dim=2, start=1, length=2), A[:, :, 1:3])
    assert_close(t.roll(1, 2), np.roll(A, 1, 2))
    assert_close(t.repeat_interleave(2, axis=0), np.repeat(A, 2, 0))
    assert_close(t.expand_as(x=Tensor(np.zeros((3, 2, 3, 4)))), np.broadcast_to(A, (3, 2, 3, 4)))
    assert_close(t.diagonal(dim1=1, dim2=2), np.diagonal(A, 0, 1, 2))
    assert_close(t.tensor_split([1], axis=1)[1], A[:, 1:])
    assert_close(Tensor(I).resize(2, 2), I.reshape(-1)[:4].reshape(2, 2))
    assert t.ndimension() == 3 and t.nelement() == 24 and t.dim() == 3


def test_conjugate_transpose_property():
    z = (A[0] + 1j * A[1]).astype(np.complex64)
    assert_close(Tensor(z).H, z.conj().T)
    assert_close(Tensor(A[0]).H, A[0].T)


def test_matmul_operator_and_methods():
    a, b = Tensor(A[0]), Tensor(A[1].T)
    assert_close(a @ b, A[0] @ A[1].T, rtol=1e-5, atol=1e-5)
    assert_close(a.mm(b), A[0] @ A[1].T, rtol=1e-5, atol=1e-5)
    assert_close(Tensor(A).bmm(Tensor(A).mT), A @ np.swapaxes(A, 1, 2), rtol=1e-5, atol=1e-5)
    assert_close(a.outer(b), np.outer(A[0], A[1].T), rtol=1e-6)
    ones = np.ones((3, 3), np.float32)
    assert_close(Tensor(ones).addmm(a, b, beta=2), 2 * ones + A[0] @ A[1].T, rtol=1e-5,
                 atol=1e-5)


def test_new_creation_methods_keep_dtype():
    t = Tensor(I)
    assert t.new_full((2,), 7).dtype is ms.int32
    assert t.new_empty((3,)).shape == (3,)
    assert t.new_ones((2,), ms.float16).dtype is ms.float16


def _pipeline(x, y):
    a = ops.reshape(x, (6, 4))
    parts = ops.split(a, 2, 0)
    b = ops.concat([parts[2], parts[0]], 0)
    c = ops.matmul(b, ops.transpose(a, (1, 0)))
    d = ops.einsum("ij,jk->ik", c, ops.ones((6, 2)))
    e = x.transpose(0, 2).flatten() + ops.arange(24, dtype=ms.float32)
    f = ops.tile(ops.expand_dims(y, 0), (2, 1, 1))
    g = ops.norm(ops.stack(ops.unbind(x, 1), -1), dim=-1)
    h = ops.trace(ops.mm(ops.eye(4), ops.tril(ops.ones((4, 4)))))
    return d, e, f, g, h, x.T, ops.inverse(ops.eye(3) * 2 + ops.diag(ops.linspace(0, 1, 3)))


@pytest.mark.parametrize("capture_mode", ["trace", "ast", "bytecode"])
def test_rows_under_jit_match_eager(capture_mode):
    from msxla.capture.capture import front_ends
    if capture_mode != "trace" and capture_mode not in front_ends():
        pytest.skip(f"capture mode {capture_mode!r} not in this build")
    x, y = Tensor(A), Tensor(I)
    eager = _pipeline(x, y)
    jitted = ms.jit(_pipeline, capture_mode=capture_mode)(x, y)
    for e, j in zip(eager, jitted):
        assert_close(j, e.asnumpy(), rtol=1e-5, atol=1e-5)


def test_linalg_method_forms():
    spd = A[0][:, :3] @ A[0][:, :3].T + 3 * np.eye(3, dtype=np.float32)
    t = Tensor(spd)
    q, r = t.qr(some=False)
    assert q.shape == (3, 3) and r.shape == (3, 3)
    assert_close(ops.matmul(q, r), spd, rtol=1e-4, atol=1e-4)
    assert_close(t.cholesky(), np.linalg.cholesky(spd), rtol=1e-5, atol=1e-5)
    assert_close(t.slogdet()[1], np.linalg.slogdet(spd)[1], rtol=1e-5, atol=1e-5)
    assert_close(t.matrix_power(2), spd @ spd, rtol=1e-5, atol=1e-4)
    ones = Tensor(np.ones(3, np.float32))
    assert_close(t.addr(ones, ones, 2, 3), 2 * spd + 3, rtol=1e-6)
