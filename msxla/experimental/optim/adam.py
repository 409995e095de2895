"""``mindspore.experimental.optim.Adam`` and ``AdamW``: torch-style Adam with the
bias-corrected step, optional AMSGrad, L2 weight decay added to the gradient
(Adam) or decoupled, ``p *= 1 - lr * weight_decay`` (AdamW)."""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.experimental.optim.optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


def _check(lr, betas, eps, weight_decay):
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class _AdamBase(Optimizer):
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        _check(lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize})
        self.state_step = Parameter(Tensor(0, mstype.int32), "state_step", requires_grad=False)

    def _init_group_state(self, params):
        for p in params:
            self._state("exp_avg", p)
            self._state("exp_avg_sq", p)
            self._state("max_exp_avg_sq", p)

    def construct(self, gradients):
        ops.assign_add(self.state_step, Tensor(1, mstype.int32))
        step = self.state_step.astype(mstype.float32)
        for group, params, grads in self._groups(gradients):
            beta1, beta2 = group["betas"]
            lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
            bc1 = 1 - ops.pow(Tensor(beta1, mstype.float32), step)
            bc2_sqrt = ops.sqrt(1 - ops.pow(Tensor(beta2, mstype.float32), step))
            for p, g in zip(params, grads):
                g = g.astype(p.dtype)
                if wd and self._decoupled:
                    ops.assign(p, p * (1 - lr * wd))
                elif wd:
                    g = g + wd * p
                m, v = self._state("exp_avg", p), self._state("exp_avg_sq", p)
                ops.assign(m, m * beta1 + g * (1 - beta1))
                ops.assign(v, v * beta2 + g * g * (1 - beta2))
                if group["amsgrad"]:
                    vmax = self._state("max_exp_avg_sq", p)
                    ops.assign(vmax, ops.maximum(vmax, v))
                    denom = ops.sqrt(vmax) / bc2_sqrt + eps
                else:
                    denom = ops.sqrt(v) / bc2_sqrt + eps
                ops.assign(p, p - (lr / bc1) * m / denom)
        return True


class Adam(_AdamBase):
    """Adam (L2 weight decay added to the gradient)."""


class AdamW(_AdamBase):
    """AdamW (decoupled weight decay, 0.01 by default)."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
