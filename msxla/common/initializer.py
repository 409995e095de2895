"""``mindspore.common.initializer``: weight initializers.

Each Initializer fills a float64 numpy array of a given shape in place
(drawing from the numpy generator that ``set_seed`` seeds) and
``initializer(init, shape, dtype)`` turns it into a Tensor of ``dtype``.
Names, defaults, string aliases, fan computation and error messages follow
MindSpore 2.10: for a weight of shape ``(out, in, *kernel)``,
fan_in = in * prod(kernel) and fan_out = out * prod(kernel). The random
values differ from MindSpore's (another generator); the distributions match.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from msxla.common import dtype as mstype
from msxla.common.seed import get_seed, numpy_rng

__all__ = ["Initializer", "initializer", "TruncatedNormal", "Normal", "Uniform", "HeUniform",
           "HeNormal", "XavierUniform", "XavierNormal", "One", "Zero", "Constant", "Identity",
           "Sparse", "Dirac", "Orthogonal", "VarianceScaling"]

_INITIALIZER_ALIAS = {}


class Initializer:
    """Base class: subclasses implement ``_initialize(arr)``, filling ``arr`` in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._seed = None

    @property
    def seed(self):
        if self._seed is None:
            return (get_seed() or 0, 0)
        return (self._seed + 1, 0)

    @seed.setter
    def seed(self, value):
        self._seed = value

    def _initialize(self, arr):
        raise NotImplementedError("Must be overridden!")

    def __call__(self, arr=None, shape=None, dtype=mstype.float32):
        """Fill ``arr`` in place (MindSpore's form), or return a Tensor of ``shape``."""
        if arr is not None:
            self._initialize(arr)
            return arr
        return initializer(self, shape, dtype)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


def _register(*aliases):
    def alias_reg(cls):
        _INITIALIZER_ALIAS.setdefault(cls.__name__.lower(), cls)
        for alias in aliases:
            _INITIALIZER_ALIAS.setdefault(alias, cls)
        return cls
    return alias_reg


def _calculate_fan_in_and_fan_out(shape):
    dimensions = len(shape)
    if dimensions < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 "
                         f"dimensions, but got dimensions {dimensions}.")
    receptive = int(np.prod(shape[2:])) if dimensions > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _calculate_correct_fan(shape, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"'mode' {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity, param=None):
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"For 'HeUniform', 'negative_slope' {param} is not a valid number."
                             "When 'nonlinearity' has been set to 'leaky_relu', 'negative_slope' "
                             f"should be int or float type, but got {type(param)}.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError("For 'HeUniform', the argument 'nonlinearity' should be one of ['sigmoid', "
                     f"'tanh', 'relu' or 'leaky_relu'], but got {nonlinearity}.")


def _normal(mean, sigma, shape):
    if sigma < 0:
        raise ValueError("sigma < 0")
    return numpy_rng().normal(mean, sigma, shape)


def _uniform(low, high, shape):
    return numpy_rng().uniform(low, high, shape)


def _truncated_normal(a, b, mean, sigma, shape):
    """N(mean, sigma) restricted to [a, b] (rejection sampling)."""
    if sigma < 0:
        raise ValueError("sigma < 0")
    n = int(np.prod(shape))
    out = np.empty(n)
    if sigma == 0:
        out[:] = mean
        return out.reshape(shape)
    lo, hi = (a - mean) / sigma, (b - mean) / sigma
    rng, filled = numpy_rng(), 0
    while filled < n:
        draw = rng.normal(size=max(16, 2 * (n - filled)))
        draw = draw[(draw >= lo) & (draw <= hi)][: n - filled]
        out[filled:filled + draw.size] = draw
        filled += draw.size
    return (out * sigma + mean).reshape(shape)


@_register("zeros")
class Zero(Initializer):
    """Fills with 0."""

    def _initialize(self, arr):
        arr.fill(0)


@_register("ones")
class One(Initializer):
    """Fills with 1."""

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """Fills with ``value``."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        arr.fill(self.value)


@_register("xavier_normal")
class XavierNormal(Initializer):
    """N(0, gain * sqrt(2 / (fan_in + fan_out)))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        arr[...] = _normal(0, std, arr.shape)


@_register("xavier_uniform")
class XavierUniform(Initializer):
    """U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = _uniform(-bound, bound, arr.shape)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _std(self, shape):
        fan = _calculate_correct_fan(shape, self.mode)
        return _calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


@_register("he_uniform")
class HeUniform(_He):
    """U(-b, b) with b = sqrt(3) * gain / sqrt(fan)."""

    def _initialize(self, arr):
        bound = math.sqrt(3.0) * self._std(arr.shape)
        arr[...] = _uniform(-bound, bound, arr.shape)


@_register("he_normal")
class HeNormal(_He):
    """N(0, gain / sqrt(fan))."""

    def _initialize(self, arr):
        arr[...] = _normal(0, self._std(arr.shape), arr.shape)


@_register()
class Identity(Initializer):
    """The (rectangular) identity matrix; 2-D only."""

    def _initialize(self, arr):
        if len(arr.shape) != 2:
            raise ValueError("For Identity initializer, the dimension of the initialized tensor "
                             f"should be 2, but got {len(arr.shape)}.")
        arr[...] = np.eye(arr.shape[0], arr.shape[1])


@_register()
class Sparse(Initializer):
    """N(0, sigma) with ``ceil(sparsity * rows)`` zeros in every column; 2-D only."""

    def __init__(self, sparsity, sigma=0.01):
        super().__init__()
        self.sparsity = sparsity
        self.sigma = sigma

    def _initialize(self, arr):
        if len(arr.shape) != 2:
            raise ValueError("For Sparse initializer, the dimension of the initialized tensor "
                             f"should be 2, but got {len(arr.shape)}.")
        rows, cols = arr.shape
        zero_num = int(np.ceil(self.sparsity * rows))
        data = _normal(0, self.sigma, arr.shape)
        for col in range(cols):
            data[numpy_rng().permutation(rows)[:zero_num], col] = 0.0
        arr[...] = data


@_register()
class Dirac(Initializer):
    """Identity-preserving convolution kernels (3-D, 4-D or 5-D), per group."""

    def __init__(self, groups=1):
        super().__init__()
        self.groups = groups

    def _initialize(self, arr):
        shape = arr.shape
        if len(shape) not in (3, 4, 5):
            raise ValueError("For Dirac initializer, only support to initialize tensor with "
                             f"dimension of 3, 4 or 5, but got {len(shape)}.")
        if shape[0] % self.groups != 0:
            raise ValueError("For Dirac initializer, the first dimension ofthe initialized "
                             "tensor must be divisible by groups, but got first dimension"
                             f"{shape[0]}, groups{self.groups}.")
        data = np.zeros(shape)
        per_group = shape[0] // self.groups
        centre = tuple(s // 2 for s in shape[2:])
        for group in range(self.groups):
            for dim in range(min(per_group, shape[1])):
                data[(group * per_group + dim, dim) + centre] = 1
        arr[...] = data


@_register()
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix over the flattened trailing dimensions, times ``gain``."""

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        if len(arr.shape) < 2:
            raise ValueError("For Orthogonal initializer, the dimension of the initialized tensor "
                             f"should be no less than 2, but got {len(arr.shape)}.")
        rows = arr.shape[0]
        cols = int(np.prod(arr.shape)) // rows
        data = _normal(0, 1, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        arr[...] = (q * self.gain).reshape(arr.shape)


@_register()
class VarianceScaling(Initializer):
    """Variance ``scale / fan`` (fan_in, fan_out or their mean).

    As in MindSpore 2.10, the default ``distribution='truncated_normal'`` is
    sampled like ``'uniform'`` (MindSpore's sampler tests for the spelling
    'truncated_norm'); ``'untruncated_normal'`` is N(0, sqrt(scale))."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0.0:
            raise ValueError("For VarianceScaling initializer, the argument 'scale' must be "
                             f"greater than 0, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("For VarianceScaling initializer, the argument 'mode' must be fan_in, "
                             f"fan_out or fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("For VarianceScaling initializer, the argument 'distribution' must be "
                             "uniform, truncated_norm or untruncated_norm, but got "
                             f"{distribution}.")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, fan[self.mode])
        if self.distribution == "untruncated_normal":
            arr[...] = _normal(0, np.sqrt(scale), arr.shape)
        else:
            limit = np.sqrt(3.0 * scale)
            arr[...] = _uniform(-limit, limit, arr.shape)


@_register()
class Uniform(Initializer):
    """U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        arr[...] = _uniform(-self.scale, self.scale, arr.shape)


@_register()
class Normal(Initializer):
    """N(mean, sigma)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, arr):
        arr[...] = _normal(self.mean, self.sigma, arr.shape)


@_register()
class TruncatedNormal(Initializer):
    """N(mean, sigma) truncated to the interval [a, b]."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = sigma
        self.mean = mean
        self.a = a
        self.b = b

    def _initialize(self, arr):
        arr[...] = _truncated_normal(self.a, self.b, self.mean, self.sigma, arr.shape)


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of ``shape`` and ``dtype`` filled by ``init``.

    ``init`` is an Initializer, an alias string (``'normal'``, ``'ones'``,
    ``'xavier_uniform'``, ...), a number (a constant) or a Tensor (returned as
    is; its shape must equal ``shape``)."""
    from msxla.common.tensor import Tensor, to_array, wrap
    if not isinstance(init, (Tensor, numbers.Number, str, Initializer)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', "
                        "'number', 'string' or 'initializer', but got "
                        f"{type(init)}.")
    if isinstance(init, Tensor):
        if shape is not None:
            want = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
            if tuple(init.shape) != want:
                raise ValueError("For 'initializer', the shape of the 'init' argument should be "
                                 "same as the argument 'shape', but got the 'init' shape "
                                 f"{list(init.shape)} and the 'shape' {shape}.")
        return init
    if isinstance(shape, list):
        shape = tuple(shape)
    elif isinstance(shape, numbers.Number):
        shape = (shape,)
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' is required.")
    for value in shape:
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError("For 'initializer', the argument 'shape' is invalid, the value of "
                             f"'shape' must be positive integer, but got {shape}")
    if isinstance(init, str):
        cls = _INITIALIZER_ALIAS.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not "
                             "found.")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    dtype = mstype.to_ms(dtype)
    exact = isinstance(init, (Zero, One, Constant, Identity, Dirac))
    arr = np.zeros(shape, dtype=dtype.np_dtype if exact else np.float64)
    init._initialize(arr)
    return wrap(to_array(arr.astype(dtype.np_dtype), None))
