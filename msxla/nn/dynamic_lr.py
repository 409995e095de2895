"""``mindspore.nn.dynamic_lr``: learning-rate lists, one value per training step.

Each function returns a Python list of ``total_step`` floats; passing the
list as an optimizer's ``learning_rate`` makes step ``i`` use ``lr[i]``. The
epoch of step ``i`` is ``floor(i / step_per_epoch)``.
"""
from __future__ import annotations

import math

from msxla.nn import _checkparam as validator

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
           "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def piecewise_constant_lr(milestone, learning_rates):
    """``learning_rates[i]`` for the steps before ``milestone[i]``."""
    validator.check_value_type("milestone", milestone, (tuple, list))
    validator.check_value_type("learning_rates", learning_rates, (tuple, list))
    if len(milestone) != len(learning_rates):
        raise ValueError("For 'piecewise_constant_lr', the size of 'milestone' must be same with "
                         "the size of 'learning_rates', but got 'milestone' size: "
                         f"{len(milestone)}, 'learning_rates' size: {len(learning_rates)}.")
    lr = []
    last_item = 0
    for i, item in enumerate(milestone):
        validator.check_positive_int(item, f"milestone[{i}]")
        validator.check_is_float(learning_rates[i], f"learning_rates[{i}]")
        if item < last_item:
            raise ValueError(f"For 'piecewise_constant_lr', the value of milestone[{i}] must be "
                             f"greater than milestone[{i - 1}], but got milestone[{i}]: "
                             f"{milestone[i]}, milestone[{i - 1}]: {milestone[i - 1]}.")
        lr += [learning_rates[i]] * (item - last_item)
        last_item = item
    return lr


def _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair):
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    validator.check_positive_float(learning_rate, "learning_rate")
    validator.check_is_float(learning_rate, "learning_rate")
    validator.check_positive_float(decay_rate, "decay_rate")
    validator.check_is_float(decay_rate, "decay_rate")
    validator.check_value_type("is_stair", is_stair, [bool])


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """``lr * decay_rate ** (epoch / decay_epoch)`` (exponent floored if ``is_stair``)."""
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        p = math.floor(epoch / decay_epoch) if is_stair else epoch / decay_epoch
        lr.append(learning_rate * decay_rate ** p)
    return lr


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """``lr * e ** (-decay_rate * epoch)`` (epoch rounded down to ``decay_epoch`` if stair)."""
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        lr.append(learning_rate * math.e ** (-decay_rate * epoch))
    return lr


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False):
    """``lr / (1 + decay_rate * epoch / decay_epoch)`` (ratio floored if ``is_stair``)."""
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            lr.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            lr.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return lr


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """Cosine from ``max_lr`` at epoch 0 to ``min_lr`` at ``decay_epoch`` and after."""
    if not isinstance(min_lr, float):
        raise TypeError("For 'cosine_decay_lr', the argument 'min_lr' must be type of float, but "
                        f"got 'min_lr' type: {type(min_lr)}.")
    validator.check_non_negative_float(min_lr, "min_lr", None)
    validator.check_positive_float(max_lr, "max_lr")
    validator.check_is_float(max_lr, "max_lr")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    if min_lr >= max_lr:
        raise ValueError("For 'cosine_decay_lr', the 'max_lr' must be greater than the 'min_lr', "
                         f"but got 'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
    delta = 0.5 * (max_lr - min_lr)
    lr = []
    for i in range(total_step):
        epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        lr.append(min_lr + delta * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return lr


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False):
    """``(lr - end_lr) * (1 - epoch / decay_epoch) ** power + end_lr``."""
    validator.check_positive_float(learning_rate, "learning_rate")
    validator.check_is_float(learning_rate, "learning_rate")
    if not isinstance(end_learning_rate, float):
        raise TypeError("For 'polynomial_decay_lr', the argument 'end_learning_rate' must be type "
                        f"of float, but got 'end_learning_rate' type: {type(end_learning_rate)}.")
    validator.check_non_negative_float(end_learning_rate, "end_learning_rate", None)
    validator.check_positive_float(power, "power")
    validator.check_is_float(power, "power")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    validator.check_value_type("update_decay_epoch", update_decay_epoch, [bool])
    delta = learning_rate - end_learning_rate
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            period = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            period, epoch = decay_epoch, min(decay_epoch, epoch)
        lr.append(delta * (1 - epoch / period) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """``lr * min(epoch, warmup_epoch) / warmup_epoch``."""
    if not isinstance(learning_rate, float):
        raise TypeError("For 'warmup_lr', the argument 'learning_rate' must be type of float, but "
                        f"got 'learning_rate' type: {type(learning_rate)}.")
    validator.check_non_negative_float(learning_rate, "learning_rate", None)
    validator.check_positive_int(warmup_epoch, "warmup_epoch")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    lr = []
    for i in range(total_step):
        epoch = min(warmup_epoch, math.floor(i / step_per_epoch))
        lr.append(learning_rate * epoch / warmup_epoch)
    return lr
