"""Normalisation layers: BatchNorm1d/2d/3d, LayerNorm and GroupNorm.

BatchNorm keeps MindSpore's conventions: Parameters ``moving_mean`` and
``moving_variance`` (named ``mean`` / ``variance`` until a parent Cell
renames them), ``gamma`` and ``beta``; ``momentum`` is the weight of the old
statistics, ``moving = momentum * moving + (1 - momentum) * batch`` (the
batch variance unbiased), default 0.9. In training mode (or with
``use_batch_statistics=True``) the batch statistics normalise and the moving
ones are written through Parameter assignment, so the update is a graph
output under jit and happens once per call under grad.
"""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import initializer
from msxla.common.parameter import Parameter
from msxla.nn._checkparam import check_bool, check_positive_int, check_value_type
from msxla.nn.cell import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm"]


class _BatchNorm(Cell):
    """Batch normalisation over every axis but the channel axis 1."""

    _ranks = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        check_value_type("num_features", num_features, [int], name)
        if num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be at least 1, but got "
                             f"{num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{name}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{name}', the 'format' must be str and must be in "
                             f"'['NCHW', 'NHWC']', but got '{data_format}'.")
        if data_format == "NHWC":
            raise ValueError(f"For '{name}', the 'NHWC' format only support in GPU target, but "
                             f"got device target CPU.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{name}', the 'use_batch_statistics' must be a boolean value "
                             f"or None, but got {use_batch_statistics}.")
        self.use_batch_statistics = use_batch_statistics
        self.num_features = num_features
        self.eps = eps
        self.format = data_format
        self.gamma_init, self.beta_init = gamma_init, beta_init
        self.moving_mean_init, self.moving_var_init = moving_mean_init, moving_var_init
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype),
                                     name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype), name="beta",
                              requires_grad=affine)
        self.momentum = 1.0 - momentum  # the weight of the batch statistics

    def _check_input_dim(self, ndim):
        if ndim not in self._ranks:
            raise ValueError(f"For '{type(self).__name__}', the in_shape must have "
                             f"{self._ranks[0]} dims, but got {ndim}.")

    def construct(self, x):
        self._check_input_dim(x.ndim)
        use_batch = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        return ops.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta,
                              training=use_batch, momentum=self.momentum, eps=self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, "
                f"momentum={1.0 - self.momentum}, gamma={self.gamma}, beta={self.beta}, "
                f"moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L)."""

    _ranks = (2, 3)

    def _check_input_dim(self, ndim):
        if ndim not in self._ranks:
            raise ValueError(f"For 'BatchNorm1d', the must have 2 dims or 3 dims, but got "
                             f"{ndim}.")


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W)."""

    _ranks = (4,)


class BatchNorm3d(Cell):
    """Batch normalisation of (N, C, D, H, W), through a BatchNorm2d named ``bn2d``."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, dtype=mstype.float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                moving_mean_init, moving_var_init, use_batch_statistics,
                                data_format="NCHW", dtype=dtype)

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"For 'BatchNorm3d', the in_shape must have 5 dims, but got "
                             f"{x.ndim}.")
        n, c, d, h, w = x.shape
        return self.bn2d(x.reshape((n, c, d * h, w))).reshape((n, c, d, h, w))


class LayerNorm(Cell):
    """Normalise over the axes from ``begin_norm_axis`` on, then ``* gamma + beta``
    (``gamma``/``beta`` of shape ``normalized_shape``)."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] "
                            f"or list[int], but got {normalized_shape} and the type is "
                            f"{type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., "
                             f"containing at least one element, but got normalized_shape = "
                             f"{normalized_shape}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype), name="beta")
        self._layer_norm = ops.LayerNorm(begin_norm_axis=begin_norm_axis,
                                         begin_params_axis=begin_params_axis, epsilon=epsilon)

    def construct(self, input_x):
        y, _, _ = self._layer_norm(input_x, self.gamma.astype(input_x.dtype),
                                   self.beta.astype(input_x.dtype))
        return y

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, "
                f"begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, "
                f"beta={self.beta}")


class GroupNorm(Cell):
    """Normalise each of ``num_groups`` channel groups of (N, C, ...), then per-channel
    ``* gamma + beta``."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=mstype.float32):
        super().__init__()
        self.num_groups = check_positive_int(num_groups, "num_groups", "GroupNorm")
        self.num_channels = check_positive_int(num_channels, "num_channels", "GroupNorm")
        if num_channels % num_groups != 0:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by "
                             f"'num_groups', but got 'num_channels': {num_channels}, "
                             f"'num_groups': {num_groups}.")
        self.eps = check_value_type("eps", eps, (float,), "GroupNorm")
        self.affine = check_bool(affine, "affine", "GroupNorm")
        self.gamma = Parameter(initializer(gamma_init, num_channels, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_channels, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        if x.shape[1] != self.num_channels:
            raise ValueError(f"For 'GroupNorm', the channel(the second dim of the input 'x') "
                             f"must be equal to num_channels, but got channel: {x.shape[1]}, "
                             f"num_channels: {self.num_channels}.")
        return ops.group_norm(x, self.num_groups, self.gamma.astype(x.dtype),
                              self.beta.astype(x.dtype), self.eps)

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"
