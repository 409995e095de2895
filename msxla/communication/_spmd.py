"""Graphs with collectives: captured per rank, compiled as one SPMD program per group.

A jitted function runs on every rank with the rank's own inputs. While it is
captured, ``capture_axes()`` binds one named axis per communication group
(``world`` and ``group:<name>``), so its collectives are recorded as jax
collectives over those axes and the graph's jaxpr carries their
``NamedAxisEffect``. ``lower`` then compiles the graph as
``shard_map(graph, mesh=group's Mesh)``: every input and output gets a leading
axis of one block per rank, and ``SpmdExecutable`` turns this rank's arrays
into its blocks and back, so the call path sees plain per-rank arrays.

A graph's collectives must all use one group (a graph mixing groups is
refused with an error saying so); every rank of the group must run the graph.
"""
from __future__ import annotations

import contextlib

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from msxla import _jax_compat
from msxla.communication import _world


def capture_axes():
    """Bind every group's axis while a graph is captured (nothing in a one-rank world)."""
    if _world.STATE.size <= 1:
        return contextlib.nullcontext()
    axes = [(_world.WORLD_AXIS, _world.STATE.size)]
    axes += [(_world.axis_name(g), len(r)) for g, r in _world.STATE.groups.items()]
    return _jax_compat.axis_env(axes)


def graph_group(closed_jaxpr):
    """The communication group a captured graph's collectives run over, or None."""
    names = {e.name for e in closed_jaxpr.effects if type(e).__name__ == "NamedAxisEffect"}
    if not names:
        return None
    if len(names) > 1:
        raise RuntimeError(f"A compiled graph uses collectives over several communication "
                           f"groups ({sorted(names)}); msxla compiles a graph over one group. "
                           "Split the function so each jitted part uses one group.")
    name = names.pop()
    if name == _world.WORLD_AXIS:
        return next(iter(_world.STATE.world_names))
    return name[len("group:"):]


def spmd_function(fun, group):
    """``fun`` (flat per-rank arrays -> tuple of arrays) as one program over ``group``'s
    devices on stacked blocks, and the blocks' sharding."""
    mesh = _world.mesh(group)
    axis = mesh.axis_names[0]

    def blocks(*args):
        outs = fun(*[a[0] for a in args])
        return tuple(o[None] for o in outs)

    def program(*args):
        specs = tuple(P(axis) for _ in args)
        mapped = jax.shard_map(blocks, mesh=mesh, in_specs=specs, out_specs=P(axis),
                               check_vma=False)
        return mapped(*args)

    return program, NamedSharding(mesh, P(axis)), mesh.size


class SpmdExecutable:
    """Calls a compiled SPMD program with this rank's arrays; returns this rank's results."""

    spmd = True

    def __init__(self, compiled, sharding, size):
        self.compiled, self.sharding, self.size = compiled, sharding, size
        self.device = _world.local_device()

    def __call__(self, *args):
        blocks = []
        for a in args:
            local = jax.device_put(a, self.device)[None]
            blocks.append(jax.make_array_from_single_device_arrays(
                (self.size, *local.shape[1:]), self.sharding, [local]))
        outs = self.compiled(*blocks)
        return [o.addressable_shards[0].data[0] for o in outs]

    def as_text(self):
        return self.compiled.as_text()

    def cost_analysis(self):
        return self.compiled.cost_analysis()
