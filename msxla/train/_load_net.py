"""``load_param_into_net``: copy a ``{name: Parameter}`` dict into a network.

Parameters are matched by name. A shape mismatch raises RuntimeError naming
the Parameter (trailing size-1 dimensions in the checkpoint are squeezed
away, as MindSpore does) and leaves every Parameter as it was (MindSpore
keeps those loaded before the error); a dtype mismatch converts between float types or
between int types unless ``strict_load``. Network Parameters missing from
the dict are returned (and logged); if none of a prefix-shifted name
matches, names are retried with the checkpoint's extra prefix removed.
"""
from __future__ import annotations

import logging

import numpy as np

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator

LOG = logging.getLogger("msxla")
_FLOATS = {mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16}
_INTS = {mstype.int8, mstype.int16, mstype.int32, mstype.int64}


def _check_args(net, parameter_dict):
    from msxla.nn.cell import Cell
    if not isinstance(net, Cell):
        raise TypeError("For 'load_param_into_net', the argument 'net' should be a Cell, but got "
                        f"{type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a "
                        f"dict, but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' "
                            "should be a 'str' and 'Parameter' , but got "
                            f"{type(key)} and {type(value)}.")


def _squeeze_trailing_ones(param, new):
    """Load ``new`` whose shape is the param's plus trailing 1s; False if it is not."""
    extra = new.shape[len(param.shape):]
    if len(new.shape) <= len(param.shape) or any(d != 1 for d in extra) or \
            tuple(new.shape[:len(param.shape)]) != tuple(param.shape):
        return False
    param.set_data(Tensor(new.asnumpy().reshape(param.shape), param.dtype))
    return True


def _update_param(param, new_param, strict_load):
    if tuple(param.shape) != tuple(new_param.shape):
        if not _squeeze_trailing_ones(param, new_param):
            LOG.critical("Failed to combine the net and the parameters for param %s.", param.name)
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the "
                f"same shape as {param.name} in the argument 'parameter_dict'. But got its shape "
                f"{param.shape} in the argument 'net' and shape {new_param.shape} in the "
                "argument 'parameter_dict'.May you need to check whether the checkpoint you "
                "loaded is correct or the batch size and so on in the 'net' and 'parameter_dict' "
                "are same.")
        return
    if param.dtype != new_param.dtype:
        pair = {param.dtype, new_param.dtype}
        if not strict_load and (pair <= _FLOATS or pair <= _INTS):
            LOG.warning("The type of %s:%s in 'parameter_dict' is different from the type of it "
                        "in 'net':%s, then the type convert from %s to %s in the network. May "
                        "consume additional memory and time", new_param.name, new_param.dtype,
                        param.dtype, new_param.dtype, param.dtype)
            param.set_data(Tensor(np.asarray(new_param.asnumpy()), param.dtype))
            return
        LOG.critical("Failed to combine the net and the parameters for param %s.", param.name)
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same "
            f"type as {param.name} in the argument 'parameter_dict'. but got its type "
            f"{param.dtype} in the argument 'net' and type {new_param.dtype} in the argument "
            "'parameter_dict'.May you need to check whether the checkpoint you loaded is "
            "correct.")
    param.set_data(new_param)


def _load_with_prefix(net, parameter_dict, param_not_load, strict_load):
    """Retry missing names with the checkpoint's extra leading prefix removed."""
    prefix_name = ""
    longest_name = param_not_load[0]
    while prefix_name != longest_name and param_not_load:
        prefix_name = longest_name
        for net_name in param_not_load:
            for dict_name in parameter_dict:
                if dict_name.endswith(net_name):
                    prefix_name = dict_name[:-len(net_name)]
                    break
            if prefix_name != longest_name:
                break
        if prefix_name != longest_name:
            LOG.warning("For 'load_param_into_net', remove parameter prefix name: %s, continue "
                        "to load.", prefix_name)
            for _, param in net.parameters_and_names():
                new_name = prefix_name + param.name
                if param.name in param_not_load and new_name in parameter_dict:
                    _update_param(param, parameter_dict[new_name], strict_load)
                    param_not_load.remove(param.name)


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Load ``parameter_dict`` into ``net``: ``(param_not_load, ckpt_not_load)`` name lists."""
    _check_args(net, parameter_dict)
    strict_load = validator.check_bool(strict_load)
    validator.check_isinstance("remove_redundancy", remove_redundancy, bool)
    param_not_load = []
    ckpt_not_load = list(parameter_dict.keys())
    saved = [(param, param._value) for _, param in net.parameters_and_names()]
    try:
        for _, param in net.parameters_and_names():
            if param.name in parameter_dict:
                new_param = parameter_dict[param.name]
                if not isinstance(new_param, Parameter):
                    continue
                _update_param(param, new_param, strict_load)
                ckpt_not_load.remove(param.name)
            elif not param.name.startswith("accu_grads"):
                param_not_load.append(param.name)
        if param_not_load and not strict_load:
            _load_with_prefix(net, parameter_dict, param_not_load, strict_load)
    except Exception:  # all or nothing: MindSpore leaves the Parameters before it loaded
        for param, value in saved:
            param._value = value
        raise
    if param_not_load:
        LOG.warning("For 'load_param_into_net', %d parameters in the 'net' are not loaded, "
                    "because they are not in the 'parameter_dict', please check whether the "
                    "network structure is consistent when training and loading checkpoint.",
                    len(param_not_load))
        LOG.warning("%s are not loaded.", param_not_load)
    return param_not_load, ckpt_not_load
