"""Training wrappers: WithLossCell, WithEvalCell, WithGradCell, ForwardValueAndGrad,
TrainOneStepCell and ParameterUpdate.

They do not prefix their children's Parameter names (``auto_prefix=False``),
so a network's Parameters keep their names when wrapped, as in MindSpore.
``TrainOneStepCell`` runs the network once per step under the gradient
transformation (as PyNative MindSpore does: moving statistics update once),
pulls back ``sens`` (default 1.0) as the loss's gradient, and hands the
gradients of ``optimizer.parameters`` to the optimizer.
"""
from __future__ import annotations

from types import FunctionType, MethodType

from msxla import ops
from msxla.autodiff._functionalize import CallPlan
from msxla.autodiff.grad import compute_grads
from msxla.autodiff.grad_operation import GradOperation
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter, ParameterTuple
from msxla.nn._checkparam import check_value_type
from msxla.nn.cell import Cell
from msxla.nn.layer.basic import Identity
from msxla.nn.wrap.grad_reducer import training_reducer
from msxla.parallel._utils import _get_parallel_mode

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "ForwardValueAndGrad",
           "TrainOneStepCell", "ParameterUpdate"]


def _copy_attrs(cell, network):
    """MindSpore's ``_get_attr_from_cell``: inherit the network's jit config."""
    if isinstance(network, Cell) and network.jit_config_dict:
        cell.__dict__["_jit_config_dict"] = dict(network.jit_config_dict)


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        _copy_attrs(self, backbone)

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        return self._backbone


class WithEvalCell(Cell):
    """``(loss_fn(network(data), label), outputs, label)``; ``add_cast_fp32`` casts the
    outputs (and a float label) to float32 first."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = check_value_type("add_cast_fp32", add_cast_fp32, [bool],
                                              "WithEvalCell")
        _copy_attrs(self, network)

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:  # mixed_precision_cast: float labels only
            if mstype.is_float(label.dtype):
                label = ops.cast(label, mstype.float32)
            outputs = ops.cast(outputs, mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """The gradients of the network's trainable Parameters (through ``loss_fn`` if given;
    ``sens`` is the output's gradient)."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()
        _copy_attrs(self, network)

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


def _grad_parts(get_all, get_by_list, pos, ws):
    """Gradients shaped as ``GradOperation(get_all, get_by_list)`` returns them."""
    inputs = tuple(g for _, g in pos) if get_all else (pos[0][1] if pos else ())
    if not get_by_list:
        return inputs
    return (inputs, tuple(ws)) if get_all else tuple(ws)


class ForwardValueAndGrad(Cell):
    """``(loss, grads)`` of ``network`` in one forward pass; the gradients are shaped as
    ``GradOperation(get_all, get_by_list, sens_param)`` returns them."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False,
                 sens_param=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be cell, "
                            f"function type or method type, but got '{type(network)}'")
        if not isinstance(get_all, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_all' must be bool, but "
                            f"got '{type(get_all)}'")
        if not isinstance(get_by_list, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_by_list' must be bool, "
                            f"but got '{type(get_by_list)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the "
                            f"argument 'weights' must be Parameters array, but got "
                            f"'{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights = weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        _copy_attrs(self, network)

    def construct(self, *inputs):
        n = len(inputs) - (1 if self.sens_param else 0)
        positions = tuple(range(n)) if self.get_all else tuple(range(min(1, n)))
        weights = tuple(self.weights) if self.get_by_list else ()
        loss, pos, ws = compute_grads("ForwardValueAndGrad", self.network, inputs, {},
                                      positions, weights, sens_param=self.sens_param)
        return loss, _grad_parts(self.get_all, self.get_by_list, pos, ws)


class TrainOneStepCell(Cell):
    """One training step: the network's loss, its gradients with respect to
    ``optimizer.parameters`` (scaled by ``sens``), and the optimizer's update.
    Returns the loss (and ``{name: grad}`` with ``return_grad``)."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.sens = sens
        if self.sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = self.sens is not None
        if self.sens is None:
            self.sens = 1.0
        self.return_grad = return_grad
        if return_grad:
            self.weights_name = [p.name for p in self.optimizer.parameters]
        self.parallel_mode = _get_parallel_mode()
        reducer = training_reducer(self.weights)
        self.reducer_flag = reducer is not None
        self.grad_reducer = Identity() if reducer is None else reducer
        if self.reducer_flag:
            self.mean, self.degree = reducer.mean, reducer.degree
        _copy_attrs(self, network)

    def _loss_and_grads(self, inputs):
        plan = CallPlan(self.network, inputs, {}, (), tuple(self.weights), False,
                        "TrainOneStepCell")
        loss, pullback = plan.vjp()
        sens = ops.fill(loss.dtype, tuple(loss.shape), self.sens)
        grads = pullback(sens)
        return loss, tuple(plan.gradients(grads, spec) for spec in plan.weight_specs)

    def construct(self, *inputs):
        loss, grads = self._loss_and_grads(inputs)
        grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        if self.return_grad:
            return loss, dict(zip(self.weights_name, grads))
        return loss


class ParameterUpdate(Cell):
    """Assigns its input to ``param`` and returns it."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got "
                            f"{type(param)}.")
        self._param = param

    def construct(self, x):
        ops.assign(self._param, x)
        return x
