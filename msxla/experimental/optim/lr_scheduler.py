"""``mindspore.experimental.optim.lr_scheduler``: torch-style learning-rate schedulers.

A scheduler writes the optimizer's per-group ``lr`` Parameters: ``step()``
moves ``last_epoch`` on by one and sets each group's rate from its current
value (the recursive forms MindSpore and PyTorch use), ``step(epoch)`` jumps
to ``epoch`` with the closed form where there is one. Creating a scheduler
takes its first step (epoch 0). ``get_last_lr()`` gives the rates as Tensors.
``ReduceLROnPlateau.step(metric)`` lowers them when the metric stops improving.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.experimental.optim.optimizer import Optimizer

__all__ = ["LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR",
           "LinearLR", "ExponentialLR", "PolynomialLR", "CosineAnnealingLR", "SequentialLR",
           "ReduceLROnPlateau"]


def _set(param, value):
    ops.assign(param, Tensor(float(value), mstype.float32))


class LRScheduler:
    """Base class: ``step``, ``get_last_lr``; subclasses define ``get_lr``."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if not isinstance(last_epoch, int) or isinstance(last_epoch, bool):
            raise TypeError(f"The 'last_epoch' must be int, but got {type(last_epoch).__name__}.")
        if last_epoch < -1:
            raise ValueError(f"Invalid last_epoch: {last_epoch}")
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", float(group["lr"]))
            elif "initial_lr" not in group:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when "
                               "resuming an optimizer")
        self.optimizer = optimizer
        self.base_lrs = [float(g["initial_lr"]) for g in optimizer.param_groups]
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = Parameter(Tensor(last_epoch, mstype.float32),
                                    name="last_epoch_" + type(self).__name__, requires_grad=False)
        self.step()

    @property
    def _epoch(self):
        return int(self.last_epoch)

    def _lrs(self):
        return [float(lr) for lr in self._last_lr]

    def get_lr(self):
        raise NotImplementedError

    def get_last_lr(self):
        """The current learning rate of each group, as Tensors."""
        return [lr.value() for lr in self._last_lr]

    def step(self, epoch=None):
        """Advance one epoch (or go to ``epoch``) and write the new rates."""
        if epoch is None:
            _set(self.last_epoch, self._epoch + 1)
            values = self.get_lr()
        else:
            _set(self.last_epoch, epoch)
            values = (self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr")
                      else self.get_lr())
        for param, value in zip(self._last_lr, values):
            _set(param, value)
        return True


class LambdaLR(LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * float(fn(self.last_epoch)) for fn, base in zip(self.lr_lambdas,
                                                                      self.base_lrs)]


class MultiplicativeLR(LambdaLR):
    """``lr *= lr_lambda(epoch)`` from epoch 1 on."""

    def get_lr(self):
        if self._epoch > 0:
            return [lr * float(fn(self.last_epoch)) for fn, lr in zip(self.lr_lambdas,
                                                                      self._lrs())]
        return self._lrs()


class StepLR(LRScheduler):
    """``lr *= gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if not isinstance(step_size, int):
            raise TypeError(f"For 'StepLR', the 'step_size' must be int, but got {type(step_size)}.")
        if not isinstance(gamma, float):
            raise TypeError(f"For 'StepLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0 or e % self.step_size != 0:
            return self._lrs()
        return [lr * self.gamma for lr in self._lrs()]

    def _get_closed_form_lr(self):
        return [b * self.gamma ** (self._epoch // self.step_size) for b in self.base_lrs]


class MultiStepLR(LRScheduler):
    """``lr *= gamma`` at each milestone epoch."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        if not isinstance(milestones, list):
            raise TypeError(f"The 'milestones' must be list, but got {type(milestones).__name__}.")
        for m in milestones:
            if not isinstance(m, int):
                raise TypeError("For 'MultiStepLR', elements of the 'milestones' must be type of "
                                f"int, but got one element of 'milestones' type: {type(m)}.")
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        count = self.milestones.get(self._epoch, 0)
        return [lr * self.gamma ** count for lr in self._lrs()]


class ConstantLR(LRScheduler):
    """``lr = initial_lr * factor`` until ``total_iters``, then ``initial_lr``."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError("For 'ConstantLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0:
            return [lr * self.factor for lr in self._lrs()]
        if e != self.total_iters:
            return self._lrs()
        return [lr / self.factor for lr in self._lrs()]

    def _get_closed_form_lr(self):
        return [b * (self.factor + (self._epoch >= self.total_iters) * (1 - self.factor))
                for b in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor goes linearly from ``start_factor`` to ``end_factor`` in ``total_iters``."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less than or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError("For 'LinearLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, s, f = self._epoch, self.start_factor, self.end_factor
        if e == 0:
            return [lr * s for lr in self._lrs()]
        if e > self.total_iters:
            return self._lrs()
        factor = 1.0 + (f - s) / (self.total_iters * s + (e - 1) * (f - s))
        return [lr * factor for lr in self._lrs()]

    def _get_closed_form_lr(self):
        e = min(self.total_iters, self._epoch)
        return [b * (self.start_factor + (self.end_factor - self.start_factor) * e
                     / self.total_iters) for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    """``lr *= gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        if not isinstance(gamma, float):
            raise TypeError(f"For 'ExponentialLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._epoch == 0:
            return self._lrs()
        return [lr * self.gamma for lr in self._lrs()]

    def _get_closed_form_lr(self):
        return [b * self.gamma ** self._epoch for b in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Polynomial decay to 0 over ``total_iters`` epochs."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        if not isinstance(power, float):
            raise TypeError(f"For 'PolynomialLR', the 'power' must be float, but got {type(power)}.")
        if power < 0:
            raise ValueError(f"For 'PolynomialLR', the 'power' must be >= 0, but got {power}.")
        if not isinstance(total_iters, int):
            raise TypeError("For 'PolynomialLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t = self._epoch, self.total_iters
        if e == 0 or e > t:
            return self._lrs()
        factor = ((1.0 - e / t) / (1.0 - (e - 1) / t)) ** self.power
        return [lr * factor for lr in self._lrs()]

    def _get_closed_form_lr(self):
        e = min(self.total_iters, self._epoch)
        return [b * (1.0 - e / self.total_iters) ** self.power for b in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from the initial rate to ``eta_min`` over ``T_max`` epochs."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803 - MindSpore's
        if not isinstance(eta_min, (float, int)):
            raise TypeError("For 'CosineAnnealingLR', the 'eta_min' must be float or int, but got "
                            f"{type(eta_min)}.")
        if not isinstance(T_max, int):
            raise TypeError(f"For 'CosineAnnealingLR', the 'T_max' must be int, but got "
                            f"{type(eta_min)}.")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t, lo = self._epoch, self.T_max, self.eta_min
        if e == 0:
            return self._lrs()
        if (e - 1 - t) % (2 * t) == 0:
            return [lr + (b - lo) * (1 - math.cos(math.pi / t)) / 2
                    for b, lr in zip(self.base_lrs, self._lrs())]
        return [(1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
                * (lr - lo) + lo for lr in self._lrs()]

    def _get_closed_form_lr(self):
        return [self.eta_min + (b - self.eta_min) * (1 + math.cos(math.pi * self._epoch /
                                                                   self.T_max)) / 2
                for b in self.base_lrs]


class SequentialLR:
    """Run ``schedulers`` one after another, switching at each of ``milestones``."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        for i, s in enumerate(schedulers):
            if s.optimizer is not optimizer:
                raise ValueError("Sequential Schedulers expects all schedulers to belong to the "
                                 f"same optimizer, but got scheduler at index {i} is different "
                                 "from the optimizer passed in.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be "
                             "one more than the number of milestone points, but got number of "
                             f"schedulers {len(schedulers)} and the number of milestones "
                             f"{len(milestones)}")
        self._schedulers, self.milestones, self.optimizer = schedulers, milestones, optimizer
        self.last_epoch = last_epoch + 1
        for group in optimizer.param_groups:
            _set(group["lr"], group["initial_lr"])
        for s in schedulers:
            _set(s.last_epoch, s._epoch - 1)
        schedulers[0].step()
        self._last_lr = schedulers[0]._last_lr

    def step(self):
        self.last_epoch += 1
        index = bisect_right(self.milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self.milestones[index - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()

    def get_last_lr(self):
        return [lr.value() for lr in self._last_lr]


class ReduceLROnPlateau:
    """Multiply the rates by ``factor`` when ``metrics`` has not improved for ``patience``
    epochs (then wait ``cooldown`` epochs); never below ``min_lr``."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"Expected an `Optimizer`, but got type {type(optimizer).__name__}")
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError(f"Expected {n} min_lrs, got {len(min_lr)}")
            self.min_lrs = [float(v) for v in min_lr]
        else:
            self.min_lrs = [float(min_lr)] * n
        if mode not in ("min", "max"):
            raise ValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"`threshold mode` should be 'rel' or 'abs', but got {threshold_mode}.")
        self.optimizer, self.factor, self.mode, self.patience = optimizer, factor, mode, patience
        self.threshold, self.threshold_mode, self.cooldown, self.eps = (
            threshold, threshold_mode, cooldown, eps)
        self.best = math.inf if mode == "min" else -math.inf
        self.wait = self.cooldown_counter = self.last_epoch = 0
        self._last_lr = list(optimizer.lrs)

    def _better(self, current):
        if self.mode == "min":
            bench = (self.best * (1 - self.threshold) if self.threshold_mode == "rel"
                     else self.best - self.threshold)
            return current < bench
        bench = (self.best * (1 + self.threshold) if self.threshold_mode == "rel"
                 else self.best + self.threshold)
        return current > bench

    def step(self, metrics):
        """Record this epoch's metric; lower the rates after ``patience`` bad epochs."""
        current = float(Tensor(metrics).astype(mstype.float32)) if isinstance(metrics, Tensor) \
            else float(metrics)
        self.last_epoch += 1
        if self._better(current):
            self.best, self.wait = current, 0
        else:
            self.wait += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.wait > self.patience:
            for param, low in zip(self._last_lr, self.min_lrs):
                old = float(param)
                new = max(old * self.factor, low)
                if old > new + self.eps:
                    _set(param, new)
            self.cooldown_counter, self.wait = self.cooldown, 0
        return True

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def get_last_lr(self):
        return [lr.value() for lr in self._last_lr]
