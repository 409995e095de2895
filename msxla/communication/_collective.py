"""Collectives on jax arrays: one rank's value in, this rank's result out.

MindSpore's collectives are per-rank: every rank calls ``AllReduce()(x)`` with
its own ``x``. msxla runs them as SPMD programs over the group's ``Mesh``
(``_world.mesh``), one block per rank, with jax's collectives (``psum``,
``all_gather``, ``psum_scatter``, ``all_to_all``) over the group's mesh axis:

- eagerly (a concrete array): the rank's array becomes its block of a global
  array, a cached ``shard_map`` program runs on every rank of the group, and
  the rank's block of the result comes back;
- inside a graph being captured: the capture binds the groups' axes
  (``axis_env``), so the collective is recorded as the jax collective; the
  graph is then compiled as one ``shard_map`` program over the group
  (``msxla.communication._spmd``);
- in a world of one rank (no launcher): the identities they are.

Gradients follow MindSpore's bprop rules (``custom_vjp``): AllReduce(SUM) ->
AllReduce(SUM) of the gradient; MAX/MIN -> that, masked where the input was
the result; PROD -> AllReduce(SUM)(dout * out) / x; AVG -> AllReduce(AVG);
AllGather -> ReduceScatter(SUM); ReduceScatter(SUM) -> AllGather;
AlltoAll -> AlltoAll with split and concat dimensions swapped; Broadcast -> dout.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

from msxla import _jax_compat
from msxla.communication import _world

REDUCE_OPS = ("sum", "max", "min", "prod", "avg")


def group_size(group) -> int:
    return len(_world.ranks_of(group))


# ------------------------------------------------------------------ per-axis bodies
def _reduce(x, op, axis):
    if op == "sum":
        if x.dtype == jnp.bool_:
            return lax.psum(x.astype(jnp.int32), axis).astype(jnp.bool_)
        return lax.psum(x, axis)
    if op == "max":
        return lax.pmax(x, axis)
    if op == "min":
        return lax.pmin(x, axis)
    if op == "avg":
        return lax.pmean(x, axis).astype(x.dtype)
    return jnp.prod(lax.all_gather(x, axis), axis=0).astype(x.dtype)


def _body(kind, params, axis, n):
    """The rank's computation of collective ``kind`` over mesh axis ``axis`` of size ``n``."""
    if kind == "all_reduce":
        return lambda x: _reduce(x, params[0], axis)
    if kind == "all_gather":
        return lambda x: lax.all_gather(x, axis, axis=0, tiled=True)
    if kind == "reduce_scatter":
        op = params[0]

        def reduce_scatter(x):
            if op == "sum":
                return lax.psum_scatter(x, axis, scatter_dimension=0, tiled=True)
            chunk = x.shape[0] // n
            full = _reduce(x, op, axis)
            return lax.dynamic_slice_in_dim(full, lax.axis_index(axis) * chunk, chunk, 0)
        return reduce_scatter
    if kind == "broadcast":
        root = params[0]

        def broadcast(x):
            keep = lax.axis_index(axis) == root
            masked = jnp.where(keep, x, jnp.zeros_like(x))
            if x.dtype == jnp.bool_:
                return lax.psum(masked.astype(jnp.int32), axis).astype(jnp.bool_)
            return lax.psum(masked, axis)
        return broadcast
    if kind == "all_to_all":
        split_dim, concat_dim = params
        return lambda x: lax.all_to_all(x, axis, split_dim, concat_dim, tiled=True)
    raise ValueError(kind)


# ------------------------------------------------------------------ running one
@functools.lru_cache(maxsize=512)
def _eager_program(kind, params, group, ranks, shape, dtype):
    mesh = _world.mesh(group)
    axis = mesh.axis_names[0]
    body = _body(kind, params, axis, len(ranks))

    def block(b):
        return body(b[0])[None]

    return jax.jit(jax.shard_map(block, mesh=mesh, in_specs=P(axis), out_specs=P(axis),
                                 check_vma=False)), NamedSharding(mesh, P(axis))


def _eager(kind, params, group, x):
    ranks = _world.ranks_of(group)
    if _world.STATE.rank not in ranks:
        raise RuntimeError(f"Rank {_world.STATE.rank} is not a member of the group {group} "
                           f"(ranks {list(ranks)}); only its members may call its collectives.")
    program, sharding = _eager_program(kind, params, group, ranks, tuple(x.shape),
                                       jnp.dtype(x.dtype))
    local = jax.device_put(x, _world.local_device())[None]
    block = jax.make_array_from_single_device_arrays((len(ranks), *x.shape), sharding, [local])
    out = program(block)
    return out.addressable_shards[0].data[0]


def run(kind, params, group, x):
    """Collective ``kind`` (with ``params``) of this rank's ``x`` over ``group``."""
    if not _world.STATE.started and _world.launched_size() > 1:
        raise RuntimeError("Distributed Communication has not been inited.You can't invoke this "
                           "interface yet. Please call `init()` method first.")
    n = group_size(group)
    if n == 1:
        return x
    axis = _world.axis_name(group)
    if _jax_compat.axis_bound(axis):
        # Each rank captures its own graph, so a value XLA sees as a constant may differ
        # between ranks (e.g. scaled by the rank); XLA assumes SPMD constants are the same
        # everywhere and would fold psum(c) into n * c. A select on the rank's index (never
        # true) makes the operand per-rank for XLA.
        x = jnp.where(lax.axis_index(axis) < 0, jnp.zeros_like(x), x)
        return _body(kind, params, axis, n)(x)
    if isinstance(x, jax.core.Tracer):
        raise RuntimeError(
            f"A collective over the group {group} was traced by a jax transformation msxla "
            "does not run over the group's devices. Call it eagerly, inside mindspore.jit / "
            "GRAPH_MODE, or inside mindspore.grad.")
    return _eager(kind, params, group, x)


# ------------------------------------------------------------------ with gradients
@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def all_reduce(op, group, x):
    return run("all_reduce", (op,), group, x)


def _all_reduce_fwd(op, group, x):
    out = all_reduce(op, group, x)
    return out, (x, out)


def _all_reduce_bwd(op, group, res, dout):
    x, out = res
    if op == "sum":
        return (all_reduce("sum", group, dout),)
    if op == "avg":
        return (all_reduce("avg", group, dout),)
    if op == "prod":
        return (all_reduce("sum", group, dout * out) / x,)
    return (all_reduce("sum", group, dout) * (x == out).astype(dout.dtype),)


all_reduce.defvjp(_all_reduce_fwd, _all_reduce_bwd)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def all_gather(group, x):
    return run("all_gather", (), group, x)


all_gather.defvjp(lambda group, x: (all_gather(group, x), None),
                  lambda group, _, dout: (reduce_scatter("sum", group, dout),))


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def reduce_scatter(op, group, x):
    return run("reduce_scatter", (op,), group, x)


def _reduce_scatter_bwd(op, group, _, dout):
    if op != "sum":
        raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")
    return (all_gather(group, dout),)


reduce_scatter.defvjp(lambda op, group, x: (reduce_scatter(op, group, x), None),
                      _reduce_scatter_bwd)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def broadcast(root, group, x):
    return run("broadcast", (root,), group, x)


broadcast.defvjp(lambda root, group, x: (broadcast(root, group, x), None),
                 lambda root, group, _, dout: (dout,))


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1, 2))
def all_to_all(split_dim, concat_dim, group, x):
    return run("all_to_all", (split_dim, concat_dim), group, x)


all_to_all.defvjp(
    lambda s, c, group, x: (all_to_all(s, c, group, x), None),
    lambda s, c, group, _, dout: (all_to_all(c, s, group, dout),))


# ------------------------------------------------------------------ send / recv
@functools.lru_cache(maxsize=64)
def _pair_program(src, dst, shape, dtype):
    import numpy as np
    mesh = jax.sharding.Mesh(np.array([_world.rank_device(src), _world.rank_device(dst)]),
                             ("p2p",))

    def block(b):
        return lax.ppermute(b, "p2p", perm=[(0, 1)])

    program = jax.jit(jax.shard_map(block, mesh=mesh, in_specs=P("p2p"), out_specs=P("p2p"),
                                    check_vma=False))
    return program, NamedSharding(mesh, P("p2p"))


def point_to_point(src, dst, x):
    """Rank ``src``'s ``x`` arrives at rank ``dst`` (both ranks call this; ``dst`` passes a
    placeholder of the same shape and dtype and gets the value)."""
    if src == dst:
        raise ValueError(f"send/recv: the source and destination are both rank {src}.")
    if isinstance(x, jax.core.Tracer):
        raise RuntimeError("send/recv run eagerly in msxla; call them outside jit / GRAPH_MODE.")
    program, sharding = _pair_program(src, dst, tuple(x.shape), jnp.dtype(x.dtype))
    local = jax.device_put(x, _world.local_device())[None]
    block = jax.make_array_from_single_device_arrays((2, *x.shape), sharding, [local])
    return program(block).addressable_shards[0].data[0]
