"""``mindspore.experimental.optim.Optimizer``: the base of the torch-style optimizers.

Parameters come in ``param_groups`` (dicts with ``params`` and per-group
options, the defaults filled in); each group's ``lr`` is a float32 Parameter
(``learning_rate_group_<i>``) that the ``lr_scheduler`` classes write. Calling
the optimizer with the gradients (one per Parameter, in ``parameters`` order)
updates every Parameter in place, in PyNative or inside a jitted step.
"""
from __future__ import annotations

import logging

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter, ParameterTuple
from msxla.common.tensor import Tensor
from msxla.nn.cell import Cell

__all__ = ["Optimizer"]


class Optimizer(Cell):
    """Base class: ``param_groups``, ``parameters``, ``lrs`` and ``add_param_group``."""

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        groups = self._check_params(params)
        self.defaults = defaults
        self.state = {}
        self.param_groups = []
        self.parameters = []
        self.lrs = []
        self.group_start_id = [0]
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self.parameters = ParameterTuple(self.parameters)

    @staticmethod
    def _check_params(params):
        if isinstance(params, Parameter):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Parameters or dicts, but got {type(params)}")
        params = list(params)
        if not params:
            raise ValueError("For 'Optimizer', the argument params should not be empty.")
        return params

    def add_param_group(self, param_group):
        """Add a group of Parameters with its own options (the defaults fill the rest)."""
        if not isinstance(param_group, dict):
            raise TypeError("Param group must be a dict.")
        params = param_group["params"]
        if isinstance(params, Parameter):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("Optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        params = list(params)
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError("Optimizer can only optimize Parameters, but one of the params "
                                f"is {type(p)}")
        if len({id(p) for p in params}) != len(params):
            logging.getLogger("msxla").warning(
                "Optimizer contains a parameter group with duplicate parameters.")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group.")
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        group_id = len(self.param_groups)
        lr = self._lr_parameter(group["lr"], f"learning_rate_group_{group_id}")
        self.lrs.append(lr)
        group["lr"] = lr
        group["weight_decay"] = float(group.get("weight_decay", 0.0))
        self.param_groups.append(group)
        self.parameters = list(self.parameters) + params
        self.group_start_id.append(self.group_start_id[-1] + len(params))
        self._init_group_state(params)
        prefixes = dict.fromkeys(prefix for prefix, _ in self.state)
        for prefix in prefixes:  # registered as the Cell's ParameterTuples, as MindSpore's are
            setattr(self, prefix, ParameterTuple(
                self.state[(prefix, id(p))] for p in self.parameters
                if (prefix, id(p)) in self.state))

    def _lr_parameter(self, lr, name):
        if isinstance(lr, Parameter):
            return lr
        if isinstance(lr, (bool, np.bool_)) or not isinstance(lr, (float, int, Tensor)):
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float or "
                            f"Tensor, but got {type(lr)}.")
        if isinstance(lr, Tensor):
            if lr.ndim != 0:
                raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should "
                                 "be scalar Tensor")
            return Parameter(lr.astype(mstype.float32), name)
        if lr < 0:
            raise ValueError(f"For '{type(self).__name__}', the 'learning rate' must be >= 0, "
                             f"but got {float(lr)}.")
        return Parameter(Tensor(float(lr), mstype.float32), name)

    def _init_group_state(self, params):
        """Create the per-Parameter state of a new group (subclasses)."""

    def _state(self, prefix, param, fill=0.0):
        """A state Parameter named ``<prefix>.<param name>`` shaped like ``param``."""
        key = (prefix, id(param))
        if key not in self.state:
            value = ops.full_like(param, fill) if fill else ops.zeros_like(param)
            self.state[key] = Parameter(value, f"{prefix}.{param.name}", requires_grad=False)
        return self.state[key]

    def _groups(self, gradients):
        """(group, its Parameters, their gradients, negated when ``maximize``)."""
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For '{type(self).__name__}', the number of gradients "
                             f"({len(gradients)}) must equal the number of parameters "
                             f"({len(self.parameters)}).")
        for i, group in enumerate(self.param_groups):
            lo, hi = self.group_start_id[i], self.group_start_id[i + 1]
            grads = gradients[lo:hi]
            if group.get("maximize"):
                grads = tuple(-g for g in grads)
            yield group, self.parameters[lo:hi], grads

    def construct(self, *hyper_params):
        raise NotImplementedError
