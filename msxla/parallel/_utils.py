"""MindSpore's private parallel helpers that model-zoo scripts import
(``from mindspore.parallel._utils import _get_device_num, _get_gradients_mean``)."""
from __future__ import annotations

from msxla.parallel._auto_parallel_context import AUTO_PARALLEL, ParallelMode


def _get_parallel_mode():
    return AUTO_PARALLEL.parallel_mode()


def _get_device_num():
    return AUTO_PARALLEL.device_num()


def _get_global_rank():
    return AUTO_PARALLEL.global_rank()


def _get_gradients_mean():
    return AUTO_PARALLEL.get("gradients_mean")


def _get_parameter_broadcast():
    return AUTO_PARALLEL.get("parameter_broadcast")


def _get_full_batch():
    return AUTO_PARALLEL.get("full_batch")


def _get_pipeline_stages():
    return AUTO_PARALLEL.get("pipeline_stages")


def _is_in_auto_parallel_mode():
    return _get_parallel_mode() in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)


def _is_in_data_parallel_mode():
    return _get_parallel_mode() == ParallelMode.DATA_PARALLEL


def _check_full_batch():
    """full_batch is for semi_auto_parallel and auto_parallel only (MindSpore's check)."""
    if _get_full_batch() and not _is_in_auto_parallel_mode():
        raise RuntimeError("full_batch could only be used under semi_auto_parallel or "
                           "auto_parallel.")


def _need_to_full():
    """Are the inputs per-rank slices that the network must see as one global batch?"""
    if not _is_in_auto_parallel_mode():
        return False
    strategy = AUTO_PARALLEL.get("dataset_strategy")
    if strategy and strategy not in ("data_parallel", "full_batch"):
        return True
    return not _get_full_batch()


def check_world() -> int:
    """The data-parallel degree, after checking the context against the running world:
    ``device_num`` must be the number of ranks, and a launched job must have called
    ``init()`` (a mismatch would silently train on one rank's data)."""
    from msxla.communication import _world
    from msxla.communication.management import GlobalComm
    launched = _world.launched_size()
    if launched > 1 and not GlobalComm.INITED:
        raise RuntimeError(f"parallel_mode='{_get_parallel_mode()}' in a job of {launched} "
                           "workers, but mindspore.communication.init() has not been called: "
                           "call init() before building the training network.")
    world = _world.STATE.size if GlobalComm.INITED else 1
    degree = _get_device_num()
    if degree != world:
        raise ValueError(f"set_auto_parallel_context(device_num={degree}) but the job runs "
                         f"{world} rank(s): launch {degree} workers (msrun --worker_num="
                         f"{degree}) or leave device_num unset.")
    return degree
