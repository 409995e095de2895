"""Basic layers: Dense, Flatten, Unflatten, Identity and the Dropout Cells.

``Dense`` holds ``weight`` (out_channels, in_channels) and ``bias``
(out_channels,), initialised as MindSpore does by default: weight
HeUniform(negative_slope=sqrt(5)) (U(-1/sqrt(in), 1/sqrt(in))), bias
U(-1/sqrt(in), 1/sqrt(in)). Dropout is the identity unless the Cell is in
training mode (``set_train()``), and then draws a fresh mask on every call.
"""
from __future__ import annotations

import math

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import HeUniform, Uniform, initializer
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.errors import user_error
from msxla.nn._checkparam import check_bool, check_positive_int, check_value_type
from msxla.nn.cell import Cell
from msxla.nn.layer.activation import get_activation

__all__ = ["Dense", "Flatten", "Unflatten", "Identity", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d"]


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight.T + bias)`` over the last axis."""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None,
                 has_bias=True, activation=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels = check_positive_int(in_channels, "in_channels", "Dense")
        self.out_channels = check_positive_int(out_channels, "out_channels", "Dense")
        self.has_bias = check_bool(has_bias, "has_bias", "Dense")
        if isinstance(weight_init, Tensor) and (
                weight_init.ndim != 2 or weight_init.shape[0] != out_channels
                or weight_init.shape[1] != in_channels):
            raise ValueError(f"For 'Dense', weight init shape error. The ndim of 'weight_init' "
                             f"must be equal to 2, and the first dim must be equal to "
                             f"'out_channels', and the second dim must be equal to 'in_channels'. "
                             f"But got 'weight_init': {weight_init}, 'out_channels': "
                             f"{out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and (bias_init.ndim != 1
                                                  or bias_init.shape[0] != out_channels):
                raise ValueError(f"For 'Dense', bias init shape error. The ndim of 'bias_init' "
                                 f"must be equal to 1, and the first dim must be equal to "
                                 f"'out_channels'. But got 'bias_init': {bias_init}, "
                                 f"'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) \
            else activation
        if activation is not None and not callable(self.activation):
            raise TypeError(f"For 'Dense', the 'activation' must be str or Cell or Primitive, "
                            f"but got {type(activation).__name__}.")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        if x.shape[-1] != self.in_channels:
            raise user_error(ValueError, f"For 'MatMul' the input dimensions must be equal, but "
                             f"got 'x1_col': {x.shape[-1]} and 'x2_row': {self.in_channels}.",
                             hint=f"the input's last dimension must be the Dense's "
                                  f"in_channels ({self.in_channels}).")
        x = ops.dense(x, self.weight, self.bias if self.has_bias else None)
        if self.activation_flag:
            x = self.activation(x)
        return x

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Merge axes ``start_dim..end_dim`` (default: all but the batch axis)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        ndim = max(x.ndim, 1)
        for axis in (self.start_dim, self.end_dim):
            if axis < -ndim or axis >= ndim:
                raise ValueError("'start_dim' or 'end_dim' out of range.")
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Unflatten(Cell):
    """Split axis ``axis`` into ``unflattened_size``."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        check_value_type("axis", axis, int, "Unflatten")
        check_value_type("unflattended_size", unflattened_size, (list, tuple), "Unflatten")
        self.axis = axis
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, input_x):
        shape = tuple(input_x.shape)
        new = shape[:self.axis] + self.unflattened_size
        if self.axis != -1:
            new += shape[self.axis + 1:]
        return ops.reshape(input_x, new)


class Identity(Cell):
    """Returns its input."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):
        return input


class Dropout(Cell):
    """Zero elements with probability ``p`` (or ``1 - keep_prob``) in training mode and
    scale the rest by ``1 / (1 - p)``; the identity in eval mode."""

    def __init__(self, keep_prob=0.5, p=None, dtype=mstype.float32):
        super().__init__()
        if p is None:
            check_value_type("keep_prob", keep_prob, [float], "Dropout")
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range "
                                 f"(0, 1], but got {keep_prob}.")
            self._drop = 1.0 - keep_prob
        else:
            check_value_type("p", p, [float, int], "Dropout")
            if p < 0 or p >= 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), but "
                                 f"got {p}.")
            self._drop = float(p)
        self.p = p
        self.keep_prob = keep_prob

    def construct(self, x):
        if not self.training or self.keep_prob == 1 or self.p == 0:
            return x
        return ops.dropout(x, p=self._drop)

    def extend_repr(self):
        if self.p is None:
            return f"keep_prob={self.keep_prob}"
        return f"p={self.p}"


class Dropout1d(Cell):
    """Zero whole channels of (N, C, L) with probability ``p`` in training mode."""

    def __init__(self, p=0.5):
        super().__init__()
        check_value_type("p", p, [float], "Dropout1d")
        if p < 0 or p > 1:
            raise ValueError(f"For 'Dropout1d', the 'p' must be a number in range [0, 1], but "
                             f"got {p}.")
        self.prob = p

    def construct(self, x):
        if not self.training or self.prob == 0:
            return x
        return ops.dropout1d(x, self.prob)


class Dropout2d(Cell):
    """Zero whole channels of (N, C, H, W) with probability ``p`` in training mode."""

    def __init__(self, p=0.5):
        super().__init__()
        check_value_type("p", p, [float], "Dropout2d")
        if p < 0 or p > 1:
            raise ValueError(f"For 'Dropout2d', the 'p' must be a number in range [0, 1], but "
                             f"got {p}.")
        self.keep_prob = 1.0 - p

    def construct(self, x):
        if not self.training or self.keep_prob == 1:
            return x
        return ops.dropout2d(x, 1.0 - self.keep_prob)

    def extend_repr(self):
        return f"p={self.keep_prob}"


class Dropout3d(Cell):
    """Zero whole channels of (N, C, D, H, W) with probability ``p`` in training mode."""

    def __init__(self, p=0.5):
        super().__init__()
        check_value_type("p", p, [float], "Dropout3d")
        if p < 0 or p > 1:
            raise ValueError(f"For 'Dropout3d', the 'p' must be a number in range [0, 1], but "
                             f"got {p}.")
        self.keep_prob = 1.0 - p

    def construct(self, x):
        if not self.training or self.keep_prob == 1:
            return x
        return ops.dropout3d(x, 1.0 - self.keep_prob)

    def extend_repr(self):
        return f"p={self.keep_prob}"
