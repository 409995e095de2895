"""``mindspore.nn.Optimizer``: the base class of optimizers.

An Optimizer is a Cell holding the Parameters it updates (``parameters``),
their per-Parameter state (moments, created with ``parameters.clone``), a
``global_step`` Parameter and the learning rate (a Parameter, a per-step
table or a ``LearningRateSchedule``). Calling it with a tuple of gradients
updates every Parameter in place through ``Parameter._data``, which is how
the same step runs eagerly and inside a compiled graph.

Parameter groups (a list of dicts with ``params``, ``lr``, ``weight_decay``,
``grad_centralization``, or one ``order_params``) give each group its own
learning rate, weight decay and centralization. Without groups, weight decay
applies to the Parameters whose names contain neither 'beta' nor 'gamma'.
"""
from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Iterable

import jax.numpy as jnp
import numpy as np

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.initializer import initializer
from msxla.common.parameter import Parameter, ParameterTuple
from msxla.common.tensor import Tensor, wrap
from msxla.context import get_context
from msxla.nn import _checkparam as validator
from msxla.nn.cell import Cell, bump_epoch
from msxla.nn.learning_rate_schedule import LearningRateSchedule
from msxla.nn.optim import _fused, _groups
from msxla.nn.optim._lr import _ConvertToCell, _GroupLR, _IteratorLearningRate, _WrappedWeightDecay

__all__ = ["Optimizer", "opt_init_args_register"]

LOG = logging.getLogger("msxla")


def opt_init_args_register(fn):
    """Record an optimizer's ``__init__`` arguments as ``init_params`` (the parameters),
    ``init_learning_rate`` (None for a schedule) and ``init_args`` (the rest)."""

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        d = self.__dict__  # set before Cell.__init__ runs, as MindSpore does
        if "params" in arguments:
            d["init_params"] = {"params": arguments.pop("params")}
        if "optimizer" in arguments:
            d["init_params"] = {"params": arguments.pop("optimizer").init_params["params"]}
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            d["init_learning_rate"] = None if isinstance(lr, Cell) else lr
        d["init_args"] = arguments
        fn(self, *args, **kwargs)

    return deco


class Optimizer(Cell):
    """Base class for updating Parameters (``mindspore.nn.Optimizer``).

    Args:
        learning_rate: a float/int, a 0-D or 1-D Tensor, an iterable of per-step
            values, or a ``LearningRateSchedule``.
        parameters: a list of Parameters or of group dicts.
        weight_decay: a non-negative float/int, or a Cell of the step.
        loss_scale: a positive float; gradients are divided by it.
    """

    _support_parallel_optimizer = False

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        parameters = _groups.parameters_base_check(parameters, "parameters")
        if not all(isinstance(x, Parameter) for x in parameters) and \
                not all(isinstance(x, dict) for x in parameters):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be "
                            "'Parameter' or 'dict', please check the 'parameters'.")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        validator.check_value_type("loss_scale", loss_scale, [float], self.cls_name)
        validator.check_positive_float(loss_scale, "loss_scale", self.cls_name)
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self._unique = True
        self._target = get_context("device_target")
        self.dynamic_lr = False
        self.assignadd = ops.AssignAdd()
        self.global_step = Parameter(initializer(0, [1], mstype.int32), name="global_step")
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            _groups.init_group_params(self, parameters, learning_rate, weight_decay)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)

    # ----------------------------------------------------------- set-up
    def __setattr__(self, name, value):
        # A ParameterTuple attribute registers its Parameters under their own
        # names, so moments are part of parameters_and_names() and checkpoints.
        if isinstance(value, ParameterTuple):
            seen = []
            for item in value:
                if any(item is s for s in seen):
                    continue
                seen.append(item)
                self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)
            self.__dict__.pop(name, None)
            object.__setattr__(self, name, value)
            bump_epoch()
            return
        super().__setattr__(name, value)

    def _init_opt_attrs(self, learning_rate, parameters, weight_decay):
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            if self.dynamic_lr:
                self.learning_rate = _GroupLR(self.group_lr)
            else:
                self.learning_rate = ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self._parameters = self.parameters
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(x if flag else Tensor(x, mstype.float32) for x, flag in
                                      zip(self.group_weight_decay, self.dynamic_decay_flags))
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self._parameters = self.parameters
            self.decay_flags = tuple("beta" not in x.name and "gamma" not in x.name
                                     for x in self._parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = (weight_decay if self.dynamic_decay_flags
                                 else Tensor(weight_decay, mstype.float32))
        for param in self._parameters:
            if param.unique:
                self._unique = False
                break
        self._user_parameters = [p.name for p in self._parameters]
        self.reciprocal_scale = Tensor(1.0 / self.loss_scale, mstype.float32)
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor([1], mstype.int32)
        self.param_length = len(self._parameters)
        self.map_ = ops.Map()
        self.map_reverse = ops.Map(None, True)
        self.hyper_map = ops.HyperMap()
        self.hyper_map_reverse = ops.HyperMap(None, True)
        self.use_parallel = False
        self.optim_filter = (True,) * self.param_length
        self.param_rank = None

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            validator.check_non_negative_float(weight_decay, "weight_decay", self.cls_name)
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise TypeError("For 'Optimizer', the argument 'Weight_decay' must be int, float or "
                        f"Cell.but got {type(weight_decay)}")

    def _preprocess_single_lr(self, learning_rate):
        """A float, a 0-D float32 Tensor, a 1-D float32 Tensor or a schedule."""
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            validator.check_non_negative_float(learning_rate, "learning rate", self.cls_name)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy(), dtype=mstype.float32)
        self.dynamic_lr = True
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ValueError("For 'Optimizer', if 'learning_rate' is Tensor type, then the "
                                 "dimension of it should be 0 or 1, but got "
                                 f"{learning_rate.ndim}.")
            if learning_rate.ndim == 1 and learning_rate.size < 2:
                LOG.warning("For 'Optimizer', if use 'Tensor' type dynamic learning rate, please "
                            "make sure that the number of elements in the tensor is greater "
                            "than 1, but got %s.", learning_rate.size)
            return Tensor(learning_rate.asnumpy(), dtype=mstype.float32)
        if isinstance(learning_rate, Iterable):
            return Tensor(np.array([float(x) for x in learning_rate], dtype=np.float32))
        raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, "
                        "Iterable or LearningRateSchedule, but got "
                        f"{type(learning_rate)}.")

    def _build_single_lr(self, learning_rate, name):
        """A Parameter for a fixed rate; a schedule Cell for a dynamic one."""
        if isinstance(learning_rate, float) or (isinstance(learning_rate, Tensor)
                                                and learning_rate.ndim == 0):
            lr = Parameter(Tensor(learning_rate, mstype.float32), name)
            return _ConvertToCell(lr) if self.is_group_lr and self.dynamic_lr else lr
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    # -------------------------------------------------------- properties
    @property
    def unique(self):
        """Whether gradients are made unique (sparse gradients); True unless set."""
        return self._unique

    @unique.setter
    def unique(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"For 'Optimizer', the property 'unique' must be bool, but got "
                            f"{type(value)}")
        self.__dict__["_unique"] = value

    @property
    def target(self):
        """Where the update runs: 'CPU', 'GPU' or 'Ascend'."""
        return self._target

    @target.setter
    def target(self, value):
        raise NotImplementedError

    # ------------------------------------------------------ step helpers
    def get_weight_decay(self):
        """The weight decay of the current step (a tuple with groups)."""
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(wd(self.global_step) if flag else wd
                             for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self):
        """The learning rate of the current step (a tuple with group learning rates)."""
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                return tuple(s(self.global_step).reshape(()) for s in self.learning_rate)
            return self.learning_rate(self.global_step).reshape(())
        return lr

    def get_lr_parameter(self, param):
        """The learning rate (Parameter or schedule) of ``param`` or of each in a list."""
        def value(lr):
            if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)):
                return lr.learning_rate
            return lr

        if isinstance(param, Parameter):
            param_list = [param]
        elif isinstance(param, list):
            param_list = param
        else:
            raise TypeError("For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' "
                            f"type, but got {type(param)}.")
        ids = [id(p) for p in self._parameters]
        out = []
        for p in param_list:
            validator.check_value_type("parameter", p, [Parameter], self.cls_name)
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in "
                                 "optimizer, please check whether the argument 'param' is correct.")
            if self.is_group_lr:
                out.append(value(self.learning_rate[ids.index(id(p))]))
            else:
                out.append(value(self.learning_rate))
        return out if isinstance(param, list) else out[0]

    def flatten_gradients(self, gradients):
        return gradients

    def decay_weight(self, gradients):
        """``g + weight_decay * w`` for the Parameters weight decay applies to."""
        if not self.exec_weight_decay:
            return gradients
        wds = self._wd_arrays()
        out = []
        for i, (p, g) in enumerate(zip(self._parameters, gradients)):
            out.append(wrap(_fused.decay(wds[i], p._data, _array(g)))
                       if self.decay_flags[i] else g)
        return tuple(out)

    def gradients_centralization(self, gradients):
        """Centralize the gradients of groups with ``grad_centralization=True``."""
        if not self.is_group:
            return gradients
        return tuple(wrap(_fused.centralize(_array(g))) if flag else g
                     for g, flag in zip(gradients, self.grad_centralization_flags))

    def scale_grad(self, gradients):
        """Divide the gradients by ``loss_scale`` (when it is not 1)."""
        if not self.need_scale:
            return gradients
        r = self.reciprocal_scale._data
        return tuple(wrap(_array(g) * r.astype(_array(g).dtype)) for g in gradients)

    def _is_dynamic_lr_or_weight_decay(self):
        return self.dynamic_lr or self.dynamic_weight_decay

    def construct(self, *hyper_params):
        raise NotImplementedError

    # --------------------------------------------- the fused update path
    def _lr_arrays(self):
        lr = self.get_lr()
        if self.is_group_lr:
            return tuple(_array(x).astype(jnp.float32).reshape(()) for x in lr)
        return (_array(lr).astype(jnp.float32).reshape(()),) * self.param_length

    def _wd_arrays(self):
        wd = self.get_weight_decay()
        if self.is_group:
            return tuple(_array(x).astype(jnp.float32).reshape(()) for x in wd)
        return (_array(wd).astype(jnp.float32).reshape(()),) * self.param_length

    def _fused_step(self, rule, pre=True):
        gc = self.grad_centralization_flags if self.is_group else None
        return _fused.fused_step(rule, pre=pre, decay_flags=self.decay_flags, gc_flags=gc,
                                 scale=self.need_scale)

    def _run_rule(self, gradients, rule, slots, hyper=(), *, pre=True):
        """Update every Parameter (and its ``slots``) with ``rule``; one compiled call.

        Reads the learning rate and weight decay of the current step, then
        advances ``global_step``; returns one True per Parameter."""
        gradients = tuple(gradients)
        if len(gradients) != self.param_length:
            raise ValueError(f"For '{self.cls_name}', the number of gradients "
                             f"{len(gradients)} must equal the number of parameters "
                             f"{self.param_length}.")
        lrs = self._lr_arrays()
        wants_wd = self.exec_weight_decay if pre else True
        wds = self._wd_arrays() if wants_wd else None
        self.assignadd(self.global_step, self.global_step_increase_tensor)
        params = self._parameters
        fused = self._fused_step(rule, pre)
        weights = tuple(p._data for p in params)
        grads = tuple(_array(g) for g in gradients)
        slot_arrays = tuple(tuple(s._data for s in group) for group in slots)
        new_w, new_slots = fused(tuple(hyper), lrs, wds, self.global_step._data, weights, grads,
                                 slot_arrays, self.reciprocal_scale._data)
        for p, v in zip(params, new_w):
            p._data = v
        for group, values in zip(slots, new_slots):
            for s, v in zip(group, values):
                s._data = v
        return (True,) * self.param_length


def _array(x):
    if isinstance(x, Tensor):
        return x._data
    return jnp.asarray(x)
