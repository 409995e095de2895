"""``mindspore.numpy`` products and norms: dot, matmul, outer, inner, tensordot, kron, cross."""
from __future__ import annotations

import functools

from msxla import ops
from msxla.numpy._util import operand, to_tensor, with_dtype

__all__ = ["dot", "matmul", "outer", "inner", "tensordot", "kron", "cross", "multi_dot",
           "matrix_power", "norm"]


def dot(a, b):
    """numpy's ``dot``: scalars multiply, 1-D inputs are vectors, otherwise the last axis of
    ``a`` is contracted with the second-last of ``b``."""
    a, b = operand(a), operand(b)
    if isinstance(a, (int, float, bool)) or isinstance(b, (int, float, bool)) or \
            a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    return ops.tensor_dot(a, b, ((a.ndim - 1,), (max(b.ndim - 2, 0),)))


def matmul(x1, x2, dtype=None):
    """Matrix product with numpy's broadcasting rules."""
    return with_dtype(ops.matmul(to_tensor(x1), to_tensor(x2)), dtype)


def outer(a, b):
    """Outer product of the flattened inputs."""
    return ops.outer(ops.ravel(to_tensor(a)), ops.ravel(to_tensor(b)))


def inner(a, b):
    """Sum-product over the last axes."""
    return ops.inner(to_tensor(a), to_tensor(b))


def tensordot(a, b, axes=2):
    """Contract over ``axes`` (an int n, or a pair of axis lists)."""
    return ops.tensor_dot(to_tensor(a), to_tensor(b), axes)


def kron(a, b):
    """Kronecker product."""
    return ops.kron(to_tensor(a), to_tensor(b))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 3-vectors along ``axisa``/``axisb``, placed on ``axisc``."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a = ops.moveaxis(to_tensor(a), axisa, -1)
    b = ops.moveaxis(to_tensor(b), axisb, -1)
    out = ops.cross(a, b, -1)
    return ops.moveaxis(out, -1, axisc)


def multi_dot(arrays):
    """The chained matrix product of ``arrays`` (1-D ends are vectors)."""
    ts = [to_tensor(x) for x in arrays]
    if len(ts) < 2:
        raise ValueError("For 'multi_dot', at least two arrays are needed.")
    return functools.reduce(ops.matmul, ts)


def matrix_power(a, n):
    """``a`` raised to the integer power ``n``."""
    return ops.matrix_power(to_tensor(a), n)


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - numpy's name
    """Vector or matrix norm (numpy's ``linalg.norm`` rules)."""
    return ops.norm(to_tensor(x), ord, axis, keepdims)
