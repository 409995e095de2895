"""Parameter groups of an Optimizer: checking and flattening the group dicts.

``init_group_params`` fills, on the optimizer, one entry per Parameter in
``group_params``, ``group_lr``, ``group_weight_decay`` and
``group_grad_centralization`` (in ``order_params`` order when given), with
MindSpore's checks and messages.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable

from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator

LOG = logging.getLogger("msxla")
_KEYS = ["params", "lr", "weight_decay", "order_params", "grad_centralization"]


def parameters_base_check(parameters, param_info):
    if parameters is None:
        raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
    if not isinstance(parameters, Iterable):
        raise TypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, "
                        f"but got {type(parameters)}.")
    parameters = list(parameters)
    if not parameters:
        raise ValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
    return parameters


def _check_order_params(group):
    if len(group.keys()) > 1:
        raise ValueError("For 'Optimizer', the order params dict in group parameters should only "
                         f"include the 'order_params' key, but got {group.keys()}.")
    if not isinstance(group["order_params"], Iterable):
        raise TypeError("For 'Optimizer', the value of 'order_params' in group parameters should "
                        f"be Iterable type, but got {type(group['order_params'])}.")


def check_group_params(parameters):
    for group in parameters:
        invalid = [k for k in group.keys() if k not in _KEYS]
        if invalid:
            raise KeyError(f"For 'Optimizer', the key in group params must be one of in {_KEYS}, "
                           f"but got {invalid}.")
        if "order_params" in group:
            _check_order_params(group)
            continue
        params = parameters_base_check(group["params"], "group `params`")
        for index, param in enumerate(params):
            if not isinstance(param, Parameter):
                raise TypeError("For 'Optimizer', the element in group parameters must be "
                                f"Parameter type, but got {type(param)} at index {index}.")


def parse_group_params(opt, parameters, learning_rate):
    check_group_params(parameters)
    if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
        tensor_lr_length = learning_rate.size
    else:
        tensor_lr_length = 0
    for group in parameters:
        if "order_params" in group:
            opt.is_group_params_ordered = True
            continue
        if "lr" in group:
            opt.is_group_lr = True
            group_lr = opt._preprocess_single_lr(group["lr"])
            if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                if tensor_lr_length == 0:
                    tensor_lr_length = group_lr.size
                elif group_lr.size != tensor_lr_length:
                    raise ValueError("For 'Optimizer', the Tensor type dynamic learning rate in "
                                     "group must be the same size as the argument "
                                     "'learning_rate'.")


def init_group_params(opt, parameters, learning_rate, weight_decay):
    """Flatten the groups into per-Parameter lists on ``opt``."""
    opt.group_params, opt.group_lr = [], []
    opt.group_weight_decay, opt.group_grad_centralization = [], []
    parse_group_params(opt, parameters, learning_rate)
    default_lr = opt._build_single_lr(learning_rate, "learning_rate")
    names, ordered = [], []
    for group_num, group in enumerate(parameters):
        if "order_params" in group:
            ordered = group["order_params"]
            continue
        opt.group_params += group["params"]
        if "lr" in group:
            lr = opt._build_single_lr(opt._preprocess_single_lr(group["lr"]),
                                      "learning_rate_group_" + str(group_num))
        else:
            lr = default_lr
        wd = opt._preprocess_weight_decay(group.get("weight_decay", weight_decay))
        gc = False
        if "grad_centralization" in group:
            gc = group["grad_centralization"]
            if not isinstance(gc, bool):
                raise TypeError("For 'Optimizer', the 'gradients_centralization' must be bool "
                                f"type, but got {type(gc)}.")
            opt.grad_centralization = gc
        for param in group["params"]:
            validator.check_value_type("parameter", param, [Parameter], opt.cls_name)
            if param.name in names:
                raise RuntimeError(f"For 'Optimizer', the {param.name} parameter already exists, "
                                   "it does not support repeated setting. Please check whether "
                                   "the optimizer parameter has been set multiple times.")
            names.append(param.name)
            opt.group_lr.append(lr)
            opt.group_weight_decay.append(wd)
            opt.group_grad_centralization.append(gc)
    if opt.is_group_params_ordered and ordered:
        _order(opt, list(ordered))


def _order(opt, ordered):
    if len(ordered) != len(opt.group_params):
        raise ValueError("For 'Optimizer',the length of order parameters must be the same as the "
                         "length of group parameters, but got order parameters' length "
                         f"{len(ordered)}, group parameters' length {len(opt.group_params)}.")
    names = [p.name for p in ordered]
    n = len(opt.group_params)
    slots = [[None] * n for _ in range(4)]
    for param, lr, wd, gc in zip(opt.group_params, opt.group_lr, opt.group_weight_decay,
                                 opt.group_grad_centralization):
        index = names.index(param.name)
        for slot, value in zip(slots, (param, lr, wd, gc)):
            slot[index] = value
    (opt.group_params, opt.group_lr, opt.group_weight_decay,
     opt.group_grad_centralization) = slots
