"""``mindspore.nn.ASGD``: averaged stochastic gradient descent.

At step ``t`` (after this step's increment; ``eta = lr`` at t = 1):
``w = w (1 - lambd eta) - eta g``; the average ``ax`` moves to ``w`` by
``mu`` (``ax = w`` while ``mu == 1``); then ``eta = lr / (1 + lambd lr t)^alpha``
and ``mu = 1 / max(1, t - t0)``. Per Parameter: ``mu_<name>``,
``eta_<name>`` (float32 scalars) and ``ax_.<name>``.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter, ParameterTuple
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator
from msxla.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["ASGD"]


def _asgd(hyper, lr, wd, step, w, g, mu, eta, ax):
    lambd, alpha, t0 = hyper
    t = step.reshape(()).astype(jnp.float32)
    eta = jnp.where(t == 1, lr, eta)
    w = w * (1.0 - lambd * eta) - eta * g
    ax = jnp.where(mu != 1, ax + (w - ax) * mu, w)
    eta = lr / jnp.power(1.0 + lambd * lr * t, alpha)
    mu = 1.0 / jnp.maximum(1.0, t - t0)
    return w, mu, eta, ax


class ASGD(Optimizer):
    """ASGD (``mindspore.nn.ASGD``)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        validator.check_value_type("lambd", lambd, [float], self.cls_name)
        validator.check_value_type("alpha", alpha, [float], self.cls_name)
        validator.check_value_type("t0", t0, [float], self.cls_name)
        self.lambd = lambd
        self.alpha = alpha
        self.t0 = Tensor([t0], dtype=mstype.float32)
        self.lens = len(self._parameters)
        self.mu = ParameterTuple(Parameter(Tensor(1.0, dtype=mstype.float32), name=f"mu_{p.name}")
                                 for p in self._parameters)
        self.eta = ParameterTuple(Parameter(Tensor(0.0, dtype=mstype.float32),
                                            name=f"eta_{p.name}") for p in self._parameters)
        self.ax = self._parameters.clone(prefix="ax_", init="zeros")

    def construct(self, gradients):
        hyper = (jnp.float32(self.lambd), jnp.float32(self.alpha), self.t0._data.reshape(()))
        self._run_rule(gradients, _asgd, (self.mu, self.eta, self.ax), hyper)
        return True
