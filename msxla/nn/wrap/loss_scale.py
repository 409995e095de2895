"""Loss scaling: ``TrainOneStepWithLossScaleCell`` and the scale-update Cells.

One training step with a scaled loss, all inside the step (one compiled graph
under jit or GRAPH_MODE):

1. the loss and the gradients of ``loss * scale`` (``scale_sense``, a Parameter);
2. the gradients divided by the scale (in each gradient's dtype);
3. ``overflow``: whether any gradient holds an inf or NaN;
4. the update Cell adjusts the scale (``DynamicLossScaleUpdateCell``: divide by
   ``scale_factor`` on overflow, never below 1; multiply after
   ``scale_window`` steps without one), and returns ``overflow``;
5. the optimizer runs, and when ``overflow`` is set every value it wrote
   (weights, moments, its step counter) is put back: the step is skipped.

The step returns ``(loss, overflow, scale)``. Gradients pass through
``self.grad_reducer`` (an identity unless data parallelism installs one).
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla import ops
from msxla.autodiff._functionalize import CallPlan
from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.state import StateFrame
from msxla.common.tensor import Tensor, wrap
from msxla.nn.cell import Cell
from msxla.nn.wrap.cell_wrapper import TrainOneStepCell

__all__ = ["TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell",
           "FixedLossScaleUpdateCell"]


class DynamicLossScaleUpdateCell(Cell):
    """Updates a loss scale Parameter from the overflow flag of each step.

    On overflow the scale becomes ``max(scale / scale_factor, 1)``; after
    ``scale_window`` steps since the last overflow (or the last increase) it is
    multiplied by ``scale_factor``. ``construct(scale, overflow)`` returns
    ``overflow``."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32),
                                            name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, dtype=mstype.float32)

    def get_loss_scale(self):
        """The initial loss scale."""
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        on_overflow = ops.select(overflow, ops.maximum(
            loss_scale * ops.reciprocal(self.scale_factor), self.minimum_loss_scale), loss_scale)
        should_inc = ops.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        restart = ops.logical_or(overflow, should_inc)
        ops.assign(self.last_overflow_iter,
                   ops.select(restart, self.cur_iter, self.last_overflow_iter))
        grow = ops.logical_and(should_inc, ops.logical_not(overflow))
        ops.assign(loss_scale, ops.select(grow, on_overflow * self.scale_factor, on_overflow))
        ops.assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """Keeps the loss scale; ``construct(scale, overflow)`` returns ``overflow``."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        """The loss scale."""
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


def grads_overflow(grads):
    """A bool Tensor: whether any gradient holds an inf or NaN."""
    flags = [jnp.logical_not(jnp.all(jnp.isfinite(g._data))) for g in grads]
    if not flags:
        return wrap(jnp.asarray(False))
    return wrap(jnp.any(jnp.stack(flags)))


def run_unless(flag, fn, *args):
    """``fn(*args)``, with every Parameter it writes put back when ``flag`` (a bool
    Tensor) is set: the update is computed, then kept or dropped by a select."""
    frame = StateFrame()
    with frame:
        out = fn(*args)
    params, new_values = frame.written_values()
    skip = flag._data
    for param, new in zip(params, new_values):
        old = param._data
        param._data = jnp.where(skip, old, new.astype(old.dtype))
    return out


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """A training step with loss scaling and overflow skipping (see the module doc).

    Args:
        network (Cell): the network with its loss.
        optimizer (Optimizer): the optimizer.
        scale_sense (Union[Cell, Tensor]): an update Cell
            (``DynamicLossScaleUpdateCell`` / ``FixedLossScaleUpdateCell``) or a
            Tensor of shape () or (1,) holding the scale.
    """

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(),
                                                dtype=mstype.float32), name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((1,), ()):
                raise ValueError("For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' "
                                 f"must be (1,) or (), but got {scale_sense.shape}.")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell "
                            f"or Tensor, but got 'scale_sense' type: {type(scale_sense)}.")

    def construct(self, *inputs):
        scaling_sens = self.scale_sense
        plan = CallPlan(self.network, inputs, {}, (), tuple(self.weights), False,
                        "TrainOneStepWithLossScaleCell")
        loss, pullback = plan.vjp()
        sens = ops.ones_like(loss) * ops.cast(scaling_sens, loss.dtype)
        grads = pullback(sens)
        grads = tuple(plan.gradients(grads, spec) for spec in plan.weight_specs)
        grads = tuple(g * ops.cast(ops.reciprocal(scaling_sens), g.dtype) for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(None, grads)
        overflow = self.process_loss_scale(cond)
        run_unless(overflow, self.optimizer, grads)
        return loss, cond, scaling_sens

    def set_sense_scale(self, sens):
        """Set the loss scale (a Tensor)."""
        if self.scale_sense is not None and isinstance(sens, Tensor):
            self.scale_sense.set_data(sens)
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be "
                            f"Tensor, but got {type(sens)}")

    def start_overflow_check(self, pre_cond, compute_input):
        """Kept for custom steps written against MindSpore: overflow is read from the
        gradients themselves, so there is no status buffer to clear."""
        return Tensor([0] * 8, mstype.int32), compute_input

    def get_overflow_status(self, status, compute_output):
        """Whether ``compute_output`` (the gradients) holds an inf or NaN."""
        return grads_overflow(tuple(compute_output))

    def process_loss_scale(self, overflow):
        """Update the scale with the update Cell; returns the overflow flag."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
