"""``mindspore.nn.Adam`` and ``mindspore.nn.AdamWeightDecay``.

Adam (MindSpore's Adam kernel): ``m += (g - m) * (1 - beta1)``, ``v += (g^2 -
v) * (1 - beta2)``, ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``,
``w -= lr_t * m / (sqrt(v) + eps)`` (``eps`` outside the bias correction);
Nesterov uses ``m * beta1 + (1 - beta1) * g`` as the numerator and AMSGrad
divides by ``sqrt(max(vhat, v)) + eps``. Weight decay is added to the
gradient. Slots: ``moment1``, ``moment2`` (and ``vhat``); scalars
``beta1_power`` and ``beta2_power``.

AdamWeightDecay (decoupled, no bias correction): ``w -= lr * (m / (sqrt(v) +
eps) + weight_decay * w)``. Slots: ``adam_m``, ``adam_v``.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.initializer import initializer
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["Adam", "AdamWeightDecay"]


def _check_param_value(beta1, beta2, eps, prim_name):
    validator.check_value_type("beta1", beta1, [float], prim_name)
    validator.check_value_type("beta2", beta2, [float], prim_name)
    validator.check_value_type("eps", eps, [float], prim_name)
    validator.check_float_range_open(beta1, 0.0, 1.0, "beta1", prim_name)
    validator.check_float_range_open(beta2, 0.0, 1.0, "beta2", prim_name)
    validator.check_positive_float(eps, "eps", prim_name)


def _moments(hyper, g, m, v):
    beta1, beta2, eps, beta1_power, beta2_power = hyper
    m = m + (g - m) * (1 - beta1)
    v = v + (g * g - v) * (1 - beta2)
    lr_scale = jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    return m, v, lr_scale


def _adam(hyper, lr, wd, step, w, g, m, v):
    m, v, scale = _moments(hyper, g, m, v)
    return w - lr * scale * m / (jnp.sqrt(v) + hyper[2]), m, v


def _adam_nesterov(hyper, lr, wd, step, w, g, m, v):
    beta1 = hyper[0]
    m, v, scale = _moments(hyper, g, m, v)
    return w - lr * scale * (m * beta1 + (1 - beta1) * g) / (jnp.sqrt(v) + hyper[2]), m, v


def _adam_amsgrad(hyper, lr, wd, step, w, g, m, v, vhat):
    m, v, scale = _moments(hyper, g, m, v)
    vhat = jnp.maximum(vhat, v)
    return w - lr * scale * m / (jnp.sqrt(vhat) + hyper[2]), m, v, vhat


class Adam(Optimizer):
    """Adam (``mindspore.nn.Adam``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if set(kwargs) - {"use_lazy", "use_offload"}:
            raise KeyError("For 'Adam', invalid keys are passed as kwargs, supported keys are "
                           f"'use_lazy' and'use_offload', but got {kwargs.keys()}.")
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov),
                            ("use_amsgrad", use_amsgrad), ("use_lazy", use_lazy),
                            ("use_offload", use_offload)):
            validator.check_value_type(name, value, [bool], self.cls_name)
        if use_lazy and use_offload:
            raise ValueError("For 'Adam', 'use_lazy' and 'use_offload' can not both be True.But "
                             f"got use_lazy={use_lazy}, use_offload={use_offload}.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError("For lazy Adam and Adam with offload, there is no parameter named "
                             f"'use_amsgrad'.but got 'use_amsgrad'={use_amsgrad}.")
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.eps = Tensor(eps, mstype.float32)
        self.beta1_power = Parameter(initializer(1, (), mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(initializer(1, (), mstype.float32), name="beta2_power")
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        if use_amsgrad:
            self.vhat = self._parameters.clone(prefix="vhat", init="zeros")

    def construct(self, gradients):
        beta1, beta2 = self.beta1._data, self.beta2._data
        beta1_power = self.beta1_power._data * beta1
        beta2_power = self.beta2_power._data * beta2
        self.beta1_power._data = beta1_power
        self.beta2_power._data = beta2_power
        hyper = (beta1, beta2, self.eps._data, beta1_power, beta2_power)
        if self.use_amsgrad:
            return self._run_rule(gradients, _adam_amsgrad,
                                  (self.moment1, self.moment2, self.vhat), hyper)
        rule = _adam_nesterov if self.use_nesterov else _adam
        return self._run_rule(gradients, rule, (self.moment1, self.moment2), hyper)

    @Optimizer.target.setter
    def target(self, value):
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got "
                            f"{type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError("For 'Optimizer', the property 'target' must be one of ['CPU', "
                             f"'Ascend' ,'GPU'], but got {value}")
        self.__dict__["_target"] = value


def _adam_weight_decay(hyper, lr, wd, step, w, g, m, v):
    beta1, beta2, eps = hyper
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    update = m / (eps + jnp.sqrt(v))
    if wd is not None:
        update = wd * w + update
    return w - lr * update, m, v


class AdamWeightDecay(Optimizer):
    """Adam with decoupled weight decay (``mindspore.nn.AdamWeightDecay``)."""

    _support_parallel_optimizer = True

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(np.array([beta1]).astype(np.float32))
        self.beta2 = Tensor(np.array([beta2]).astype(np.float32))
        self.eps = Tensor(np.array([eps]).astype(np.float32))
        self.moments1 = self._parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self._parameters.clone(prefix="adam_v", init="zeros")

    def construct(self, gradients):
        return self._run_rule(gradients, _adam_weight_decay, (self.moments1, self.moments2),
                              _scalars(self.beta1, self.beta2, self.eps), pre=False)


def _scalars(*tensors):
    return tuple(t._data.reshape(()) for t in tensors)
