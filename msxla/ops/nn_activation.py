"""Op rows: activations (relu, gelu, silu, softmax, log_softmax, ...).

Float-only activations reject integer inputs with MindSpore's TypeError;
relu, leaky_relu, hardtanh and threshold keep integer dtypes as MindSpore does.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.seed import next_key
from msxla.common.tensor import Tensor
from msxla.ops._nn_util import float_rule
from msxla.ops._kink_grads import kinked
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports, set_public, tensor_method


_F16_64 = (mstype.float16, mstype.float32, mstype.float64)


def _fl(name):
    return float_rule(name)


@op(static=("inplace",), prim="ReLU", primitive=True)
def relu(input, inplace=False):
    """``max(input, 0)``; ``inplace=True`` also rebinds ``input`` to the result."""
    return _relu(input)


@kinked(lambda v: v > 0)
def _relu(v):
    return jnp.maximum(v, jnp.zeros((), v.dtype))


_relu_row = relu


def relu(input, inplace=False):  # noqa: F811 - the public face of the row above
    """``max(input, 0)``; ``inplace=True`` also rebinds ``input`` to the result."""
    out = _relu_row(input, inplace=False)
    if inplace and isinstance(input, Tensor):
        input._data = out._data
        return input
    return out


set_public(_relu_row, relu)


@op(dtype=float_rule("ReLU6", _F16_64), prim="ReLU6", primitive=True)
def relu6(x):
    """``min(max(x, 0), 6)``."""
    return _relu6(x)


@kinked(lambda v: (v > 0) & (v <= 6))
def _relu6(v):
    return jnp.clip(v, 0, 6).astype(v.dtype)


@op(static=("alpha",), prim="LeakyReLU")
def leaky_relu(input, alpha=0.2):
    """``input`` where positive, ``alpha * input`` elsewhere."""
    return _leaky_relu(input, alpha)


@kinked(lambda v, alpha: jnp.where(v > 0, 1.0, jnp.where(v < 0, alpha, (1.0 + alpha) / 2)))
def _leaky_relu(v, alpha):  # MindSpore splits the tie at 0
    return jnp.where(v > 0, v, v * alpha).astype(v.dtype)


@op(dtype=_fl("Elu"), static=("alpha",), prim="Elu", primitive=PrimDef(init=(("alpha", 1.0),)))
def elu(input_x, alpha=1.0):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere."""
    return jnp.where(input_x >= 0, input_x, alpha * jnp.expm1(jnp.minimum(input_x, 0)))


@op(dtype=_fl("SeLU"), prim="SeLU", primitive=True)
def selu(input_x):
    """Scaled ELU with the self-normalising constants."""
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    x = input_x
    return (scale * jnp.where(x > 0, x, alpha * jnp.expm1(jnp.minimum(x, 0)))).astype(x.dtype)


@op(dtype=_fl("CeLU"), static=("alpha",), prim="CeLU", primitive=PrimDef(init=(("alpha", 1.0),)))
def celu(x, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return (jnp.maximum(x, 0) + jnp.minimum(0, alpha * jnp.expm1(jnp.minimum(x, 0) / alpha))
            ).astype(x.dtype)


@op(dtype=_fl("GeLU"), static=("approximate",), prim="GeLU", primitive=("GeLU", "Gelu"))
def gelu(input, approximate="none"):
    """Gaussian error linear unit; ``approximate='tanh'`` uses the tanh formula."""
    if approximate == "none":
        return (0.5 * input * (1 + jax.lax.erf(input * (1 / math.sqrt(2))))).astype(input.dtype)
    if approximate == "tanh":
        c = math.sqrt(2 / math.pi)
        return (0.5 * input * (1 + jnp.tanh(c * (input + 0.044715 * input ** 3)))
                ).astype(input.dtype)
    raise ValueError(f"For 'gelu', approximate value should be either 'none' or 'tanh', "
                     f"but got {approximate}.")


@op(dtype=_fl("FastGeLU"), prim="FastGeLU", primitive=("FastGeLU", "FastGelu"))
def fast_gelu(x):
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, i.e. ``x * sigmoid(1.702 x)``."""
    return (x * jax.nn.sigmoid(1.702 * x)).astype(x.dtype)


@op(dtype=_fl("SiLU"), prim="SiLU")
def silu(input):
    """``input * sigmoid(input)``."""
    return input * jax.nn.sigmoid(input)


@op(dtype=_fl("Sigmoid"), method="sigmoid", prim="Sigmoid", primitive=True)
def sigmoid(input):
    """``1 / (1 + exp(-input))``."""
    return jax.nn.sigmoid(input)


@op(dtype=_fl("HSigmoid"), prim="HSigmoid", primitive=True)
def hardsigmoid(input):
    """``relu6(input + 3) / 6``."""
    return _hardsigmoid(input)


@kinked(lambda v: jnp.where((v > -3) & (v < 3), 1 / 6, 0.0))
def _hardsigmoid(v):
    return (jnp.clip(v + 3, 0, 6) / 6).astype(v.dtype)


@op(prim="HSwish", primitive=True)
def hardswish(input):
    """``input * relu6(input + 3) / 6``."""
    if jnp.issubdtype(input.dtype, jnp.integer):
        return (input * jnp.clip(input + 3, 0, 6)) // 6
    return _hardswish(input)


@kinked(lambda v: jnp.where(v > 3, 1.0, jnp.where(v < -3, 0.0, (2 * v + 3) / 6)))
def _hardswish(v):
    return (v * jnp.clip(v + 3, 0, 6) / 6).astype(v.dtype)


@op(static=("min_val", "max_val"), prim="Hardtanh")
def hardtanh(input, min_val=-1.0, max_val=1.0):
    """Clip ``input`` to ``[min_val, max_val]``."""
    return jnp.clip(input, min_val, max_val).astype(input.dtype)


@op(dtype=_fl("Mish"), prim="Mish", primitive=True)
def mish(x):
    """``x * tanh(softplus(x))``."""
    return x * jnp.tanh(jax.nn.softplus(x))


@op(dtype=_fl("Softplus"), static=("beta", "threshold"), prim="Softplus", primitive=True)
def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``."""
    bx = input * beta
    soft = jnp.log1p(jnp.exp(jnp.minimum(bx, threshold))) / beta
    return jnp.where(bx > threshold, input, soft).astype(input.dtype)


@op(dtype=_fl("Softsign"), prim="Softsign", primitive=True)
def softsign(x):
    """``x / (1 + |x|)``."""
    return x / (1 + jnp.abs(x))


@op(dtype=_fl("Tanhshrink"), prim="Tanhshrink")
def tanhshrink(input):
    """``input - tanh(input)``."""
    return input - jnp.tanh(input)


@op(dtype=_fl("SoftShrink"), static=("lambd",), prim="SoftShrink", aliases=("soft_shrink",),
    primitive=PrimDef(init=(("lambd", 0.5),)))
def softshrink(input, lambd=0.5):
    """Shrink toward zero by ``lambd``; zero inside ``[-lambd, lambd]``."""
    return jnp.where(input > lambd, input - lambd,
                     jnp.where(input < -lambd, input + lambd, 0)).astype(input.dtype)


@op(dtype=_fl("HShrink"), static=("lambd",), method="hardshrink", prim="HShrink",
    primitive=PrimDef(init=(("lambd", 0.5),)))
def hardshrink(input, lambd=0.5):
    """``input`` where ``|input| > lambd``, zero elsewhere."""
    return jnp.where(jnp.abs(input) > lambd, input, 0).astype(input.dtype)


@op(dtype=_fl("PReLU"), prim="PReLU", primitive=True)
def prelu(input, weight):
    """``input`` where positive, ``weight * input`` elsewhere (``weight`` per channel, axis 1)."""
    if input.ndim >= 2 and weight.ndim == 1:
        weight = weight.reshape((1, -1) + (1,) * (input.ndim - 2))
    return jnp.where(input > 0, input, weight * input).astype(input.dtype)


@op(dtype=_fl("RReLU"), dtype_args=("input",), static=("lower", "upper"), prim="RReLU",
    differentiable=False)
def rrelu(key, input, lower=0.125, upper=1.0 / 3):
    """Randomized leaky ReLU: negative inputs scaled by a slope drawn from U(lower, upper)."""
    slope = jax.random.uniform(key, input.shape, input.dtype, lower, upper)
    return jnp.where(input >= 0, input, input * slope)


_rrelu_row = rrelu


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):  # noqa: F811 - public face of the row
    """Randomized leaky ReLU: negative inputs scaled by a slope drawn from U(lower, upper)."""
    if not lower <= upper:
        raise ValueError(f"For 'rrelu', the value of 'upper' must be greater than or equal to "
                         f"'lower', but got upper: {upper}, lower: {lower}.")
    return _rrelu_row(next_key(), input, lower=lower, upper=upper)


set_public(_rrelu_row, rrelu)


@op(dtype=_fl("GLU"), static=("axis",), prim="GLU", primitive=PrimDef(init=(("axis", -1),)))
def glu(x, axis=-1):
    """Split ``x`` in two along ``axis``: ``a * sigmoid(b)``."""
    if x.shape[axis] % 2:
        raise ValueError(f"For 'GLU', the size of 'x' along axis {axis} must be even, but got "
                         f"{x.shape[axis]}.")
    a, b = jnp.split(x, 2, axis=axis)
    return a * jax.nn.sigmoid(b)


@op(dtype=_fl("LogSigmoid"), prim="LogSigmoid")
def logsigmoid(x):
    """``log(sigmoid(x))``, computed stably."""
    return jax.nn.log_sigmoid(x)


def _cast_softmax_input(x, dtype, name):
    if dtype is not None:
        x = x.astype(dtype.np_dtype)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"For primitive[{name}], the input argument[x] must be a type of "
                        f"{{BFloat16, Float16, Float32, Float64}}, but got {x.dtype}.")
    return x


@op(static=("axis", "dtype"), prim="Softmax", primitive=PrimDef(init=(("axis", -1),)))
def softmax(input, axis=-1, *, dtype=None):
    """``exp(x) / sum(exp(x))`` along ``axis`` (after casting to ``dtype`` if given)."""
    return jax.nn.softmax(_cast_softmax_input(input, dtype, "Softmax"), axis=axis)


@op(static=("axis",), prim="LogSoftmax", primitive=PrimDef(init=(("axis", -1),)))
def log_softmax(logits, axis=-1):
    """``x - logsumexp(x)`` along ``axis``."""
    return jax.nn.log_softmax(_cast_softmax_input(logits, None, "LogSoftmax"), axis=axis)


@op(static=("axis", "dtype"), prim="Softmin")
def softmin(x, axis=-1, *, dtype=None):
    """``softmax(-x)`` along ``axis``."""
    return jax.nn.softmax(-_cast_softmax_input(x, dtype, "Softmin"), axis=axis)


@op(prim="Threshold")
def threshold(input, thr, value):
    """``input`` where ``input > thr``, ``value`` elsewhere."""
    return jnp.where(input > thr, input, jnp.asarray(value, input.dtype))



@op(dtype=_fl("Swiglu"), static=("dim",), prim="Swiglu")
def swiglu(input, dim=-1):
    """Split ``input`` in two along ``dim``: ``silu(a) * b``."""
    if input.shape[dim] % 2:
        raise ValueError(f"For 'Swiglu', the dimension specified by 'dim' must be divisible by "
                         f"2, but got x_shape[dim]: {input.shape[dim]} .")
    a, b = jnp.split(input, 2, axis=dim)
    return a * jax.nn.sigmoid(a) * b


@op(dtype=_fl("GumbelSoftmax"), dtype_args=("logits",), static=("tau", "hard", "dim"),
    prim="GumbelSoftmax", differentiable=True)
def gumbel_softmax(key, logits, tau=1.0, hard=False, dim=-1):
    """``softmax((logits + gumbel noise) / tau)``; ``hard`` returns the one-hot argmax with
    the soft sample's gradient."""
    g = jax.random.gumbel(key, logits.shape, jnp.float32).astype(logits.dtype)
    soft = jax.nn.softmax((logits + g) / tau, axis=dim)
    if not hard:
        return soft
    one_hot = jnp.moveaxis(jax.nn.one_hot(jnp.argmax(soft, axis=dim), soft.shape[dim],
                                          dtype=soft.dtype), -1, dim)
    return one_hot - jax.lax.stop_gradient(soft) + soft


_gumbel_row = gumbel_softmax


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):  # noqa: F811 - public face
    """``softmax((logits + gumbel noise) / tau)``; ``hard`` returns the one-hot argmax with
    the soft sample's gradient."""
    if tau <= 0:
        raise ValueError(f"For 'gumbel_softmax', 'tau' must be greater than 0, but got {tau}.")
    return _gumbel_row(next_key(), logits, tau=tau, hard=hard, dim=dim)


set_public(_gumbel_row, gumbel_softmax)


@tensor_method("softmax")
def _tensor_softmax(self, axis, dtype=None):
    return softmax(self, axis, dtype=dtype)


@tensor_method("sigmoid_")
def _tensor_sigmoid_(self):
    self._data = sigmoid(self)._data
    return self


tensor_method("soft_shrink", softshrink)


__all__ = exports(__name__)
