"""``mindspore.common.initializer``: weight initializers.

Each Initializer fills a numpy array of a given shape (drawing from the
numpy generator that ``set_seed`` seeds) and ``initializer(init, shape,
dtype)`` turns it into a Tensor. Fan-in/fan-out follow MindSpore: for a
weight of shape ``(out, in, *kernel)``, fan_in = in * prod(kernel) and
fan_out = out * prod(kernel).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from msxla.common import dtype as mstype
from msxla.common.seed import numpy_rng


class Initializer:
    """Base class: subclasses implement ``_initialize(arr)`` in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _initialize(self, arr):
        raise NotImplementedError

    def __call__(self, arr=None, shape=None, dtype=mstype.float32):
        """Fill ``arr`` in place, or return a Tensor of ``shape`` and ``dtype``."""
        if arr is not None:
            self._initialize(arr)
            return arr
        return initializer(self, shape, dtype)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


def _fans(shape):
    if len(shape) < 2:
        raise ValueError("For the fan-based initializers, the shape must have at least 2 "
                         f"dimensions, but got {tuple(shape)}.")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, param=None):
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity!r}.")


class Zero(Initializer):
    def _initialize(self, arr):
        arr[...] = 0


class One(Initializer):
    def _initialize(self, arr):
        arr[...] = 1


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        arr[...] = self.value


class Normal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _initialize(self, arr):
        arr[...] = numpy_rng().normal(self.mean, self.sigma, arr.shape)


class Uniform(Initializer):
    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        arr[...] = numpy_rng().uniform(-self.scale, self.scale, arr.shape)


class TruncatedNormal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr):
        lo, hi = (self.a - self.mean) / self.sigma, (self.b - self.mean) / self.sigma
        out = np.empty(arr.shape)
        flat, rng, n = out.reshape(-1), numpy_rng(), out.size
        filled = 0
        while filled < n:  # rejection sampling of the standard normal on [lo, hi]
            draw = rng.normal(size=max(16, 2 * (n - filled)))
            draw = draw[(draw >= lo) & (draw <= hi)][: n - filled]
            flat[filled:filled + draw.size] = draw
            filled += draw.size
        arr[...] = out * self.sigma + self.mean


class XavierUniform(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = numpy_rng().uniform(-bound, bound, arr.shape)


class XavierNormal(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        arr[...] = numpy_rng().normal(0.0, std, arr.shape)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"For '{type(self).__name__}', mode must be 'fan_in' or 'fan_out', "
                             f"but got {mode!r}.")
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _std(self, shape):
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


class HeUniform(_He):
    def _initialize(self, arr):
        bound = math.sqrt(3.0) * self._std(arr.shape)
        arr[...] = numpy_rng().uniform(-bound, bound, arr.shape)


class HeNormal(_He):
    def _initialize(self, arr):
        arr[...] = numpy_rng().normal(0.0, self._std(arr.shape), arr.shape)


class Identity(Initializer):
    def _initialize(self, arr):
        if arr.ndim != 2:
            raise ValueError("For 'Identity', the shape must be 2-D.")
        arr[...] = np.eye(*arr.shape)


class Orthogonal(Initializer):
    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        rows = arr.shape[0]
        cols = int(np.prod(arr.shape[1:]))
        flat = numpy_rng().normal(size=(rows, cols))
        if rows < cols:
            flat = flat.T
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        arr[...] = self.gain * q.reshape(arr.shape)


_ALIASES = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One, "normal": Normal,
    "uniform": Uniform, "truncatednormal": TruncatedNormal, "truncated_normal": TruncatedNormal,
    "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal, "xaviernormal": XavierNormal, "he_uniform": HeUniform,
    "heuniform": HeUniform, "he_normal": HeNormal, "henormal": HeNormal,
    "identity": Identity, "eye": Identity, "orthogonal": Orthogonal,
}


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of ``shape`` and ``dtype`` filled by ``init``.

    ``init`` may be an Initializer, its name (``'normal'``, ``'ones'``, ...), a
    number (a constant) or a Tensor (copied; its shape must equal ``shape``)."""
    from msxla.common.tensor import Tensor, to_array, wrap
    dtype = mstype.to_ms(dtype)
    if isinstance(init, Tensor):
        if shape is not None and tuple(init.shape) != tuple(_shape(shape)):
            raise ValueError(f"For 'initializer', the shape of the init Tensor {init.shape} "
                             f"does not match shape {tuple(_shape(shape))}.")
        return wrap(to_array(init, dtype))
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the init name {init!r} is not supported; use "
                             f"one of {sorted(_ALIASES)}.")
        init = cls()
    elif isinstance(init, numbers.Number) and not isinstance(init, bool):
        init = Constant(init)
    if not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', init must be an Initializer, str, number or Tensor, "
                        f"but got {type(init).__name__}.")
    arr = np.zeros(_shape(shape), dtype=np.float64)
    init._initialize(arr)
    return wrap(to_array(arr.astype(dtype.np_dtype), None))


def _shape(shape):
    if shape is None:
        raise ValueError("For 'initializer', shape is required.")
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    return tuple(int(s) for s in shape)
