"""``mindspore.nn.AdaMax``: Adam with the infinity norm.

``m = beta1 m + (1 - beta1) g``, ``v = max(beta2 v, |g|)``,
``w -= lr / (1 - beta1^t) * m / (v + eps)``. Slots ``moment1``, ``moment2``;
scalar ``beta1_power`` (shape [1]).
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.initializer import initializer
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn.optim.adam import _check_param_value
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["AdaMax"]


def _adamax(hyper, lr, wd, step, w, g, m, v):
    beta1, beta2, eps, beta1_power = hyper
    m = beta1 * m + (1 - beta1) * g
    v = jnp.maximum(beta2 * v, jnp.abs(g))
    return w - lr / (1 - beta1_power) * m / (v + eps), m, v


class AdaMax(Optimizer):
    """AdaMax (``mindspore.nn.AdaMax``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(initializer(1, [1], mstype.float32), name="beta1_power")
        self.eps = Tensor(eps, mstype.float32)
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")

    def construct(self, gradients):
        beta1_power = self.beta1_power._data * self.beta1._data
        self.beta1_power._data = beta1_power
        hyper = (self.beta1._data, self.beta2._data, self.eps._data, beta1_power.reshape(()))
        return self._run_rule(gradients, _adamax, (self.moment1, self.moment2), hyper)
