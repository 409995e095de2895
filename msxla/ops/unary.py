"""Op rows: elementwise unary math (abs, exp, log, sqrt, powers, trigonometric, hyperbolic).

dtypes follow MindSpore 2.10: the transcendental functions give float32 for
bool and integer inputs and keep float and complex dtypes; ``abs`` and
``square`` keep every dtype (``abs`` of a complex Tensor stays complex, as in
MindSpore). MindSpore's alias names (``absolute``, ``arcsin``, ...) are rows of
their own because their parameter names differ.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._elementwise import ALL, NUM, unary
from msxla.ops._kink_grads import kinked
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


def _fl(prim):
    """Float math: bool/int inputs give float32."""
    return unary(prim, ALL, to_float=True)


def _abs(x):
    if jnp.iscomplexobj(x):
        return jnp.abs(x).astype(x.dtype)
    if x.dtype == jnp.bool_:
        return x
    return _real_abs(x)


@kinked(lambda v: jnp.sign(v))
def _real_abs(v):  # AbsGrad: sign(x), 0 at 0
    return jnp.abs(v)


@op(dtype=unary("Abs"), method="abs", operators=("__abs__",), prim="Abs", primitive=True)
def abs(input):  # noqa: A001 - MindSpore's name
    """``|input|``; keeps the dtype (a complex input gives ``|z| + 0j``)."""
    return _abs(input)


@op(dtype=unary("Abs"), method="absolute", prim="Abs")
def absolute(input):
    """Alias of ``abs``."""
    return _abs(input)


@op(dtype=_fl("Exp"), method="exp", prim="Exp", primitive=True)
def exp(input):
    """``e ** input``."""
    return jnp.exp(input)


def _exp2_rule(key):
    t = _fl("Exp2")(key)
    return mstype.float32 if t is mstype.bfloat16 else t


@op(dtype=_exp2_rule, method="exp2", prim="Exp2")
def exp2(input):
    """``2 ** input`` (bfloat16 gives float32, as in MindSpore)."""
    return jnp.exp2(input)


@op(dtype=_fl("Expm1"), method="expm1", prim="Expm1", primitive=True)
def expm1(input):
    """``exp(input) - 1``, accurate near 0."""
    return jnp.expm1(input)


@op(dtype=_fl("Log"), method="log", prim="Log", primitive=True)
def log(input):
    """Natural logarithm."""
    return jnp.log(input)


@op(dtype=_fl("Log2"), method="log2", prim="Log2")
def log2(input):
    """Base-2 logarithm."""
    return jnp.log2(input)


@op(dtype=_fl("Log10"), method="log10", prim="Log10")
def log10(input):
    """Base-10 logarithm."""
    return jnp.log10(input)


@op(dtype=_fl("Log1p"), method="log1p", prim="Log1p", primitive=True)
def log1p(input):
    """``log(1 + input)``, accurate near 0."""
    return jnp.log1p(input)


@op(dtype=_fl("Sqrt"), method="sqrt", prim="Sqrt", primitive=True)
def sqrt(x):
    """Square root."""
    return jnp.sqrt(x)


@op(dtype=_fl("Rsqrt"), method="rsqrt", prim="Rsqrt", primitive=True)
def rsqrt(input):
    """``1 / sqrt(input)``."""
    return jax.lax.rsqrt(input)


@op(dtype=unary("Square"), method="square", prim="Square", primitive=True)
def square(input):
    """``input * input``; keeps the dtype (bool stays bool)."""
    if input.dtype == jnp.bool_:
        return input
    return jnp.square(input)


@op(dtype=_fl("Reciprocal"), method="reciprocal", prim="Reciprocal", primitive=True)
def reciprocal(input):
    """``1 / input`` (integers give float32)."""
    return jnp.reciprocal(input)


def _trig(name, fn, prim, param="input", method=None, primitive=None):
    """Define a float-math row ``name(param)`` computing ``fn``."""
    ns = {"fn": fn}
    exec(f"def {name}({param}):\n    return fn({param})\n", ns)  # noqa: S102 - fixed template
    impl = ns[name]
    impl.__doc__ = f"Elementwise ``{fn.__name__}`` (bool/int inputs give float32)."
    impl.__module__ = __name__
    return op(dtype=_fl(prim), method=method or name, prim=prim, primitive=primitive)(impl)


sin = _trig("sin", jnp.sin, "Sin", primitive=True)
cos = _trig("cos", jnp.cos, "Cos", primitive=True)
tan = _trig("tan", jnp.tan, "Tan", primitive=True)
asin = _trig("asin", jnp.arcsin, "Asin", primitive=True)
arcsin = _trig("arcsin", jnp.arcsin, "Asin", param="x")
acos = _trig("acos", jnp.arccos, "ACos", primitive=True)
arccos = _trig("arccos", jnp.arccos, "ACos")
atan = _trig("atan", jnp.arctan, "Atan", primitive=True)
arctan = _trig("arctan", jnp.arctan, "Atan")
sinh = _trig("sinh", jnp.sinh, "Sinh", primitive=True)
cosh = _trig("cosh", jnp.cosh, "Cosh", primitive=True)
tanh = _trig("tanh", jnp.tanh, "Tanh", primitive=True)
asinh = _trig("asinh", jnp.arcsinh, "Asinh", primitive=True)
arcsinh = _trig("arcsinh", jnp.arcsinh, "Asinh")
acosh = _trig("acosh", jnp.arccosh, "Acosh", primitive=True)
arccosh = _trig("arccosh", jnp.arccosh, "Acosh")
atanh = _trig("atanh", jnp.arctanh, "Atanh", primitive=True)
arctanh = _trig("arctanh", jnp.arctanh, "Atanh")




def _inv(x):
    if jnp.issubdtype(x.dtype, jnp.integer):
        # C's integer 1 / x: 1 and -1 keep their value, other values give 0 and
        # 0 gives the smallest value of the dtype (as MindSpore's kernel does).
        low = jnp.iinfo(x.dtype).min
        return jnp.where(x == 0, jnp.array(low, x.dtype),
                         jnp.where((x == 1) | (x == -1), x, jnp.zeros_like(x)))
    return jnp.reciprocal(x)


@op(dtype=unary("Inv", NUM), method="inv", prim="Inv", primitive=True)
def inv(input):
    """``1 / input`` keeping the dtype (an integer Tensor divides as C does)."""
    return _inv(input)


def _identity_prim(prim, input_x):
    from msxla.common.tensor import Tensor
    if not isinstance(input_x, Tensor):
        raise TypeError(f'Failed calling Identity with "Identity()(input_x='
                        f'{type(input_x).__name__})". The valid calling should be: '
                        '"Identity()(input_x=<Tensor>)".')
    return identity(input_x)


@op(prim="Identity", primitive=PrimDef(call=_identity_prim))
def identity(input):
    """A copy of ``input``."""
    return jnp.array(input, copy=True)


__all__ = exports(__name__)
