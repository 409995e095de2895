"""Collective Primitives: ``ops.AllReduce``, ``AllGather``, ``ReduceScatter``, ``Broadcast``,
``AlltoAll`` and ``ReduceOp``.

Each is a composite (not a jitted row: a collective must see whether it runs
eagerly or inside a captured graph, ``msxla.communication._collective``) with
MindSpore 2.10's constructor attributes and checks. They run over a
communication group of ranks (processes), eagerly, inside ``jit`` /
GRAPH_MODE and under ``grad``, with MindSpore's gradients.
"""
from __future__ import annotations

from msxla.common.tensor import Tensor, wrap
from msxla.communication import _collective
from msxla.communication.management import GlobalComm, _get_group
from msxla.errors import ShapeError, user_error
from msxla.ops.primitive import REQUIRED, PrimDef
from msxla.ops.surface import composite, exports

_WORLD = GlobalComm.WORLD_COMM_GROUP


class ReduceOp:
    """Reduction of ``AllReduce`` / ``ReduceScatter``: ``SUM``, ``MAX``, ``MIN``, ``PROD``,
    ``AVG``."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


def _check_group(prim):
    group = _get_group(prim.attrs["group"])
    if not isinstance(group, str):
        raise TypeError(f"For '{prim.name}', the 'group' must be str, but got "
                        f"{type(group).__name__}.")
    prim.add_prim_attr("group", group)
    prim.add_prim_attr("no_eliminate", True)
    return group


def _check_op(prim):
    op = prim.attrs["op"]
    if not isinstance(op, str):
        raise TypeError(f"For '{prim.name}', the 'op' must be str, but got {type(op).__name__}.")
    if op not in _collective.REDUCE_OPS:
        raise ValueError(f"For '{prim.name}', the 'op' must be one of {_collective.REDUCE_OPS}, "
                         f"but got '{op}'.")


def _size(prim, group):
    from msxla.communication import get_group_size
    size = get_group_size(group)
    prim.add_prim_attr("rank_size", size)
    return size


def _tensor(name, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got {type(x).__name__}.")
    return x._data


def _check_all_reduce(prim):
    _check_op(prim)
    _check_group(prim)
    prim.add_prim_attr("fusion", 0)
    prim.add_prim_attr("index", 0)


@composite(public=False, prim="AllReduce", primitive=PrimDef(
    init=(("op", ReduceOp.SUM), ("group", _WORLD)), check=_check_all_reduce,
    call=lambda prim, x: all_reduce_(x, prim.attrs["op"], prim.attrs["group"])))
def all_reduce_(input_x, op=ReduceOp.SUM, group=_WORLD):
    """Reduce ``input_x`` over every rank of ``group`` (each rank gets the result)."""
    return wrap(_collective.all_reduce(op, _get_group(group), _tensor("AllReduce", input_x)))


def _check_all_gather(prim):
    from msxla.communication import get_rank
    group = _check_group(prim)
    size = _size(prim, group)
    rank = get_rank(group)
    if rank >= size:
        raise ValueError(f"For '{prim.name}', the 'rank' must be less than 'rank_size', but got "
                         f"'rank': {rank} and 'rank_size': {size}.")
    prim.add_prim_attr("fusion", 0)
    prim.add_prim_attr("mean_flag", False)


@composite(public=False, prim="AllGather", primitive=PrimDef(
    init=(("group", _WORLD),), check=_check_all_gather,
    call=lambda prim, x: all_gather_(x, prim.attrs["group"])))
def all_gather_(input_x, group=_WORLD):
    """Every rank's ``input_x`` concatenated along dimension 0, in group-rank order."""
    return wrap(_collective.all_gather(_get_group(group), _tensor("AllGather", input_x)))


def _check_reduce_scatter(prim):
    _check_op(prim)
    _size(prim, _check_group(prim))
    prim.add_prim_attr("fusion", 0)


@composite(public=False, prim="ReduceScatter", primitive=PrimDef(
    init=(("op", ReduceOp.SUM), ("group", _WORLD)), check=_check_reduce_scatter,
    call=lambda prim, x: reduce_scatter_(x, prim.attrs["op"], prim.attrs["group"])))
def reduce_scatter_(input_x, op=ReduceOp.SUM, group=_WORLD):
    """Reduce over the ranks, then rank ``i`` keeps block ``i`` of dimension 0."""
    x = _tensor("ReduceScatter", input_x)
    group = _get_group(group)
    n = _collective.group_size(group)
    if x.ndim == 0 or x.shape[0] % n:
        raise user_error(ShapeError, f"For 'ReduceScatter', the first dimension of the input "
                         f"({x.shape[0] if x.ndim else 'a scalar'}) must be divisible by the "
                         f"group size {n}.")
    return wrap(_collective.reduce_scatter(op, group, x))


def _check_broadcast(prim):
    root = prim.attrs["root_rank"]
    if not isinstance(root, int) or isinstance(root, bool):
        raise TypeError(f"For '{prim.name}', the type of 'root_rank' must be int, but got "
                        f"{type(root).__name__}.")
    _check_group(prim)


@composite(public=False, prim="Broadcast", primitive=PrimDef(
    init=(("root_rank", REQUIRED), ("group", _WORLD)), check=_check_broadcast,
    call=lambda prim, x: broadcast_(x, prim.attrs["root_rank"], prim.attrs["group"])))
def broadcast_(input_x, root_rank, group=_WORLD):
    """Rank ``root_rank``'s tensors (a tuple) on every rank of ``group``."""
    if not isinstance(input_x, (tuple, list)):
        raise TypeError("For 'Broadcast', the input must be a tuple of Tensors, but got "
                        f"{type(input_x).__name__}.")
    group = _get_group(group)
    n = _collective.group_size(group)
    if not 0 <= root_rank < n:
        raise ValueError(f"For 'Broadcast', 'root_rank' {root_rank} is out of the group {group} "
                         f"of {n} ranks.")
    return tuple(wrap(_collective.broadcast(root_rank, group, _tensor("Broadcast", x)))
                 for x in input_x)


def _check_all_to_all(prim):
    for key in ("split_count", "split_dim", "concat_dim"):
        value = prim.attrs[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For '{prim.name}', the '{key}' must be int, but got "
                            f"{type(value).__name__}.")
    _size(prim, _check_group(prim))


@composite(public=False, prim="AlltoAll", primitive=PrimDef(
    init=(("split_count", REQUIRED), ("split_dim", REQUIRED), ("concat_dim", REQUIRED),
          ("group", _WORLD)),
    check=_check_all_to_all,
    call=lambda prim, x: all_to_all_(x, prim.attrs["split_count"], prim.attrs["split_dim"],
                                     prim.attrs["concat_dim"], prim.attrs["group"])))
def all_to_all_(input_x, split_count, split_dim, concat_dim, group=_WORLD):
    """Split ``input_x`` into ``split_count`` blocks along ``split_dim``, send block ``i`` to
    rank ``i``, concatenate the received blocks along ``concat_dim``."""
    x = _tensor("AlltoAll", input_x)
    group = _get_group(group)
    n = _collective.group_size(group)
    split_dim %= max(x.ndim, 1)
    concat_dim %= max(x.ndim, 1)
    if split_count != n:
        raise ValueError(f"For 'AlltoAll', 'split_count' ({split_count}) must equal the group "
                         f"size ({n}).")
    if x.shape[split_dim] % split_count:
        raise user_error(ShapeError, f"For 'AlltoAll', dimension {split_dim} of the input "
                         f"({x.shape[split_dim]}) must be divisible by 'split_count' "
                         f"({split_count}).")
    return wrap(_collective.all_to_all(split_dim, concat_dim, group, x))


__all__ = exports(__name__)
