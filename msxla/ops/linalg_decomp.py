"""Op rows: matrix decompositions and solvers.

svd, qr, cholesky, cholesky_solve, matrix_solve, lstsq, slogdet, logdet, pinv,
matrix_exp and cond, with the Svd, Qr, Cholesky, CholeskySolve, MatrixSolve,
LogMatrixDeterminant and MatrixExp Primitive classes. All take float or
complex inputs and work on the last two axes (leading axes are a batch),
except ``lstsq``, which takes single matrices as MindSpore's does.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl

from msxla.ops._shape_util import ArgTypeError, op
from msxla.ops.linalg_matrix import inexact_rule
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports, tensor_method


_HI = jax.lax.Precision.HIGHEST


def _mT(x):
    return jnp.swapaxes(x, -1, -2)


def _mH(x):
    return jnp.conj(_mT(x)) if jnp.iscomplexobj(x) else _mT(x)


def _matrices(x, square=False):
    if x.ndim < 2:
        raise ValueError(f"the rank of the input must be at least 2, but got shape "
                         f"{tuple(x.shape)}.")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"the input must be (a batch of) square matrices, but got shape "
                         f"{tuple(x.shape)}.")


@op(static=("full_matrices", "compute_uv"), dtype=inexact_rule("Svd"), method="svd", prim="Svd",
    primitive=PrimDef(init=(("full_matrices", False), ("compute_uv", True)),
                      call=lambda prim, x: svd(x, prim.full_matrices, prim.compute_uv)))
def svd(input, full_matrices=False, compute_uv=True):
    """Singular values ``s`` (descending) and, with ``compute_uv``, ``u`` and ``v`` such that
    ``input = u @ diag(s) @ v^H``; returns ``(s, u, v)`` or ``s``."""
    _matrices(input)
    if not compute_uv:
        return jnp.linalg.svd(input, compute_uv=False)
    u, s, vh = jnp.linalg.svd(input, full_matrices=full_matrices)
    return s, u, _mH(vh)


@op(static=("mode",), dtype=inexact_rule("Qr"), prim="Qr",
    primitive=PrimDef(init=(("full_matrices", False),),
                      call=lambda prim, x: qr(x, "complete" if prim.full_matrices else "reduced")))
def qr(input, mode="reduced"):
    """``(Q, R)`` with ``input = Q @ R``, Q orthonormal and R upper triangular; ``mode``
    'reduced' (Q is M x K) or 'complete' (Q is M x M)."""
    if mode not in ("reduced", "complete"):
        raise ArgTypeError(f"the arg mode must be 'reduced' or 'complete', but got {mode}.")
    _matrices(input)
    return tuple(jnp.linalg.qr(input, mode=mode))


@op(static=("upper",), dtype=inexact_rule("Cholesky"), method="cholesky", prim="Cholesky",
    primitive=PrimDef(init=(("upper", False),), call=lambda prim, x: cholesky(x, prim.upper)))
def cholesky(input_x, upper=False):
    """The Cholesky factor of a Hermitian positive-definite matrix: L with ``A = L @ L^H``,
    or (``upper``) U with ``A = U^H @ U``."""
    _matrices(input_x, square=True)
    low = jnp.linalg.cholesky(input_x)
    return _mH(low) if upper else low


def _cho_solve(b, factor, upper):
    low = _mH(factor) if upper else factor
    y = jax.lax.linalg.triangular_solve(low, b, left_side=True, lower=True)
    return jax.lax.linalg.triangular_solve(low, y, left_side=True, lower=True, transpose_a=True,
                                           conjugate_a=jnp.iscomplexobj(low))


@op(static=("upper",), dtype=inexact_rule("CholeskySolve"), method="cholesky_solve",
    prim="CholeskySolve",
    primitive=PrimDef(init=(("upper", False),),
                      call=lambda prim, b, f: cholesky_solve(b, f, prim.upper)))
def cholesky_solve(input, input2, upper=False):
    """X with ``A @ X = input``, given the Cholesky factor ``input2`` of A (lower, or
    upper with ``upper=True``)."""
    _matrices(input2, square=True)
    if input.ndim < 2 or input.shape[-2] != input2.shape[-1]:
        raise ValueError(f"the right-hand side {tuple(input.shape)} does not fit the factor "
                         f"{tuple(input2.shape)}.")
    return _cho_solve(input, input2, upper)


@op(static=("adjoint",), dtype=inexact_rule("MatrixSolve"), prim="MatrixSolve",
    primitive=PrimDef(init=(("adjoint", False),),
                      call=lambda prim, m, r: matrix_solve(m, r, prim.adjoint)))
def matrix_solve(matrix, rhs, adjoint=False):
    """X with ``matrix @ X = rhs`` (``adjoint``: ``matrix^H @ X = rhs``)."""
    _matrices(matrix, square=True)
    return jnp.linalg.solve(_mH(matrix) if adjoint else matrix, rhs)


@op(dtype=inexact_rule("Lstsq"), method="lstsq", prim="Lstsq")
def lstsq(input, A):
    """The least-squares solution X of ``input @ X = A`` (``input`` M x N, ``A`` M or M x K)."""
    if input.ndim != 2 or A.ndim not in (1, 2) or A.shape[0] != input.shape[0]:
        raise ValueError(f"'input' must be M x N and 'A' M or M x K, but got shapes "
                         f"{tuple(input.shape)} and {tuple(A.shape)}.")
    return jnp.linalg.lstsq(input, A)[0]


@op(dtype=inexact_rule("LogMatrixDeterminant"), method="slogdet", prim="LogMatrixDeterminant",
    primitive=True)
def slogdet(input):
    """``(sign, log|det|)`` of each square matrix."""
    _matrices(input, square=True)
    return tuple(jnp.linalg.slogdet(input))


@op(dtype=inexact_rule("LogMatrixDeterminant"), method="logdet", prim="LogMatrixDeterminant")
def logdet(input):
    """``log(det(input))``: NaN where the determinant is negative."""
    _matrices(input, square=True)
    sign, logabs = jnp.linalg.slogdet(input)
    if jnp.iscomplexobj(input):
        return jnp.log(sign) + logabs
    return jnp.where(sign < 0, jnp.nan, logabs)


@op(static=("atol", "rtol", "hermitian"), dtype=inexact_rule("Pinv"), prim="Pinv")
def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse: singular values at or below ``max(atol, rtol *
    s_max)`` count as zero (default ``rtol``: eps * max(M, N) when neither is given)."""
    _matrices(x)
    u, s, vh = jnp.linalg.svd(x, full_matrices=False)
    if rtol is None:
        rtol = 0.0 if atol is not None else jnp.finfo(s.dtype).eps * max(x.shape[-2:])
    cutoff = jnp.maximum(atol or 0.0, rtol * jnp.max(s, axis=-1, keepdims=True))
    s_inv = jnp.where(s > cutoff, 1.0 / jnp.where(s > cutoff, s, 1.0), 0.0).astype(s.dtype)
    return jnp.matmul(_mH(vh) * s_inv[..., None, :], _mH(u), precision=_HI)


@op(dtype=inexact_rule("MatrixExp"), prim="MatrixExp", primitive=True)
def matrix_exp(input):
    """The matrix exponential of each square matrix."""
    _matrices(input, square=True)
    if input.ndim == 2:
        return jsl.expm(input)
    flat = input.reshape((-1,) + input.shape[-2:])
    return jax.vmap(jsl.expm)(flat).reshape(input.shape)


@op(static=("p",), dtype=inexact_rule("Cond"), prim="Cond")
def cond(A, p=None):
    """The condition number ``norm(A, p) * norm(inv(A), p)`` (``p=None``: 2-norm)."""
    _matrices(A)
    return jnp.linalg.cond(A, p)


@tensor_method("qr")
def _tensor_qr(self, some=True):
    return qr(self, "reduced" if some else "complete")



__all__ = exports(__name__)
