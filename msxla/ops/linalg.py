"""Op rows: matrix and tensor products.

matmul (with ``@``), mm, bmm, dot, mv, outer/ger, inner, vecdot, tensor_dot,
einsum, kron, cross and the fused ``beta * input + alpha * product`` forms
(addmm, addmv, addbmm, baddbmm, addr), with the MatMul, BatchMatMul, Einsum,
Ger and Cross Primitive classes.

MindSpore's matmul kernels want both operands in one dtype (no promotion):
a mix raises TypeError, as do bool operands. The elementwise-built products
(outer, kron, cross, vecdot, the add* forms) promote like ``mul``. Products
run at full float32 precision on every backend (no TF32/bf16 passes), as
MindSpore's float32 matmuls do.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.errors import DTypeError, user_error
from msxla.ops._shape_util import ArgTypeError, deep_tuple, norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.shape import swapaxes
from msxla.ops.surface import exports, set_public, tensor_method


_HIGHEST = jax.lax.Precision.HIGHEST
_matmul = functools.partial(jnp.matmul, precision=_HIGHEST)
_DOT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def same_dtype(opname, allowed=None):
    """A dtype rule: all tensor operands share one dtype (from ``allowed``); no promotion."""

    def rule(key):
        types = [k for k in key if isinstance(k, mstype.Type)]
        if len(set(types)) > 1:
            raise user_error(DTypeError, f"For '{opname}', the type of 'x2' should be same as "
                                         f"'x1', but got 'x1' with type Tensor[{types[0]}] and "
                                         f"'x2' with type Tensor[{types[1]}].")
        bad = [t for t in types if t is mstype.bool_ or (allowed and t not in allowed)]
        if bad:
            raise user_error(DTypeError, f"For '{opname}', the input dtype {bad[0]} is not "
                                         "supported.")
        return None

    rule.__name__ = f"same_dtype_{opname}"
    return rule


def _need_ndim(opname, **arrays):
    for name, (a, lo, hi) in arrays.items():
        if not lo <= a.ndim <= hi:
            want = f"{lo}" if lo == hi else f"at least {lo}" if hi > 8 else f"{lo} to {hi}"
            raise ValueError(f"'{name}' must be {want}-D, but got shape {tuple(a.shape)}.")


def _check_inner(a, b, ka, kb):
    if a.shape[ka] != b.shape[kb]:
        raise ValueError(f"the contracted dimensions must be equal, but got shapes "
                         f"{tuple(a.shape)} and {tuple(b.shape)}.")


@op(dtype=same_dtype("MatMul"), method="matmul", operators=("__matmul__", "__rmatmul__"),
    prim="MatMul")
def matmul(input, other):
    """Matrix product with numpy's rules: 1-D operands are vectors, leading (batch) axes
    broadcast."""
    if input.ndim == 0 or other.ndim == 0:
        raise ValueError("the inputs must not be 0-D (scalars); use mul.")
    _check_inner(input, other, -1, -2 if other.ndim > 1 else 0)
    return _matmul(input, other)


@op(dtype=same_dtype("MatMul"), method="mm", prim="MatMul",
    primitive=PrimDef(init=(("transpose_a", False), ("transpose_b", False)),
                      call=lambda p, a, b: mm(_t2(a, p.transpose_a), _t2(b, p.transpose_b))))
def mm(input, mat2):
    """Product of two 2-D matrices."""
    _need_ndim("MatMul", input=(input, 2, 2), mat2=(mat2, 2, 2))
    _check_inner(input, mat2, 1, 0)
    return _matmul(input, mat2)


@op(dtype=same_dtype("BatchMatMul"), method="bmm", prim="BatchMatMul",
    primitive=PrimDef(init=(("transpose_a", False), ("transpose_b", False)),
                      call=lambda p, a, b: bmm(_t2(a, p.transpose_a), _t2(b, p.transpose_b))))
def bmm(input_x, mat2):
    """Batched matrix product over the last two axes (leading axes broadcast)."""
    _need_ndim("BatchMatMul", input_x=(input_x, 2, 99), mat2=(mat2, 2, 99))
    _check_inner(input_x, mat2, -1, -2)
    return _matmul(input_x, mat2)


@op(dtype=same_dtype("dot", _DOT_TYPES), method="dot", prim="MatMul")
def dot(input, other):
    """numpy's ``dot`` of inputs with at least 2 dims: contracts the last axis of ``input``
    with the second-last of ``other``; shape ``input.shape[:-1] + other.shape[:-2] +
    other.shape[-1:]``."""
    _need_ndim("dot", input=(input, 2, 99), other=(other, 2, 99))
    _check_inner(input, other, -1, -2)
    return jnp.dot(input, other, precision=_HIGHEST)


@op(dtype=same_dtype("MatMul"), prim="MatMul")
def mv(mat, vec):
    """Matrix (N, M) times vector (M,)."""
    _need_ndim("mv", mat=(mat, 2, 2), vec=(vec, 1, 1))
    _check_inner(mat, vec, 1, 0)
    return _matmul(mat, vec)


@op(dtype="promote", method="outer", prim="Outer")
def outer(input, vec2):
    """``input.reshape(-1, 1) * vec2``: the outer product of two vectors."""
    return jnp.reshape(input, (-1, 1)) * jnp.reshape(vec2, (-1,))


@op(dtype="promote", method="ger", prim="Ger", primitive=True)
def ger(input, vec2):
    """Outer product of two 1-D tensors."""
    _need_ndim("Ger", input=(input, 1, 1), vec2=(vec2, 1, 1))
    return jnp.outer(input, vec2)


@op(dtype=same_dtype("inner"), method="inner", prim="Inner")
def inner(input, other):
    """Sum-product over the last axes of ``input`` and ``other`` (scalars multiply)."""
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    _check_inner(input, other, -1, -1)
    return jnp.inner(input, other, precision=_HIGHEST)


@op(static=("axis",), dtype="promote", prim="VecDot")
def vecdot(x, y, *, axis=-1):
    """``sum(conj(x) * y, axis)`` with broadcasting."""
    norm_axis(axis, max(x.ndim, y.ndim))
    return jnp.sum(jnp.conj(x) * y if jnp.iscomplexobj(x) else x * y, axis=axis)


def _tensor_dot_axes(axes, a, b):
    if isinstance(axes, int):
        if axes < 0 or axes > min(a.ndim, b.ndim):
            raise ValueError(f"'axes' must be in [0, {min(a.ndim, b.ndim)}], but got {axes}.")
        return axes
    if not isinstance(axes, tuple) or len(axes) != 2:
        raise ArgTypeError(f"'axes' must be an int or a pair of axis sequences, but got {axes}.")
    xa, xb = ((v,) if isinstance(v, int) else tuple(v) for v in axes)
    if len(xa) != len(xb):
        raise ValueError(f"the two axis lists in 'axes' must have the same length, but got "
                         f"{axes}.")
    xa = tuple(norm_axis(v, a.ndim, "axes") for v in xa)
    xb = tuple(norm_axis(v, b.ndim, "axes") for v in xb)
    for i, j in zip(xa, xb):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"the contracted dimensions must be equal, but got shapes "
                             f"{tuple(a.shape)} and {tuple(b.shape)} for axes {axes}.")
    return xa, xb


@op(static=("axes",), dtype=same_dtype("tensor_dot"), prim="MatMul")
def tensor_dot(x1, x2, axes):
    """Contract ``x1`` and ``x2`` over ``axes`` (an int n: the last n of ``x1`` with the
    first n of ``x2``; or a pair of axis lists)."""
    return jnp.tensordot(x1, x2, _tensor_dot_axes(axes, x1, x2), precision=_HIGHEST)


_tensor_dot_row = tensor_dot


def tensor_dot(x1, x2, axes):  # noqa: F811 - the public face of the row above
    """Contract ``x1`` and ``x2`` over ``axes`` (nested lists are accepted)."""
    return _tensor_dot_row(x1, x2, deep_tuple(axes))


set_public(_tensor_dot_row, tensor_dot)


@op(static=("equation",), dtype="promote", prim="Einsum",
    primitive=PrimDef(init=(("equation", ""),),
                      call=lambda p, operands: einsum(p.equation, *operands)))
def einsum(equation, operands):
    """Einstein summation over ``operands`` as described by ``equation`` ('ij,jk->ik').

    The row takes the operands as one tuple; ``ops.einsum(equation, *operands)`` below
    is the public form."""
    if not isinstance(equation, str):
        raise ArgTypeError(f"'equation' must be a str, but got {type(equation).__name__}.")
    return jnp.einsum(equation, *operands, precision=_HIGHEST)


_einsum_row = einsum


def _sublist(seq):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "".join("..." if s is Ellipsis else letters[s] for s in seq)


def einsum(equation, *operands):  # noqa: F811 - the public face of the row above
    """Einstein summation; also MindSpore's sublist form
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    if isinstance(equation, Tensor):
        args = (equation,) + operands
        if len(args) % 2:  # a trailing output sublist
            tensors, subs, out = args[0:-1:2], args[1:-1:2], args[-1]
        else:
            tensors, subs, out = args[0::2], args[1::2], None
        eq = ",".join(_sublist(s) for s in subs)
        if out is not None:
            eq += "->" + _sublist(out)
        return _einsum_row(eq, tensors)
    return _einsum_row(equation, operands)


set_public(_einsum_row, einsum)


@op(dtype="promote", prim="Kron")
def kron(input, other):
    """Kronecker product."""
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    return jnp.kron(input, other)


@op(static=("dim",), dtype="promote", method="cross", prim="Cross",
    primitive=PrimDef(init=(("dim", -65530),), call=lambda p, a, b: cross(a, b, p.dim)))
def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (``None``: the first axis of size 3)."""
    shape = jnp.broadcast_shapes(input.shape, other.shape)
    if dim is None or dim == -65530:
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise ValueError(f"no dimension of size 3 in the input shape {shape}.")
    ax = norm_axis(dim, len(shape), "dim")
    if shape[ax] != 3:
        raise ValueError(f"the size of 'dim' {dim} must be 3, but got {shape[ax]}.")
    a, b = jnp.broadcast_to(input, shape), jnp.broadcast_to(other, shape)
    return jnp.cross(a, b, axis=ax)


def _fused(input, prod, beta, alpha):
    for name, v in (("beta", beta), ("alpha", alpha)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ArgTypeError(f"'{name}' must be an int or float, but got {type(v).__name__}.")
    dt = jnp.result_type(input, prod)
    return (beta * input + alpha * prod).astype(dt)


@op(static=("beta", "alpha"), dtype="promote", method="addmm", prim="Addmm")
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``."""
    _need_ndim("addmm", mat1=(mat1, 2, 2), mat2=(mat2, 2, 2))
    _check_inner(mat1, mat2, 1, 0)
    return _fused(input, _matmul(mat1, mat2), beta, alpha)


@op(static=("beta", "alpha"), dtype="promote", method="addmv", prim="Addmv")
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    _need_ndim("addmv", mat=(mat, 2, 2), vec=(vec, 1, 1))
    _check_inner(mat, vec, 1, 0)
    return _fused(input, _matmul(mat, vec), beta, alpha)


@op(static=("beta", "alpha"), dtype="promote", method="addbmm", prim="Addbmm")
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    _need_ndim("addbmm", batch1=(batch1, 3, 3), batch2=(batch2, 3, 3))
    _check_inner(batch1, batch2, -1, -2)
    return _fused(input, jnp.sum(_matmul(batch1, batch2), axis=0), beta, alpha)


@op(static=("beta", "alpha"), dtype="promote", method="baddbmm", prim="Baddbmm")
def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)``, batched over axis 0."""
    _need_ndim("baddbmm", batch1=(batch1, 3, 3), batch2=(batch2, 3, 3))
    _check_inner(batch1, batch2, -1, -2)
    return _fused(input, _matmul(batch1, batch2), beta, alpha)


@op(static=("beta", "alpha"), dtype="promote", prim="Addr")
def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)``."""
    _need_ndim("addr", vec1=(vec1, 1, 1), vec2=(vec2, 1, 1))
    return _fused(x, jnp.outer(vec1, vec2), beta, alpha)


@tensor_method("addr")
def _tensor_addr(self, vec1, vec2, beta=1, alpha=1):
    return addr(self, vec1, vec2, beta=beta, alpha=alpha)



def _t2(x, flag):
    return swapaxes(x, -1, -2) if flag else x


__all__ = exports(__name__)
