"""``mindspore.communication``: the distributed world (ranks, groups) and its collectives.

``init()`` joins the processes ``msrun`` (``python -m msxla.launch``) started
into one world on jax's distributed runtime; ``comm_func`` holds the
functional collectives. See ``management`` and ``_world``.
"""
from msxla.communication.management import (  # noqa: F401
    GlobalComm, HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
    create_group, destroy_group, get_comm_name, get_group_rank_from_world_rank, get_group_size,
    get_local_rank, get_local_rank_size, get_process_group_ranks, get_rank,
    get_world_rank_from_group_rank, init, release)

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_group_size", "get_local_rank",
           "get_local_rank_size", "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "create_group", "destroy_group", "get_comm_name",
           "get_process_group_ranks", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]
