"""``mindspore.communication.comm_func``: functional collectives and point-to-point transfers.

Each runs over a communication group as ``msxla.communication._collective``
describes (eagerly or inside a captured graph, with gradients). The
``async_op`` variants return ``(output, handle)`` as MindSpore does; msxla's
collectives complete when their result is used, so ``handle.wait()`` has
nothing left to wait for. ``send`` / ``recv`` pair two ranks in a program
over those two ranks' devices (jax's ``ppermute``); ``tag`` is accepted.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.common.tensor import Tensor, wrap
from msxla.communication import _collective, _world
from msxla.communication.management import (GlobalComm, _get_group, get_group_rank_from_world_rank,
                                            get_group_size)
from msxla.ops.comm_ops import ReduceOp

__all__ = ["all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "broadcast",
           "barrier", "send", "recv", "isend", "irecv", "reduce", "gather_into_tensor",
           "scatter_tensor", "CommHandle", "ReduceOp", "get_cache_group_size",
           "get_cache_group_rank"]
_WORLD = GlobalComm.WORLD_COMM_GROUP


class CommHandle:
    """The handle of an ``async_op`` collective; ``wait()`` returns at once (the result is
    complete when it is used)."""

    def __init__(self, handle=None, exec_sync=False):
        self.handle = handle
        self.exec_sync = exec_sync

    def wait(self):
        if self.handle is not None:
            jax.block_until_ready(self.handle)


default_handle = CommHandle()


def _check_tensor(api, tensor):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")


def _outputs(output, async_op):
    return (output, CommHandle(output._data) if async_op else None)


def all_reduce(tensor, op=ReduceOp.SUM, group=_WORLD, async_op=False):
    """Reduce ``tensor`` over the group; returns ``(output, handle)``."""
    _check_tensor("all_reduce", tensor)
    if not isinstance(op, str):
        raise TypeError("For all_reduce, the input op type must be str")
    if op not in ("sum", "prod", "min", "max"):
        raise TypeError("For all_reduce, the input op value must be one of sum, prod, min, max")
    out = wrap(_collective.all_reduce(op, _get_group(group), tensor._data))
    return _outputs(out, async_op)


def all_gather_into_tensor(tensor, group=_WORLD, async_op=False):
    """Every rank's ``tensor`` concatenated along dimension 0; returns ``(output, handle)``."""
    _check_tensor("all_gather_into_tensor", tensor)
    out = wrap(_collective.all_gather(_get_group(group), tensor._data))
    return _outputs(out, async_op)


def reduce_scatter_tensor(tensor, op=ReduceOp.SUM, group=_WORLD, async_op=False):
    """Reduce over the group, rank ``i`` keeps block ``i``; returns ``(output, handle)``."""
    _check_tensor("reduce_scatter_tensor", tensor)
    out = wrap(_collective.reduce_scatter(op, _get_group(group), tensor._data))
    return _outputs(out, async_op)


def broadcast(tensor, src=0, group=_WORLD):
    """World rank ``src``'s ``tensor`` on every rank of the group."""
    _check_tensor("broadcast", tensor)
    if not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    group = _get_group(group)
    root = get_group_rank_from_world_rank(src, group)
    return wrap(_collective.broadcast(root, group, tensor._data))


def reduce(tensor, dst, op=ReduceOp.SUM, group=_WORLD):
    """The reduction of ``tensor`` over the group (meaningful on world rank ``dst``)."""
    _check_tensor("reduce", tensor)
    get_group_rank_from_world_rank(dst, _get_group(group))
    return wrap(_collective.all_reduce(op, _get_group(group), tensor._data))


def gather_into_tensor(tensor, dst=0, group=_WORLD):
    """Every rank's ``tensor`` concatenated along dimension 0 (meaningful on rank ``dst``)."""
    _check_tensor("gather_into_tensor", tensor)
    get_group_rank_from_world_rank(dst, _get_group(group))
    return wrap(_collective.all_gather(_get_group(group), tensor._data))


def scatter_tensor(tensor, src=0, group=_WORLD):
    """Block ``i`` (of dimension 0) of world rank ``src``'s ``tensor`` on group rank ``i``."""
    _check_tensor("scatter_tensor", tensor)
    group = _get_group(group)
    root = get_group_rank_from_world_rank(src, group)
    full = _collective.broadcast(root, group, tensor._data)
    n = get_group_size(group)
    chunk = full.shape[0] // n
    from msxla.communication import get_rank
    i = get_rank(group)
    return wrap(full[i * chunk:(i + 1) * chunk])


def get_cache_group_size(group=_WORLD):
    """The size of ``group`` (MindSpore caches it; msxla's groups are plain records)."""
    return get_group_size(_get_group(group))


def get_cache_group_rank(group=_WORLD):
    """This rank's rank in ``group``."""
    from msxla.communication import get_rank
    return get_rank(_get_group(group))


def barrier(group=_WORLD):
    """Block until every rank of the group reaches the barrier."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    token = _collective.all_reduce("sum", _get_group(group), jnp.zeros((), jnp.int32))
    jax.block_until_ready(token)


def _pair(peer_world_rank, group, sending):
    group = _get_group(group)
    ranks = _world.ranks_of(group)
    if peer_world_rank not in ranks:
        raise ValueError(f"Rank {peer_world_rank} is not a member of the group {group}.")
    me = _world.STATE.rank
    return (me, peer_world_rank) if sending else (peer_world_rank, me)


def send(tensor, dst=0, group=_WORLD, tag=0):
    """Send ``tensor`` to world rank ``dst`` (which calls ``recv`` with ``src`` = this rank)."""
    _check_tensor("send", tensor)
    src, dst = _pair(dst, group, True)
    jax.block_until_ready(_collective.point_to_point(src, dst, tensor._data))


def recv(tensor, src=0, group=_WORLD, tag=0):
    """Receive from world rank ``src`` a tensor of ``tensor``'s shape and dtype."""
    _check_tensor("recv", tensor)
    if not isinstance(src, int):
        raise TypeError("For recv, the src must be int")
    src, dst = _pair(src, group, False)
    return wrap(_collective.point_to_point(src, dst, jnp.zeros_like(tensor._data)))


def isend(tensor, dst=0, group=_WORLD, tag=0):
    """``send``, returning a handle."""
    send(tensor, dst, group, tag)
    return default_handle


def irecv(tensor, src=0, group=_WORLD, tag=0):
    """``recv``, returning ``(output, handle)``."""
    return recv(tensor, src, group, tag), default_handle
