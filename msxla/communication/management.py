"""``mindspore.communication.management``: init, ranks, sizes and communication groups.

The names, defaults, messages and exception types are MindSpore 2.10's; the
world behind them is ``msxla.communication._world`` (jax's distributed
runtime). Before ``init()`` the rank and size functions read ``RANK_ID`` /
``RANK_SIZE`` / ``LOCAL_RANK`` / ``LOCAL_RANK_SIZE`` (default 0 and 1), as
MindSpore's do; the group functions need ``init()``.

One difference: ``init()`` without a launcher (no ``MS_WORKER_NUM``) makes a
world of one process instead of failing, so a distributed script also runs on
one device unchanged.
"""
from __future__ import annotations

import os

from msxla.communication import _world

__all__ = ["init", "release", "get_rank", "get_local_rank", "get_group_size",
           "get_local_rank_size", "get_world_rank_from_group_rank", "get_comm_name",
           "get_group_rank_from_world_rank", "create_group", "destroy_group",
           "get_process_group_ranks", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
DEFAULT_WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
DEVICE_TO_BACKEND = {"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}
_WORLD_GROUP = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP,
                "mccl": MCCL_WORLD_COMM_GROUP}
_NOT_INITED = ("Distributed Communication has not been inited.You can't invoke this interface "
               "yet. Please call `init()` method first.")


class Backend:
    """The communication libraries' names (``Backend("nccl") == "nccl"``)."""

    UNDEFINED = "undefined"
    HCCL = "hccl"
    NCCL = "nccl"
    MCCL = "mccl"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise TypeError("For 'Backend', the class variable 'name' must be a string, but got "
                            f"the type : {type(name)}")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            raise ValueError(f"For 'Backend', the class variable 'name' {name} is not supported, "
                             "please use hccl or nccl.")
        return value


class GlobalComm:
    """World communication information: ``BACKEND``, ``WORLD_COMM_GROUP``, ``INITED``,
    ``CHECK_ENVS``."""

    BACKEND = Backend("hccl")
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


def _get_group(group):
    """MindSpore's default group name stands for the world group of the running backend."""
    if group == DEFAULT_WORLD_COMM_GROUP:
        return GlobalComm.WORLD_COMM_GROUP
    return group


def _check_group(api, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")


def _need_init():
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)


def init(backend_name=None):
    """Initialize the distributed backend (``"hccl"`` / ``"nccl"`` / ``"mccl"``).

    Joins the workers ``msrun`` started into one world (jax's distributed
    runtime); without a launcher the world is this one process."""
    from msxla.context import get_context
    device_target = get_context("device_target")
    if backend_name is None:
        backend_name = DEVICE_TO_BACKEND.get(device_target)
        if backend_name is None:
            raise RuntimeError(f"For 'set_context', the argument 'device_target' {device_target} "
                               "is not supported in parallel initialization, please use Ascend, "
                               "GPU or CPU.")
    if not isinstance(backend_name, str):
        raise TypeError("For 'init', the argument 'backend_name' must be a string, but got the "
                        f"type : {type(backend_name)}")
    if backend_name not in _WORLD_GROUP:
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' "
                           f"and 'mccl', but got 'backend_name' : {backend_name}")
    if backend_name in ("hccl", "nccl"):
        wanted = {"hccl": "Ascend", "nccl": "GPU"}[backend_name]
        if device_target != wanted:
            raise RuntimeError(f"For 'init', the argument 'backend_name' should be "
                               f"'{DEVICE_TO_BACKEND.get(device_target)}' to init "
                               f"'{device_target}', but got '{backend_name}'.")
    _world.form(set(_WORLD_GROUP.values()))
    GlobalComm.BACKEND = Backend(backend_name)
    GlobalComm.WORLD_COMM_GROUP = _WORLD_GROUP[backend_name]
    GlobalComm.INITED = True


def release():
    """Release the distributed runtime (it is also released when the process ends)."""
    _world.release()


def _rank_query(api, group, env, default, value):
    _check_group(api, group)
    if not GlobalComm.INITED:
        return int(os.getenv(env, default))
    return value(_get_group(group))


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank in ``group`` (before ``init()``: ``RANK_ID``, default 0)."""
    return _rank_query("get_rank", group, "RANK_ID", "0", _group_rank)


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank among the group's processes on this machine."""
    return _rank_query("get_local_rank", group, "LOCAL_RANK", "0", _local_rank)


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of ranks in ``group`` (before ``init()``: ``RANK_SIZE``, default 1)."""
    return _rank_query("get_group_size", group, "RANK_SIZE", "1",
                       lambda g: len(_world.ranks_of(g)))


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of the group's ranks on this machine."""
    return _rank_query("get_local_rank_size", group, "LOCAL_RANK_SIZE", "1", _local_size)


def _group_rank(group):
    ranks = _world.ranks_of(group)
    if _world.STATE.rank not in ranks:
        raise RuntimeError(f"Rank {_world.STATE.rank} is not a member of the group {group} "
                           f"(ranks {list(ranks)}).")
    return ranks.index(_world.STATE.rank)


def _local_members(group):
    hosts = _world.STATE.hosts
    mine = hosts[_world.STATE.rank]
    return [r for r in _world.ranks_of(group) if hosts[r] == mine]


def _local_rank(group):
    members = _local_members(group)
    return members.index(_world.STATE.rank) if _world.STATE.rank in members else 0


def _local_size(group):
    return len(_local_members(group))


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world rank of ``group``'s rank ``group_rank_id``."""
    _check_group("get_world_rank_from_group_rank", group)
    _need_init()
    if not isinstance(group_rank_id, int):
        raise TypeError("For 'get_world_rank_from_group_rank', the argument 'group_rank_id' "
                        f"must be type of int, but got 'group_rank_id' type : "
                        f"{type(group_rank_id)}.")
    ranks = _world.ranks_of(_get_group(group))
    if not 0 <= group_rank_id < len(ranks):
        raise RuntimeError(f"The group rank {group_rank_id} is out of the group {group} of "
                           f"size {len(ranks)}.")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group):
    """The rank in ``group`` of world rank ``world_rank_id``."""
    _check_group("get_group_rank_from_world_rank", group)
    _need_init()
    if not isinstance(world_rank_id, int):
        raise TypeError("For 'get_group_rank_from_world_rank', the argument 'world_rank_id' "
                        f"must be type of int, but got 'world_rank_id' type : "
                        f"{type(world_rank_id)}.")
    ranks = _world.ranks_of(_get_group(group))
    if world_rank_id not in ranks:
        raise RuntimeError(f"The world rank {world_rank_id} is not a member of the group "
                           f"{group} (ranks {list(ranks)}).")
    return ranks.index(world_rank_id)


def create_group(group, rank_ids, options=None):
    """Create the communication group ``group`` of the world ranks ``rank_ids`` (group rank
    ``i`` is ``rank_ids[i]``)."""
    _check_group("create_group", group)
    _need_init()
    known = _world.STATE.groups.get(group)
    if known is not None:
        if list(known) != list(rank_ids):
            raise ValueError(f"The group {group} has been created, the rank_list is "
                             f"{list(known)}, but current rank_list for the group is {rank_ids}")
        return
    if not isinstance(rank_ids, list):
        raise TypeError("For 'create_group', the argument 'rank_ids' must be type of list, but "
                        f"got 'rank_ids' type : {type(rank_ids)}.")
    if len(rank_ids) < 1:
        raise ValueError("For 'create_group', the argument 'rank_ids' size should be greater "
                         f"than 1, but got 'rank_ids' size : {len(rank_ids)}.")
    if len(rank_ids) != len(set(rank_ids)):
        raise ValueError(f"List rank_ids in Group {group} has duplicate data!")
    size = _world.STATE.size
    for r in rank_ids:
        if not isinstance(r, int) or not 0 <= r < size:
            raise RuntimeError(f"Failed to create communication group for {group} with rank ids "
                               f"{rank_ids}: rank {r} is not in the world of {size} ranks.")
    _world.STATE.groups[group] = tuple(rank_ids)


def destroy_group(group):
    """Destroy a group made by ``create_group`` (the world group cannot be destroyed)."""
    _check_group("destroy_group", group)
    _need_init()
    if _world.is_world(group):
        raise ValueError("The world_group does not support destruction.")
    if _world.STATE.groups.pop(group, None) is None:
        raise RuntimeError(f"The group {group} does not exist.")


def get_comm_name(group=GlobalComm.WORLD_COMM_GROUP):
    """The communicator's name: empty, as on MindSpore's CPU backend (msxla has no HCCL/NCCL
    communicator objects of its own)."""
    _check_group("get_comm_name", group)
    _need_init()
    _world.ranks_of(_get_group(group))
    return ""


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP):
    """The world ranks of ``group``, in group-rank order."""
    _need_init()
    return list(_world.ranks_of(_get_group(group)))

