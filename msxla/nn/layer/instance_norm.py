"""InstanceNorm1d/2d/3d: each (sample, channel) plane normalised by its own statistics.

``y = (x - mean) / sqrt(var + eps) * gamma + beta`` with the mean and biased
variance of each (n, c) over the spatial dimensions, in training and in
evaluation alike (MindSpore's InstanceNorm primitive always uses the instance
statistics). The Parameters are MindSpore's: ``moving_mean`` / ``moving_variance``
(named ``mean`` / ``variance``), ``gamma``, ``beta`` (not trained when
``affine=False``). In training mode the moving statistics follow the batch's
average instance statistics, ``moving = (1 - momentum) * moving + momentum * batch``
with the unbiased variance (cuDNN's rule, which MindSpore's GPU kernel uses;
MindSpore's CPU build has no InstanceNorm kernel).
"""
from __future__ import annotations

import math
import numbers

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import initializer
from msxla.common.parameter import Parameter
from msxla.nn.cell import Cell

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class _InstanceNorm(Cell):
    _rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        if isinstance(num_features, bool) or not isinstance(num_features, int):
            raise TypeError(f"For '{name}', the type of 'num_features' must be int, but got "
                            f"{type(num_features).__name__}.")
        if num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be at least 1, but got "
                             f"{num_features}.")
        if not isinstance(momentum, numbers.Real) or not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        if not isinstance(affine, bool):
            raise TypeError(f"For '{name}', the type of 'affine' must be bool, but got "
                            f"{type(affine).__name__}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.moving_mean = Parameter(initializer("zeros", num_features, dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", num_features, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        name = type(self).__name__
        if x.ndim != self._rank:
            raise ValueError(f"For '{name}', the dimension of 'x' must be {self._rank}, but got "
                             f"{x.ndim}.")
        if x.shape[1] != self.num_features:
            raise ValueError(f"For '{name}', the channel of 'x' must be {self.num_features}, "
                             f"but got {x.shape[1]}.")
        axes = tuple(range(2, x.ndim))
        mean = x.mean(axes, keep_dims=True)
        var = (x - mean).square().mean(axes, keep_dims=True)
        out = (x - mean) / (var + self.eps).sqrt()
        shape = (1, self.num_features) + (1,) * len(axes)
        out = out * self.gamma.reshape(shape) + self.beta.reshape(shape)
        if self.training:
            n = math.prod(x.shape[2:])
            batch_mean = ops.stop_gradient(mean.reshape(x.shape[:2]).mean(0))
            batch_var = ops.stop_gradient(var.reshape(x.shape[:2]).mean(0)) * (n / max(n - 1, 1))
            m = self.momentum
            ops.assign(self.moving_mean, (1 - m) * self.moving_mean + m * batch_mean)
            ops.assign(self.moving_variance, (1 - m) * self.moving_variance + m * batch_var)
        return out

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L)."""

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W)."""

    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W)."""

    _rank = 5
