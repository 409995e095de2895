"""``mindspore.nn.Lamb``: layer-wise adaptive moments (LAMB).

Per Parameter, with ``t = global_step`` after this step's increment:
``m = beta1 m + (1 - beta1) g``, ``v = beta2 v + (1 - beta2) g^2``,
``r = (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps) + wd * w`` and
``w -= lr * (||w|| / ||r||) * r`` (the trust ratio is 1 when either norm is
0). Weight decay applies to Parameters without 'beta'/'gamma' in their names
unless groups say otherwise. Slots: ``lamb_m``, ``lamb_v``.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from msxla.common.tensor import Tensor
from msxla.nn.optim.adam import _check_param_value, _scalars
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["Lamb"]


def _lamb(hyper, lr, wd, step, w, g, m, v):
    beta1, beta2, eps = hyper
    t = step.reshape(()).astype(jnp.float32)
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    m_hat = m / (1 - beta1 ** t)
    v_hat = v / (1 - beta2 ** t)
    r = m_hat / (jnp.sqrt(v_hat) + eps)
    if wd is not None:
        r = r + wd * w
    w_norm = jnp.linalg.norm(w)
    r_norm = jnp.linalg.norm(r)
    trust = jnp.where((w_norm > 0) & (r_norm > 0), w_norm / jnp.where(r_norm > 0, r_norm, 1), 1)
    return w - lr * trust * r, m, v


class Lamb(Optimizer):
    """LAMB (``mindspore.nn.Lamb``)."""

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(np.array([beta1]).astype(np.float32))
        self.beta2 = Tensor(np.array([beta2]).astype(np.float32))
        self.eps = Tensor(np.array([eps]).astype(np.float32))
        self.params = self._parameters
        self.moments1 = self.params.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.params.clone(prefix="lamb_v", init="zeros")

    def construct(self, gradients):
        gradients = self.gradients_centralization(gradients)
        return self._run_rule(gradients, _lamb, (self.moments1, self.moments2),
                              _scalars(self.beta1, self.beta2, self.eps), pre=False)
