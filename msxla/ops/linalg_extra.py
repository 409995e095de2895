"""Op rows: the remaining matrix and comparison ops of MindSpore's surface:
``matrix_determinant``, ``log_matrix_determinant`` (sign and log of |det|),
``cholesky_inverse``, ``cov``, ``renorm``, ``approximate_equal``, ``mvlgamma``,
``igamma`` / ``igammac`` (regularised incomplete gamma) and ``fills``."""
from __future__ import annotations

import math

import jax.numpy as jnp
from jax.scipy import special

from msxla.common import dtype as mstype
from msxla.ops._shape_util import norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports

_FLOAT = (mstype.float32, mstype.float64)


@composite(method="matrix_determinant")
def matrix_determinant(input):  # noqa: A002
    """The determinants of the square matrices in the last two axes (``det``)."""
    from msxla.ops.linalg_matrix import det
    return det(input)


@composite(method="log_matrix_determinant")
def log_matrix_determinant(input):  # noqa: A002
    """``(sign, log|det|)`` of the square matrices in the last two axes (``slogdet``)."""
    from msxla.ops.linalg_decomp import slogdet
    return slogdet(input)


@op(static=("upper",), method="cholesky_inverse", prim="CholeskyInverse", dtypes=_FLOAT,
    primitive=PrimDef(init=(("upper", False),)))
def cholesky_inverse(input_x, upper=False):
    """The inverse of ``A = L L^T`` (``U^T U`` with ``upper``) from its Cholesky factor."""
    a = input_x.T @ input_x if upper else input_x @ input_x.T
    return jnp.linalg.inv(a)


@op(static=("correction",), dtype="float", method="cov", prim="Cov")
def cov(input, *, correction=1, fweights=None, aweights=None):  # noqa: A002
    """The covariance of the rows (variables) of ``input`` over its columns
    (observations), with frequency and analytic weights."""
    x = jnp.atleast_2d(input)
    n = x.shape[1]
    w = jnp.ones(n, x.dtype)
    if fweights is not None:
        w = w * fweights.astype(x.dtype)
    if aweights is not None:
        w = w * aweights.astype(x.dtype)
    total = w.sum()
    mean = (x * w).sum(1, keepdims=True) / total
    if aweights is None:
        norm = total - correction
    else:
        norm = total - correction * (w * aweights.astype(x.dtype)).sum() / total
    centred = x - mean
    out = (centred * w) @ centred.T / jnp.maximum(norm, 0)
    return out.squeeze() if input.ndim < 2 else out


@op(static=("p", "axis", "maxnorm"), method="renorm", prim="Renorm",
    dtypes=(mstype.float16,) + _FLOAT,
    primitive=PrimDef(init=(("p", 2), ("dim", 0), ("maxnorm", 1.0)),
                      call=lambda prim, x: renorm(x, prim.p, prim.dim, prim.maxnorm)))
def renorm(input, p, axis, maxnorm):  # noqa: A002
    """Each slice along ``axis`` scaled to have ``p``-norm at most ``maxnorm``."""
    ax = norm_axis(axis, input.ndim, "axis")
    others = tuple(i for i in range(input.ndim) if i != ax)
    norm = jnp.sum(jnp.abs(input) ** p, axis=others, keepdims=True) ** (1.0 / p)
    scale = jnp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return (input * scale).astype(input.dtype)


@op(static=("tolerance",), dtype="promote", method="approximate_equal",
    prim="ApproximateEqual", differentiable=False,
    primitive=PrimDef(init=(("tolerance", 1e-5),),
                      call=lambda prim, x, y: approximate_equal(x, y, prim.tolerance)))
def approximate_equal(x, y, tolerance=1e-05):
    """``|x - y| < tolerance``."""
    return jnp.abs(x - y) < tolerance


@op(static=("p",), method="mvlgamma", prim="Mvlgamma", dtypes=_FLOAT,
    primitive=PrimDef(init=(("p", 1),), call=lambda prim, x: mvlgamma(x, prim.p)))
def mvlgamma(input, p):  # noqa: A002
    """The multivariate log-gamma of dimension ``p``."""
    j = jnp.arange(p, dtype=input.dtype)
    out = jnp.sum(special.gammaln(input[..., None] - j / 2), axis=-1)
    return out + p * (p - 1) / 4 * math.log(math.pi)


@op(dtype="promote", method="igamma", prim="Igamma", dtypes=_FLOAT, primitive=True)
def igamma(input, other):  # noqa: A002
    """The regularised lower incomplete gamma function ``P(input, other)``."""
    return special.gammainc(input, other)


@op(dtype="promote", method="igammac", prim="Igammac", dtypes=_FLOAT, primitive=True)
def igammac(input, other):  # noqa: A002
    """The regularised upper incomplete gamma function ``Q(input, other)``."""
    return special.gammaincc(input, other)


@op(dtype_args=("x",), method="fills", prim="Fills")
def fills(x, value):
    """A Tensor of ``x``'s shape and dtype filled with ``value``."""
    return jnp.full(x.shape, value, x.dtype)


__all__ = exports(__name__)
