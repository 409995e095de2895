"""Semi-auto parallelism: MindSpore's strategies and Layouts as jax shardings.

Under ``SEMI_AUTO_PARALLEL`` / ``AUTO_PARALLEL`` a strategy says into how many
slices each dimension of an op's input (or output) is cut. msxla makes it a
``NamedSharding`` over the global devices (``jax.devices()``, in rank order):

- a strategy ``(s0, ..., sk)`` with product ``p`` on ``n`` devices is the mesh
  ``(n // p, s0, ..., sk)`` with the repeated-calculation axis first (as
  MindSpore's device matrix puts it), and the spec ``P(None, "d0", ..., "dk")``
  without the first axis;
- a ``Layout`` is its own device matrix and axis names, its tensor map the spec.

The op's inputs are constrained to those shardings
(``jax.lax.with_sharding_constraint``) and XLA's SPMD partitioner splits the
computation and inserts the collectives. A Parameter consumed by a sharded op
takes that op's input layout (its ``sharding``), which the compiled graph
receives and returns it in (``graph_shardings``). Strategies are ignored
outside the two semi-auto modes, as in MindSpore, and act on compiled graphs
(GRAPH_MODE, ``jit``): eager values are not moved.
"""
from __future__ import annotations

import math

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from msxla._log import note_once
from msxla.parallel._auto_parallel_context import AUTO_PARALLEL, ParallelMode
from msxla.parallel.layout import INTERLEAVED, Layout

_SEMI = (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)


def active() -> bool:
    """Are strategies applied (a semi-auto mode on more than one device)?"""
    return AUTO_PARALLEL.parallel_mode() in _SEMI and len(jax.devices()) > 1


def devices():
    """The global devices in rank order, after checking the context's ``device_num``."""
    devs = jax.devices()
    if AUTO_PARALLEL.device_num_is_set and AUTO_PARALLEL.values["device_num"] != len(devs):
        raise ValueError(f"set_auto_parallel_context(device_num={AUTO_PARALLEL.values['device_num']}) "
                         f"but jax sees {len(devs)} devices: launch that many workers (or devices) "
                         "or leave device_num unset.")
    if AUTO_PARALLEL.parallel_mode() == ParallelMode.AUTO_PARALLEL:
        note_once("auto_parallel", "AUTO_PARALLEL on msxla: the strategies given are kept and "
                  "XLA's sharding propagation chooses the rest from the input shardings "
                  "(MindSpore's search_mode is not used).")
    return devs


def replicated():
    return NamedSharding(Mesh(np.array(devices()), ("all",)), P())


def batch_sharding(ndim):
    """Dimension 0 split over every device (the ``data_parallel`` dataset strategy)."""
    return NamedSharding(Mesh(np.array(devices()), ("all",)), P("all", *([None] * (ndim - 1))))


def to_sharding(strategy, shape, who="shard"):
    """The ``NamedSharding`` of a strategy tuple or a Layout for a tensor of ``shape``."""
    devs = np.array(devices())
    if isinstance(strategy, Layout):
        return _layout_sharding(strategy, shape, devs, who)
    strategy = tuple(strategy)
    if len(strategy) != len(shape):
        raise ValueError(f"For '{who}', the strategy {strategy} has {len(strategy)} dimensions "
                         f"but the tensor has shape {tuple(shape)}.")
    total = math.prod(strategy)
    if total <= 0 or len(devs) % total:
        raise ValueError(f"For '{who}', the product of the strategy {strategy} ({total}) must "
                         f"divide the number of devices ({len(devs)}).")
    for dim, (size, cut) in enumerate(zip(shape, strategy)):
        if size % cut:
            raise ValueError(f"For '{who}', dimension {dim} of shape {tuple(shape)} cannot be "
                             f"split into {cut} slices (strategy {strategy}).")
    names = tuple(f"d{i}" for i in range(len(shape)))
    mesh = Mesh(devs.reshape((len(devs) // total, *strategy)), ("rep",) + names)
    return NamedSharding(mesh, P(*(n if c > 1 else None for n, c in zip(names, strategy))))


def _layout_sharding(layout, shape, devs, who):
    info = layout.to_dict()
    if info["interleaved_parallel"]:
        raise ValueError(f"For '{who}', msxla does not support 'interleaved_parallel' layouts.")
    matrix, tensor_map = info["device_matrix"], info["tensor_map"]
    if math.prod(matrix) != len(devs):
        raise ValueError(f"For '{who}', the layout's device matrix {matrix} must cover the "
                         f"{len(devs)} devices.")
    if len(tensor_map) != len(shape):
        raise ValueError(f"For '{who}', the layout maps {len(tensor_map)} dimensions but the "
                         f"tensor has shape {tuple(shape)}.")
    mesh = Mesh(devs[np.array(info["rank_list"])].reshape(matrix), info["alias_name"])
    spec = []
    for entry in tensor_map:
        if isinstance(entry, tuple):
            names = tuple(layout.axis_names_of(i) for i in entry if i != -1)
            spec.append(names or None)
        else:
            spec.append(layout.axis_names_of(entry))
    return NamedSharding(mesh, P(*spec))


def constrain(x, sharding):
    """``x`` constrained to ``sharding`` inside a graph being compiled. Outside one (PyNative)
    values stay where they are: strategies decide how a compiled graph is partitioned, as
    MindSpore applies them in GRAPH_MODE."""
    if not isinstance(x, jax.core.Tracer):
        return x
    return jax.lax.with_sharding_constraint(x, sharding)


# ------------------------------------------------------------------ Primitive.shard
def sharded_call(prim, call, args, kwargs):
    """Call ``prim`` with its inputs (and outputs) constrained to its strategies."""
    from msxla.common.parameter import Parameter
    from msxla.common.tensor import Tensor, wrap
    if not active():
        return call(*args, **kwargs)
    in_strategy = prim.attrs.get("in_strategy") or prim.attrs.get("in_layout")
    out_strategy = prim.attrs.get("out_strategy") or prim.attrs.get("out_layout")
    if in_strategy:
        tensors = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if len(in_strategy) != len(tensors):
            raise ValueError(f"For '{prim.name}', the in_strategy has {len(in_strategy)} "
                             f"entries but the primitive received {len(tensors)} Tensors.")
        args = list(args)
        for i, strategy in zip(tensors, in_strategy):
            sharding = to_sharding(strategy, args[i].shape, prim.name)
            if isinstance(args[i], Parameter) and getattr(args[i], "sharding", None) is None:
                args[i].sharding = sharding   # MindSpore: the consuming op's layout
            args[i] = wrap(constrain(args[i]._data, sharding))
    out = call(*args, **kwargs)
    if out_strategy:
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        outs = tuple(wrap(constrain(o._data, to_sharding(s, o.shape, prim.name)))
                     for o, s in zip(outs, out_strategy))
        out = outs[0] if single else outs
    return out


def check_strategy(prim_name, strategy, what):
    """MindSpore's checks of ``Primitive.shard``'s arguments; whether they are Layouts."""
    if not isinstance(strategy, tuple):
        raise TypeError(f"{what} must be tuple type, but got:{type(strategy)}")
    kinds = set()
    for entry in strategy:
        if isinstance(entry, Layout):
            kinds.add("layout")
            continue
        if not isinstance(entry, tuple):
            raise TypeError(f"The element of strategy must be tuple/Layout type, but "
                            f"got:{type(entry)}")
        for value in entry:
            if not isinstance(value, int):
                raise TypeError(f"The {what}: {strategy} of {prim_name} is not valid, the value "
                                f"of strategy must be int type, but got:{type(value)}")
        kinds.add("tuple")
    if len(kinds) > 1:
        raise TypeError(f"{what} item must be all tuple type or all Layout type.")
    return kinds == {"layout"}


# ------------------------------------------------------------------ compiling graphs
class GraphPlan:
    """How a graph compiled under a semi-auto mode meets the devices.

    Data inputs follow the dataset strategy (``full_batch``: whole on every device;
    ``data_parallel``: dimension 0 split over the devices when it divides; a tuple: its
    strategies); Parameters their layout (whole when none was set) and come back in it;
    other outputs are whole on every device. With several processes, each process holds
    whole Parameters and gives its own slice of a ``data_parallel`` batch: ``global_avals``
    are the program's shapes and ``SemiAutoExecutable`` assembles and splits the arrays."""

    def __init__(self, graph):
        from msxla.communication import _world
        self.multi = _world.STATE.runtime and jax.process_count() > 1
        rep = replicated()
        n = jax.process_count()
        ins, avals = [], []
        strategy = AUTO_PARALLEL.get("dataset_strategy")
        for i, aval in enumerate(graph.in_avals[:graph.n_args]):
            shape = tuple(aval.shape)
            if isinstance(strategy, (list, tuple)) and i < len(strategy):
                if self.multi:
                    raise ValueError("A dataset_strategy tuple with several processes: msxla "
                                     "supports 'full_batch' and 'data_parallel' there.")
                ins.append(to_sharding(strategy[i], shape, "dataset_strategy"))
            elif not AUTO_PARALLEL.get("full_batch") and len(shape) and \
                    (shape[0] * (n if self.multi else 1)) % len(devices()) == 0:
                shape = (shape[0] * n,) + shape[1:] if self.multi else shape
                ins.append(batch_sharding(len(shape)))
            else:
                ins.append(rep)
            avals.append(jax.ShapeDtypeStruct(shape, aval.dtype, sharding=ins[-1]))
        state = [rep if self.multi else (getattr(p, "sharding", None) or rep)
                 for p in graph.state_in]
        for sharding, aval in zip(state, graph.in_avals[graph.n_args:]):
            avals.append(jax.ShapeDtypeStruct(aval.shape, aval.dtype, sharding=sharding))
        by_param = {id(p): s for p, s in zip(graph.state_in, state)}
        self.in_shardings = tuple(ins + state)
        self.out_shardings = tuple([rep] * graph.n_outs +
                                   [by_param.get(id(p), rep) for p in graph.state_out] +
                                   [rep] * len(graph.mutated))
        self.global_avals = avals
        config = AUTO_PARALLEL.get("strategy_ckpt_config")
        save_file = config.get("save_file") or AUTO_PARALLEL.get("strategy_ckpt_save_file")
        if save_file:
            from msxla.parallel._strategy_file import write_strategy
            write_strategy(save_file, graph.state_in)


def graph_plan(graph):
    """The ``GraphPlan`` of a graph compiled now, or None outside the semi-auto modes."""
    return GraphPlan(graph) if active() else None


class SemiAutoExecutable:
    """Runs a semi-auto program across processes: each process's arrays become its part of
    the global arrays; each output comes back whole (every output is replicated)."""

    spmd = False

    def __init__(self, compiled, plan):
        self.compiled, self.plan = compiled, plan

    def __call__(self, *args):
        glob = [jax.make_array_from_process_local_data(s, np.asarray(a), aval.shape)
                for a, s, aval in zip(args, self.plan.in_shardings, self.plan.global_avals)]
        return [o.addressable_data(0) for o in self.compiled(*glob)]

    def as_text(self):
        return self.compiled.as_text()

    def cost_analysis(self):
        return self.compiled.cost_analysis()
