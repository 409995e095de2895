"""``nn.DistributedGradReducer``: data parallelism's gradient all-reduce.

Each gradient is cast to float32, summed over the group's ranks
(``ops.AllReduce``) and, with ``mean``, multiplied by ``1 / degree``, then cast
back, as MindSpore's reducer does. A Parameter with ``layerwise_parallel``
keeps its own gradient. ``TrainOneStepCell`` (and so
``TrainOneStepWithLossScaleCell`` and ``Model``) installs one under
``DATA_PARALLEL`` and ``HYBRID_PARALLEL`` (``training_reducer``).
"""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.communication import get_group_size
from msxla.communication.management import GlobalComm
from msxla.nn.cell import Cell
from msxla.parallel._auto_parallel_context import AUTO_PARALLEL, ParallelMode

__all__ = ["DistributedGradReducer"]


class DistributedGradReducer(Cell):
    """All-reduce (and average) gradients over the data-parallel ranks.

    Args:
        parameters (list): the Parameters whose gradients are reduced, in order.
        mean (bool): divide by ``degree`` (default: the context's ``gradients_mean``).
        degree (int): the number of ranks to average over (default: the group's size).
        fusion_type (int): MindSpore's fusion tag (XLA schedules collectives itself).
        group (str): the communication group (default: the world).
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1,
                 group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        self.mean = AUTO_PARALLEL.get("gradients_mean") if mean is None else mean
        if degree is None:
            degree = get_group_size(group)
        elif not isinstance(degree, int) or isinstance(degree, bool) or degree <= 0:
            raise ValueError("For 'DistributedGradReducer', parameter 'degree' in "
                             "DistributedGradReducer should large than 0 and be int, degree: "
                             f"{degree}.")
        self.degree = degree
        self.allreduce_filter = tuple(not p.layerwise_parallel for p in parameters)
        self.allreduce = ops.AllReduce("sum", group).add_prim_attr("fusion", fusion_type)
        self.group = group

    def construct(self, grads):
        out = []
        for keep_local, grad in zip((not f for f in self.allreduce_filter), grads):
            if keep_local:
                out.append(grad)
                continue
            reduced = self.allreduce(ops.cast(grad, mstype.float32))
            if self.mean:
                reduced = reduced * (1.0 / self.degree)
            out.append(ops.cast(reduced, grad.dtype))
        return tuple(out)


def training_reducer(weights):
    """The reducer ``TrainOneStepCell`` installs: a ``DistributedGradReducer`` under
    ``DATA_PARALLEL`` / ``HYBRID_PARALLEL`` (``None`` otherwise), after checking that
    the context's ``device_num`` is the running world's size."""
    mode = AUTO_PARALLEL.parallel_mode()
    if mode not in (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL):
        return None
    from msxla.parallel._utils import check_world
    degree = check_world()
    return DistributedGradReducer(weights, AUTO_PARALLEL.get("gradients_mean"), degree,
                                  group=GlobalComm.WORLD_COMM_GROUP)
