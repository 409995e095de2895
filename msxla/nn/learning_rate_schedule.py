"""``mindspore.nn.learning_rate_schedule``: learning rates as Cells of the step.

A ``LearningRateSchedule`` is a Cell whose ``construct(global_step)`` returns
the learning rate of that step as a float32 Tensor. Optimizers call it with
their ``global_step`` Parameter on every update, so the schedule runs inside
the same graph as the update when the training step is compiled.
"""
from __future__ import annotations

import math

from msxla import ops
from msxla.common import dtype as mstype
from msxla.nn import _checkparam as validator
from msxla.nn.cell import Cell

__all__ = ["ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step) -> lr``."""

    def __init__(self):
        super().__init__()

    def construct(self, global_step):
        raise NotImplementedError


def _step(global_step):
    return ops.cast(global_step, mstype.float32)


def _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, cls_name):
    validator.check_positive_int(decay_steps, "decay_steps", cls_name)
    validator.check_positive_float(learning_rate, "learning_rate", cls_name)
    validator.check_is_float(learning_rate, "learning_rate", cls_name)
    validator.check_positive_float(decay_rate, "decay_rate", cls_name)
    validator.check_is_float(decay_rate, "decay_rate", cls_name)
    validator.check_value_type("is_stair", is_stair, [bool], cls_name)


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, self.cls_name)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair


class ExponentialDecayLR(_DecayLR):
    r"""``lr * decay_rate ** (step / decay_steps)`` (the exponent floored if ``is_stair``)."""

    def construct(self, global_step):
        p = _step(global_step) / self.decay_steps
        if self.is_stair:
            p = ops.floor(p)
        return self.learning_rate * ops.pow(self.decay_rate, p)


class NaturalExpDecayLR(_DecayLR):
    r"""``lr * e ** (-decay_rate * step)`` (step rounded down to ``decay_steps`` if ``is_stair``)."""

    def construct(self, global_step):
        p = _step(global_step)
        if self.is_stair:
            p = ops.floor_divide(p, self.decay_steps) * self.decay_steps
        return self.learning_rate * ops.pow(math.e, -self.decay_rate * p)


class InverseDecayLR(_DecayLR):
    r"""``lr / (1 + decay_rate * step / decay_steps)`` (the ratio floored if ``is_stair``)."""

    def construct(self, global_step):
        p = _step(global_step) / self.decay_steps
        if self.is_stair:
            p = ops.floor(p)
        return self.learning_rate / (1 + self.decay_rate * p)


class CosineDecayLR(LearningRateSchedule):
    r"""Cosine from ``max_lr`` (step 0) down to ``min_lr`` (step ``decay_steps`` and after)."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        if not isinstance(min_lr, float):
            raise TypeError("For 'CosineDecayLR', the argument 'min_lr' must be type of float, "
                            f"but got 'min_lr' type: {type(min_lr)}.")
        validator.check_non_negative_float(min_lr, "min_lr", self.cls_name)
        validator.check_positive_float(max_lr, "max_lr", self.cls_name)
        validator.check_is_float(max_lr, "max_lr", self.cls_name)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        if min_lr >= max_lr:
            raise ValueError("For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', "
                             f"but got 'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.math_pi = math.pi
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step):
        p = ops.cast(ops.minimum(global_step, self.decay_steps), mstype.float32)
        return self.min_lr + self.delta * (1.0 + ops.sin(self.math_pi * (p / self.decay_steps
                                                                           + 0.5)))


class PolynomialDecayLR(LearningRateSchedule):
    r"""``(lr - end_lr) * (1 - step / decay_steps) ** power + end_lr``."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        validator.check_positive_float(learning_rate, "learning_rate")
        validator.check_is_float(learning_rate, "learning_rate")
        if not isinstance(end_learning_rate, float):
            raise TypeError("For 'PolynomialDecayLR', the argument 'end_learning_rate' must be "
                            f"type of float, but got 'end_learning_rate' type: "
                            f"{type(end_learning_rate)}.")
        validator.check_non_negative_float(end_learning_rate, "end_learning_rate", self.cls_name)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        validator.check_value_type("update_decay_steps", update_decay_steps, [bool],
                                   self.cls_name)
        validator.check_positive_float(power, "power", self.cls_name)
        validator.check_is_float(power, "power", self.cls_name)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = _step(global_step)
        decay_steps = self.decay_steps
        if self.update_decay_steps:
            decay_steps = decay_steps * ops.maximum(ops.ceil(step / decay_steps), 1)
        else:
            step = ops.minimum(step, decay_steps)
        p = step / decay_steps
        return self.diff_learning_rate * ops.pow(1.0 - p, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    r"""``lr * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        if not isinstance(learning_rate, float):
            raise TypeError("For 'WarmUpLR', the argument 'learning_rate' must be type of float, "
                            f"but got 'learning_rate' type: {type(learning_rate)}.")
        validator.check_non_negative_float(learning_rate, "learning_rate", self.cls_name)
        validator.check_positive_int(warmup_steps, "warmup_steps", self.cls_name)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate

    def construct(self, global_step):
        percent = ops.cast(ops.minimum(global_step, self.warmup_steps), mstype.float32)
        return self.learning_rate * (percent / self.warmup_steps)
