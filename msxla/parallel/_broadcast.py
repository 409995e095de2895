"""``parameter_broadcast=True``: every rank starts from rank 0's Parameters.

MindSpore broadcasts a data-parallel training network's Parameters when its
graph is first compiled; ``Model.train`` / ``fit`` do it here before the first
step (one ``Broadcast`` per Parameter over the world group).
"""
from __future__ import annotations

from msxla.communication import _collective
from msxla.communication.management import GlobalComm


def broadcast_parameters(cell, root=0):
    """Overwrite every Parameter of ``cell`` with world rank ``root``'s value."""
    if not GlobalComm.INITED:
        return
    group = GlobalComm.WORLD_COMM_GROUP
    if _collective.group_size(group) == 1:
        return
    for param in cell.get_parameters():
        param._data = _collective.run("broadcast", (root,), group, param._data)


def parameter_broadcast_check(parallel_mode, parameter_broadcast):
    """MindSpore's check: broadcasting is for data and hybrid parallelism."""
    if parameter_broadcast is True and parallel_mode in ("stand_alone", "semi_auto_parallel",
                                                         "auto_parallel"):
        raise ValueError("stand_alone, semi_auto_parallel and auto_parallel do not support "
                         f"parameter broadcast, parallel_mode: {parallel_mode}, "
                         f"parameter_broadcast:{parameter_broadcast}")
