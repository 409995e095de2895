"""``Linear`` (the torch-style Dense) and ``BiDense`` (a bilinear layer).

``Linear(in_features, out_features, bias=True)`` holds ``weight`` (out, in)
initialised HeUniform(negative_slope=sqrt(5)) and ``bias`` U(-1/sqrt(in),
1/sqrt(in)), as MindSpore does. ``BiDense(in1, in2, out)`` computes
``y_k = x1 @ weight[k] @ x2 + bias_k`` with ``weight`` (out, in1, in2) and
``bias`` both U(-1/sqrt(in1), 1/sqrt(in1)) by default.
"""
from __future__ import annotations

import math

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import HeUniform, Uniform, initializer
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn._checkparam import check_bool, check_positive_int
from msxla.nn.cell import Cell

__all__ = ["Linear", "BiDense"]


class Linear(Cell):
    """``x @ weight.T + bias`` over the last axis."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__()
        self.in_features = check_positive_int(in_features, "in_features", "Linear")
        self.out_features = check_positive_int(out_features, "out_features", "Linear")
        self.has_bias = check_bool(bias, "has_bias", "Linear")
        dtype = mstype.float32 if dtype is None else dtype
        if isinstance(weight_init, Tensor) and (weight_init.ndim != 2 or tuple(
                weight_init.shape) != (out_features, in_features)):
            raise ValueError(f"For 'Linear', weight init shape error. The ndim of 'weight_init' "
                             f"must be equal to 2, and the first dim must be equal to "
                             f"'out_features', and the second dim must be equal to 'in_features'. "
                             f"But got 'weight_init': {weight_init}, 'out_features': "
                             f"{out_features}, 'in_features': {in_features}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_features, in_features], dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_features))
            self.bias = Parameter(initializer(bias_init, [out_features], dtype), name="bias")

    def construct(self, x):
        out = ops.matmul(x, self.weight.swapaxes(0, 1))
        return out + self.bias if self.bias is not None else out

    def extend_repr(self):
        return (f"input_features={self.in_features}, output_features={self.out_features}, "
                f"has_bias={self.has_bias}")


class BiDense(Cell):
    """The bilinear map ``y_k = x1 @ weight[k] @ x2 + bias_k`` over the last axes."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, dtype=mstype.float32):
        super().__init__()
        self.in1_channels = check_positive_int(in1_channels, "in1_channels", "BiDense")
        self.in2_channels = check_positive_int(in2_channels, "in2_channels", "BiDense")
        self.out_channels = check_positive_int(out_channels, "out_channels", "BiDense")
        self.has_bias = check_bool(has_bias, "has_bias", "BiDense")
        bound = 1 / math.sqrt(in1_channels)
        shape = (out_channels, in1_channels, in2_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For 'BiDense', weight init shape error. The ndim of 'weight_init' "
                             f"must be equal to 3, the first dim must be equal to 'out_channels', "
                             f"the second dim must be equal to 'in1_channels', and the third dim "
                             f"must be equal to 'in2_channels'. But got 'weight_init': "
                             f"{weight_init}, 'out_channels': {out_channels}, 'in_channels': "
                             f"{in1_channels}, 'in2_channels': {in2_channels}")
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None else weight_init,
                                            shape, dtype), "weight")
        if self.has_bias:
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init,
                                              [out_channels], dtype), name="bias")

    def construct(self, input1, input2):
        for name, x, n in (("input1", input1, self.in1_channels),
                           ("input2", input2, self.in2_channels)):
            if not isinstance(x, Tensor):
                raise TypeError(f"For 'BiDense', the '{name}' must be Tensor.")
            if x.shape[-1] != n:
                raise ValueError(f"For 'BiDense', the last dimension of '{name}' must be same as "
                                 f"'in{name[-1]}_channels', but got {x.shape[-1]} of '{name}' and "
                                 f"{n} of 'in{name[-1]}_channels'")
        if input1.shape[:-1] != input2.shape[:-1]:
            raise ValueError(f"For 'BiDense', the shape of 'input1' and 'input2' must be the "
                             f"same except the last dimension, but got {input1.shape} and "
                             f"{input2.shape}.")
        lead = input1.shape[:-1]
        x1 = input1.reshape(-1, self.in1_channels)
        x2 = input2.reshape(-1, self.in2_channels)
        out = ops.einsum("bi,kij,bj->bk", x1, self.weight, x2)
        if self.has_bias:
            out = out + self.bias
        return out.reshape(lead + (self.out_channels,))

    def extend_repr(self):
        return (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
                f"output_channels={self.out_channels}, has_bias={self.has_bias}")
