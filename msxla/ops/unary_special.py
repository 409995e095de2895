"""Op rows: special functions (erf, lgamma, digamma, i0, logit, sinc), angle units, complex parts.

dtypes follow MindSpore 2.10: ``digamma``, ``i0``, ``deg2rad`` and
``rad2deg`` accept float Tensors only; ``erf``/``erfc``/``erfinv`` and
``lgamma`` give float32 for integer inputs; ``real``/``imag`` of a complex
Tensor give its float part dtype and leave real dtypes as they are.
"""
from __future__ import annotations

import math

import jax.numpy as jnp
from jax.scipy import special

from msxla.ops._elementwise import ALL, FLOATS, INT, FLOAT, NUM, REAL, unary
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


@op(dtype=unary("Erf", REAL, to_float=True), method="erf", prim="Erf", primitive=True)
def erf(input):
    """The Gauss error function."""
    return special.erf(input)


@op(dtype=unary("Erfc", REAL, to_float=True), method="erfc", prim="Erfc", primitive=True)
def erfc(input):
    """``1 - erf(input)``, accurate for large inputs."""
    return special.erfc(input)


@op(dtype=unary("Erfinv", REAL, to_float=True), method="erfinv", prim="Erfinv", primitive=True)
def erfinv(input):
    """The inverse error function (``±inf`` at ``±1``, NaN outside ``[-1, 1]``)."""
    return special.erfinv(input)


@op(dtype=unary("Lgamma", (INT, FLOAT), to_float=True), method="lgamma", prim="Lgamma",
    primitive=True)
def lgamma(input):
    """``log|Γ(input)|``."""
    return special.gammaln(input)


@op(dtype=unary("Digamma", FLOATS), method="digamma", prim="Digamma", primitive=True)
def digamma(input):
    """The logarithmic derivative of Γ."""
    return special.digamma(input)


@op(dtype=unary("BesselI0", FLOATS), method="i0", prim="BesselI0", primitive=True)
def i0(input):
    """The modified Bessel function of the first kind, order 0."""
    return special.i0(input)


@op(dtype=unary("BesselI0", FLOATS), prim="BesselI0")
def bessel_i0(x):
    """Alias of ``i0``."""
    return special.i0(x)


@op(dtype=unary("BesselI0e", FLOATS), prim="BesselI0e", primitive=True)
def bessel_i0e(x):
    """The exponentially scaled modified Bessel function of order 0, ``exp(-|x|) i0(x)``."""
    return special.i0e(x)


@op(dtype=unary("BesselI1", FLOATS), prim="BesselI1", primitive=True)
def bessel_i1(x):
    """The modified Bessel function of the first kind, order 1."""
    return special.i1(x)


@op(dtype=unary("BesselI1e", FLOATS), prim="BesselI1e", primitive=True)
def bessel_i1e(x):
    """The exponentially scaled modified Bessel function of order 1, ``exp(-|x|) i1(x)``."""
    return special.i1e(x)


def _logit_call(prim, input):
    eps = prim.attrs["eps"]
    return logit(input, eps=None if eps < 0 else float(eps))


@op(dtype=unary("Logit", REAL, to_float=True), static=("eps",), method="logit", prim="Logit",
    primitive=PrimDef(init=(("eps", -1.0),), call=_logit_call))
def logit(input, eps=None):
    """``log(p / (1 - p))``; with ``eps`` the input is first clamped to ``[eps, 1 - eps]``.

    A negative ``eps`` means no clamping (``ops.Logit``'s default ``-1.0``)."""
    if eps is not None and eps >= 0:
        input = jnp.clip(input, eps, 1 - eps)
    return jnp.log(input / (1 - input))


@op(dtype=unary("Sinc", ALL, to_float=True), method="sinc", prim="Sinc", primitive=True)
def sinc(input):
    """``sin(πx) / (πx)``, 1 at 0."""
    return jnp.sinc(input)


@op(dtype=unary("Deg2Rad", FLOATS), method="deg2rad", prim="Deg2Rad")
def deg2rad(x):
    """Degrees to radians."""
    return x * jnp.asarray(math.pi / 180, x.dtype)


@op(dtype=unary("Rad2Deg", FLOATS), method="rad2deg", prim="Rad2Deg")
def rad2deg(x):
    """Radians to degrees."""
    return x * jnp.asarray(180 / math.pi, x.dtype)


@op(dtype=unary("Angle", ALL, to_float=True), method="angle", prim="Angle", primitive=True)
def angle(input):
    """The argument of a complex number (0 or π for real inputs), as a float Tensor."""
    return jnp.angle(input)


@op(dtype=unary("Real"), method="real", prim="Real", primitive=True)
def real(input):
    """The real part (real Tensors are returned unchanged)."""
    return jnp.real(input) if jnp.iscomplexobj(input) else input


@op(dtype=unary("Imag"), method="imag", prim="Imag", primitive=True)
def imag(input):
    """The imaginary part (zeros of the same dtype for real Tensors)."""
    return jnp.imag(input) if jnp.iscomplexobj(input) else jnp.zeros_like(input)


@op(dtype=unary("Conj", NUM), method="conj", prim="Conj", primitive=True)
def conj(input):
    """The complex conjugate (real Tensors are returned unchanged)."""
    return jnp.conj(input) if jnp.iscomplexobj(input) else input


__all__ = exports(__name__)
