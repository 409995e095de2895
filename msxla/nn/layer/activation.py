"""Activation Cells (``mindspore.nn.ReLU``, ``GELU``, ``Softmax``, ...) and ``get_activation``.

Each Cell calls its op row, so it runs the same eagerly and inside a captured
graph. Constructor arguments, defaults and ``get_activation`` names follow
MindSpore 2.10 (``GELU(approximate=True)`` is the tanh approximation).
"""
from __future__ import annotations

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn._checkparam import check_bool, check_positive_int
from msxla.nn.cell import Cell

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "FastGelu", "SiLU", "Sigmoid", "Tanh",
           "Softmax", "LogSoftmax", "Softmin", "ELU", "SeLU", "CELU", "PReLU", "HSwish",
           "HSigmoid", "Mish", "Hardtanh", "LogSigmoid", "Softsign", "Tanhshrink", "SoftShrink",
           "HShrink", "GLU", "Threshold", "get_activation"]


def _simple(name, fn, doc):
    """A Cell without arguments whose construct is ``fn(x)``."""
    def __init__(self):
        Cell.__init__(self)

    def construct(self, x):
        return fn(x)

    return type(name, (Cell,), {"__init__": __init__, "construct": construct, "__doc__": doc,
                                "__module__": __name__})


ReLU = _simple("ReLU", ops.relu, "``max(x, 0)``.")
ReLU6 = _simple("ReLU6", ops.relu6, "``min(max(x, 0), 6)``.")
SiLU = _simple("SiLU", ops.silu, "``x * sigmoid(x)``.")
Sigmoid = _simple("Sigmoid", ops.sigmoid, "``1 / (1 + exp(-x))``.")
Tanh = _simple("Tanh", ops.tanh, "Hyperbolic tangent.")
SeLU = _simple("SeLU", ops.selu, "Scaled exponential linear unit.")
HSwish = _simple("HSwish", ops.hardswish, "Hard swish.")
HSigmoid = _simple("HSigmoid", ops.hardsigmoid, "Hard sigmoid.")
Mish = _simple("Mish", ops.mish, "``x * tanh(softplus(x))``.")
LogSigmoid = _simple("LogSigmoid", ops.logsigmoid, "``log(sigmoid(x))``.")
Softsign = _simple("Softsign", ops.softsign, "``x / (1 + |x|)``.")
Tanhshrink = _simple("Tanhshrink", ops.tanhshrink, "``x - tanh(x)``.")
FastGelu = _simple("FastGelu", ops.fast_gelu, "The fast GELU approximation.")


class LeakyReLU(Cell):
    """``x`` where positive, else ``alpha * x``."""

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return ops.leaky_relu(x, self.alpha)


class GELU(Cell):
    """Gaussian error linear unit; ``approximate=True`` is the tanh approximation."""

    def __init__(self, approximate=True):
        super().__init__()
        check_bool(approximate, "approximate", "GELU")
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x):
        return ops.gelu(x, approximate=self.approximate)


class _AxisCell(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis


class Softmax(_AxisCell):
    """Softmax along ``axis``."""

    def construct(self, input):
        return ops.softmax(input, self.axis)


class LogSoftmax(_AxisCell):
    """Log-softmax along ``axis``."""

    def construct(self, x):
        return ops.log_softmax(x, self.axis)


class Softmin(_AxisCell):
    """``softmax(-x)`` along ``axis``."""

    def construct(self, x):
        return ops.softmin(x, self.axis)


class ELU(Cell):
    """Exponential linear unit."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return ops.elu(x, self.alpha)


class CELU(ELU):
    """Continuously differentiable ELU."""

    def construct(self, x):
        return ops.celu(x, self.alpha)


class PReLU(Cell):
    """Leaky ReLU with a learnt slope per channel (Parameter ``w``, named ``a``)."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        check_positive_int(channel, "channel", "PReLU")
        if isinstance(w, (float, np.float32)):
            w = Tensor(np.full((channel,), w, np.float32), mstype.float32)
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For 'PReLU', the length of 'w' must be equal to the 'channel' "
                                 f"when the 'w' is a list, but got the length of 'w': {len(w)}, "
                                 f"the 'channel': {channel}.")
            w = Tensor(w, mstype.float32)
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise ValueError(f"For 'PReLU', the dtype of 'w' must be float16 or float32 when "
                                 f"the 'w' is a tensor, but got {w.dtype}.")
            if len(w.shape) != 1 or w.shape[0] != channel:
                raise ValueError(f"For 'PReLU', the dimension of 'w' must be 1, and the elements "
                                 f"number should be equal to the 'channel' when the 'w' is a "
                                 f"tensor, but got 'w' shape {w.shape}, the 'channel' {channel}.")
        else:
            raise TypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, but got "
                            f"{type(w).__name__}.")
        self.w = Parameter(w, name="a")

    def construct(self, x):
        return ops.prelu(x, ops.cast(self.w, x.dtype))


class Hardtanh(Cell):
    """``x`` clipped to ``[min_val, max_val]``."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        if min_val >= max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,but got "
                             f"{min_val} and {max_val}")
        self.min_val, self.max_val = min_val, max_val

    def construct(self, x):
        return ops.hardtanh(x, self.min_val, self.max_val)


class SoftShrink(Cell):
    """Soft shrinkage by ``lambd``."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return ops.softshrink(input, self.lambd)


class HShrink(SoftShrink):
    """Hard shrinkage by ``lambd``."""

    def construct(self, input):
        return ops.hardshrink(input, self.lambd)


class GLU(Cell):
    """Gated linear unit: halves ``a, b`` of ``axis``, ``a * sigmoid(b)``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.dim = axis

    def construct(self, x):
        return ops.glu(x, self.dim)


class Threshold(Cell):
    """``x`` where ``x > threshold``, else ``value``."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold, self.value = threshold, value

    def construct(self, input_x):
        return ops.threshold(input_x, self.threshold, self.value)


_ACTIVATIONS = {
    "softmin": Softmin, "softmax": Softmax, "logsoftmax": LogSoftmax, "relu": ReLU,
    "relu6": ReLU6, "silu": SiLU, "tanh": Tanh, "tanhshrink": Tanhshrink, "hardtanh": Hardtanh,
    "gelu": GELU, "fast_gelu": FastGelu, "elu": ELU, "sigmoid": Sigmoid, "softsign": Softsign,
    "prelu": PReLU, "leakyrelu": LeakyReLU, "hswish": HSwish, "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid, "softshrink": SoftShrink, "hshrink": HShrink,
    "threshold": Threshold, "mish": Mish,
}


def get_activation(name, prim_name=None):
    """A new activation Cell for ``name`` (``'relu'``, ``'gelu'``, ...), or None for None."""
    if name is None:
        return None
    if name not in _ACTIVATIONS:
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise KeyError(f"{prefix} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return _ACTIVATIONS[name]()
