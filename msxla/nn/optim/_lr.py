"""Learning-rate and weight-decay holders an Optimizer builds from its arguments.

A fixed learning rate becomes a float32 Parameter named ``learning_rate``; a
list (or 1-D Tensor) of per-step values becomes ``_IteratorLearningRate``,
which picks the value at ``global_step``; a ``LearningRateSchedule`` is used
as is. With parameter groups, each Parameter's learning rate sits in
``_GroupLR`` (a per-parameter view on the groups' schedules).
"""
from __future__ import annotations

import jax.numpy as jnp
from jax.core import Tracer

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap
from msxla.nn.cell import Cell
from msxla.nn.learning_rate_schedule import LearningRateSchedule
from msxla.ops._runtime_check import runtime_check


class _ConvertToCell(LearningRateSchedule):
    """A fixed learning rate (a Parameter) seen as a schedule (used with groups)."""

    def __init__(self, learning_rate):
        super().__init__()
        if not isinstance(learning_rate, Parameter):
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be Parameter, "
                            f"but got {type(learning_rate)}.")
        self.learning_rate = learning_rate

    def construct(self, global_step):
        return self.learning_rate + 1.0 - 1.0


class _IteratorLearningRate(LearningRateSchedule):
    """A 1-D Tensor of per-step learning rates: step ``i`` uses element ``i``."""

    def __init__(self, learning_rate, name):
        super().__init__()
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim != 1:
                raise ValueError("For 'Optimizer', the dimension of the argument 'learning_rate' "
                                 f"should be 1, but got {learning_rate.ndim}.")
        else:
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be Tensor, "
                            f"but got {type(learning_rate)}.")
        self.learning_rate = Parameter(learning_rate, name)

    def construct(self, global_step):
        table = self.learning_rate._data
        index = global_step._data if isinstance(global_step, Tensor) else jnp.asarray(global_step)
        n = table.shape[0]
        if not isinstance(index, Tracer):
            bad = [int(i) for i in jnp.ravel(index) if not 0 <= int(i) < n]
            if bad:
                raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range "
                                   f"[0, {n}), but got {bad[0]}.")
        else:  # compiled: the graph refuses a step past the end of the table when it runs
            runtime_check((index >= 0) & (index < n),
                          f"For 'Gather', the 'input_indices' should be in the range [0, {n}); "
                          "the per-step learning rates ran out (global_step is past the end of "
                          "the learning_rate list).")
        return wrap(jnp.take(table, index, axis=0, mode="clip"))


class _WrappedWeightDecay(Cell):
    """A weight-decay schedule Cell, scaled by the optimizer's loss scale."""

    def __init__(self, weight_decay, loss_scale=1.0):
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(loss_scale, mstype.float32)

    def construct(self, global_step):
        return self.weight_decay(global_step) * self.loss_scale


class _GroupLR(Cell):
    """Per-parameter learning-rate schedules of a grouped optimizer.

    Indexing gives the schedule of parameter ``i``; each distinct schedule is
    registered once as a child (names unchanged, like MindSpore's CellList
    built with ``auto_prefix=False``)."""

    def __init__(self, schedules):
        super().__init__(auto_prefix=False)
        self.__dict__["_per_param"] = tuple(schedules)
        seen = []
        for cell in schedules:
            if all(cell is not s for s in seen):
                seen.append(cell)
        for i, cell in enumerate(seen):
            self.insert_child_to_cell(str(i), cell)

    def __getitem__(self, index):
        return self._per_param[index]

    def __len__(self):
        return len(self._per_param)

    def __iter__(self):
        return iter(self._per_param)

    def construct(self, global_step):
        return tuple(s(global_step) for s in self._per_param)
