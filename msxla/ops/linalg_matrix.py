"""Op rows: matrix functions and norms.

inverse, det, matrix_power, norm (vector and matrix norms with torch's
``linalg.norm`` rules), cdist and dist, with the MatrixInverse,
MatrixDeterminant, MatrixPower, Cdist and LpNorm Primitive classes.
"""
from __future__ import annotations

import math

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.errors import DTypeError, user_error
from msxla.ops._shape_util import ArgTypeError, as_dtype, norm_axes, op
from msxla.ops.primitive import PrimDef
from msxla.ops.shape import moveaxis, reshape, swapaxes
from msxla.ops.surface import exports


_INEXACT = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16,
            mstype.complex64, mstype.complex128)


def inexact_rule(opname):
    """A dtype rule: floating or complex inputs only, kept as they are."""

    def rule(key):
        for k in key:
            if isinstance(k, mstype.Type) and k not in _INEXACT:
                raise user_error(DTypeError, f"For '{opname}', the input must be a float or "
                                             f"complex Tensor, but got Tensor[{k}].")
        return None

    rule.__name__ = f"inexact_{opname}"
    return rule


def _square(x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"the input must be a (batch of) square matrices, but got shape "
                         f"{tuple(x.shape)}.")


@op(dtype=inexact_rule("MatrixInverse"), method="inverse", prim="MatrixInverse",
    primitive=PrimDef(init=(("adjoint", False),),
                      call=lambda prim, x: inverse(_adjoint(x) if prim.adjoint else x)))
def inverse(input):
    """The inverse of each square matrix in the last two axes."""
    _square(input)
    return jnp.linalg.inv(input)


@op(dtype=inexact_rule("MatrixDeterminant"), method="det", prim="MatrixDeterminant", primitive=True)
def det(input):
    """The determinant of each square matrix in the last two axes."""
    _square(input)
    return jnp.linalg.det(input)


@op(static=("n",), method="matrix_power", prim="MatrixPower",
    primitive=PrimDef(init=(("n", 1),), call=lambda prim, x: matrix_power(x, prim.n)))
def matrix_power(input, n):
    """``input`` multiplied by itself ``n`` times (``n < 0``: powers of the inverse)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise ArgTypeError(f"'n' must be an int, but got {type(n).__name__}.")
    _square(input)
    if n < 0 and not jnp.issubdtype(input.dtype, jnp.inexact):
        raise ArgTypeError("a negative 'n' needs a float input.")
    return jnp.linalg.matrix_power(input, n).astype(input.dtype)


_MATRIX_ORDS = ("fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2)


def _lp_norm(prim, x):
    """LpNorm: the p-norm over ``axis`` (an int or several axes taken together)."""
    axes = norm_axes(prim.axis, x.ndim)
    rest = tuple(s for i, s in enumerate(x.shape) if i not in axes)
    moved = reshape(moveaxis(x, axes, tuple(range(len(rest), x.ndim))), rest + (-1,))
    out = norm(moved, float(prim.p), -1)
    if prim.keep_dims:
        out = reshape(out, tuple(1 if i in axes else s for i, s in enumerate(x.shape)))
    return out


@op(static=("ord", "dim", "keepdim", "dtype"), dtype="float", method="norm", prim="Norm",
    primitive=PrimDef("LpNorm", init=(("axis", 0), ("p", 2), ("keep_dims", False),
                                              ("epsilon", 1e-12)), call=_lp_norm))
def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Vector norm (``dim`` an int) or matrix norm (``dim`` two ints) of ``A``; without
    ``dim`` the 2-norm of all elements, or by ``ord`` the norm of a 1-D/2-D ``A``."""
    if dtype is not None:
        A = A.astype(as_dtype(dtype).np_dtype)
    if dim is None:
        if ord is None:
            return jnp.linalg.norm(A.reshape(-1), keepdims=False).reshape(
                (1,) * A.ndim if keepdim else ())
        if A.ndim not in (1, 2):
            raise ValueError(f"with 'dim' None and 'ord' {ord!r} the input must be 1-D or 2-D, "
                             f"but got shape {tuple(A.shape)}.")
        dim = tuple(range(A.ndim))
    dim = norm_axes(dim, A.ndim, "dim")
    if len(dim) == 1:
        if isinstance(ord, str):
            raise ArgTypeError(f"ord mode can not be str for vectors, but got {ord}.")
        return jnp.linalg.norm(A, 2 if ord is None else ord, dim[0], keepdim)
    if len(dim) != 2 or dim[0] == dim[1]:
        raise ValueError(f"'dim' must name 1 or 2 distinct axes, but got {dim}.")
    ord = "fro" if ord is None else ord
    if ord not in _MATRIX_ORDS:
        raise ValueError(f"invalid 'ord' {ord!r} for matrices; use one of {_MATRIX_ORDS}.")
    return jnp.linalg.norm(A, ord, dim, keepdim)


def _pnorm(d, p, axis):
    a = jnp.abs(d)
    if p == 0:
        return jnp.sum((a != 0).astype(d.dtype), axis=axis)
    if p == math.inf:
        return jnp.max(a, axis=axis)
    if p == 2:
        return jnp.sqrt(jnp.sum(a * a, axis=axis))
    if p == 1:
        return jnp.sum(a, axis=axis)
    return jnp.sum(a ** p, axis=axis) ** (1.0 / p)


@op(static=("p",), dtype="float", prim="Cdist",
    primitive=PrimDef(init=(("p", 2.0),), call=lambda prim, a, b: cdist(a, b, prim.p)))
def cdist(x1, x2, p=2.0):
    """p-norm distances between the rows of ``x1`` (B, P, M) and ``x2`` (B, R, M):
    shape (B, P, R); 2-D inputs have no batch axis."""
    if x1.ndim not in (2, 3) or x1.ndim != x2.ndim:
        raise ValueError(f"the inputs must both be 2-D or 3-D, but got shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}.")
    if x1.shape[-1] != x2.shape[-1] or x1.shape[:-2] != x2.shape[:-2]:
        raise ValueError(f"the batch and last dimensions must match, but got shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}.")
    if p < 0:
        raise ValueError(f"'p' must be non-negative, but got {p}.")
    d = x1[..., :, None, :] - x2[..., None, :, :]
    return _pnorm(d, p, -1)


@op(static=("p",), dtype="float", prim="LpNorm")
def dist(input, other, p=2):
    """The p-norm of ``input - other`` over all elements."""
    z = input - other
    if z.ndim == 0:
        return jnp.abs(z)
    return _pnorm(z.reshape(-1), p, 0)


def _adjoint(x):
    out = swapaxes(x, -1, -2)
    if mstype.category(x.dtype) == 3:
        from msxla.ops import conj
        out = conj(out)
    return out


__all__ = exports(__name__)
