"""``mindspore.experimental.optim.SGD``: torch-style SGD with momentum, dampening,
Nesterov, L2 weight decay and ``maximize`` (the momentum buffer starts as the
first gradient)."""
from __future__ import annotations

from msxla import ops
from msxla.experimental.optim.optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (optionally with momentum)."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *,
                 maximize=False):
        if isinstance(lr, bool) or lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             "'dampening' must equal to 0.0, but got 'momentum' "
                             f"{float(momentum)}, 'dampening' {dampening}")
        super().__init__(params, {"lr": lr, "momentum": float(momentum),
                                  "dampening": float(dampening), "weight_decay": weight_decay,
                                  "nesterov": nesterov, "maximize": maximize})

    def _init_group_state(self, params):
        for p in params:
            self._state("accum", p)
            self._state("stat", p, 1.0)

    def construct(self, gradients):
        for group, params, grads in self._groups(gradients):
            lr, wd, mom = group["lr"], group["weight_decay"], group["momentum"]
            damp, nesterov = group["dampening"], group["nesterov"]
            for p, g in zip(params, grads):
                g = g.astype(p.dtype)
                if wd:
                    g = g + wd * p
                if mom:
                    buf, first = self._state("accum", p), self._state("stat", p, 1.0)
                    new = ops.where(first > 0, g, buf * mom + g * (1 - damp))
                    ops.assign(buf, new)
                    ops.assign(first, ops.zeros_like(first))
                    g = g + new * mom if nesterov else new
                ops.assign(p, p - lr * g)
        return True
