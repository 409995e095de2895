"""The communication world: which process is which rank, its groups and their device meshes.

MindSpore runs one process per device. ``msrun`` starts them with the
scheduler's address and each worker's id in the environment (``MS_WORKER_NUM``,
``MS_SCHED_HOST``, ``MS_SCHED_PORT``, ``MS_NODE_ID``, ``MS_TOPO_TIMEOUT``), and
``mindspore.communication.init()`` joins them into one cluster. msxla maps
that onto jax's distributed runtime: ``jax.distributed.initialize`` with the
scheduler's address as the coordinator (process 0 runs jax's coordination
service; no separate scheduler process is needed), one jax process per rank,
gloo collectives on CPU and NCCL on GPU. Without those variables, ``init()``
makes a world of one process.

A rank is a process; rank ``r`` computes on the first device jax gives
process ``r``. A communication group is an ordered list of world ranks (group
rank ``i`` is ``ranks[i]``, the order ``create_group`` was given). Collectives
over a group run as SPMD programs over the group's ``Mesh`` (one axis, named
after the group), see ``msxla.communication._collective``.
"""
from __future__ import annotations

import os
import socket
import threading

import jax
import numpy as np

from msxla import _jax_compat

WORLD_AXIS = "world"
_lock = threading.RLock()


class _State:
    def __init__(self):
        self.started = False      # init() has formed the world
        self.runtime = False      # this module started jax's distributed runtime
        self.released = False
        self.rank = 0
        self.size = 1
        self.local_rank = 0
        self.local_size = 1
        self.hosts = ("",)
        self.groups: dict[str, tuple[int, ...]] = {}
        # MindSpore's three world-group names all stand for the world
        self.world_names = {"hccl_world_group", "nccl_world_group", "mccl_world_group"}
        self.meshes: dict[tuple, object] = {}


STATE = _State()


def _env_int(*names, default=None):
    for name in names:
        value = os.environ.get(name)
        if value not in (None, ""):
            try:
                return int(value)
            except ValueError:
                raise RuntimeError(f"The environment variable {name}={value!r} must be an "
                                   "integer.") from None
    return default


def launched_size() -> int:
    """The number of workers the launcher started (1 when not launched)."""
    return _env_int("MS_WORKER_NUM", "OMPI_COMM_WORLD_SIZE", default=1)


def start_runtime() -> None:
    """Join jax's distributed runtime as the launcher's environment describes.

    Idempotent. Called by ``init()`` and, before the user's script runs, by
    workers that ``msrun`` / ``python -m msxla.launch`` started (so Tensors
    created before ``init()`` do not stop the runtime from starting)."""
    with _lock:
        if STATE.runtime or launched_size() <= 1:
            return
        size = launched_size()
        rank = _env_int("MS_NODE_ID", "RANK_ID", "OMPI_COMM_WORLD_RANK")
        if rank is None:
            raise RuntimeError(
                "msxla needs each worker's rank: the launcher sets MS_NODE_ID. When the job "
                "spans several machines, pass --node_rank to msrun on each of them.")
        host = os.environ.get("MS_SCHED_HOST", "127.0.0.1")
        port = _env_int("MS_SCHED_PORT", default=8118)
        timeout = _env_int("MS_TOPO_TIMEOUT", default=600)
        if _jax_compat.backends_initialized():
            raise RuntimeError(
                "For 'init', jax's devices were already in use when the distributed runtime "
                "was to start. Call mindspore.communication.init() before creating any Tensor, "
                "or launch the script with msrun / python -m msxla.launch, which start the "
                "runtime before the script runs.")
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
        kwargs = {}
        device_id = _env_int("DEVICE_ID")
        if device_id is not None and _uses_gpu():
            kwargs["local_device_ids"] = [device_id]
        jax.distributed.initialize(
            coordinator_address=f"{host}:{port}", num_processes=size, process_id=rank,
            initialization_timeout=timeout if timeout > 0 else 10 ** 7,
            heartbeat_timeout_seconds=30, **kwargs)
        STATE.runtime = True


def _uses_gpu() -> bool:
    from msxla.context import get_context
    return get_context("device_target") == "GPU"


def form(world_names) -> None:
    """Form the world (``init()``): ranks, sizes, local ranks and the world group names."""
    with _lock:
        start_runtime()
        STATE.world_names.update(world_names)
        if STATE.started:
            return
        if STATE.runtime:
            STATE.rank, STATE.size = jax.process_index(), jax.process_count()
            STATE.hosts = tuple(exchange("host", socket.gethostname()))
        else:
            STATE.rank, STATE.size, STATE.hosts = 0, 1, (socket.gethostname(),)
        mine = STATE.hosts[STATE.rank]
        same = [r for r, h in enumerate(STATE.hosts) if h == mine]
        STATE.local_rank, STATE.local_size = same.index(STATE.rank), len(same)
        STATE.started = True


def release() -> None:
    with _lock:
        if STATE.runtime and not STATE.released:
            jax.distributed.shutdown()
        STATE.released = True


_counter = [0]


def exchange(tag: str, value: str) -> list[str]:
    """Every rank's ``value`` (a str), in rank order, through the coordination service."""
    client = _jax_compat.distributed_client()
    _counter[0] += 1
    key = f"msxla/{tag}/{_counter[0]}"
    rank, size = jax.process_index(), jax.process_count()
    client.key_value_set(f"{key}/{rank}", value)
    timeout = max(_env_int("MS_TOPO_TIMEOUT", default=600), 1) * 1000
    return [client.blocking_key_value_get(f"{key}/{r}", timeout) for r in range(size)]


def barrier(group_ranks) -> None:
    """Block until every rank of the world has reached this barrier."""
    if not STATE.runtime or STATE.size == 1:
        return
    client = _jax_compat.distributed_client()
    _counter[0] += 1
    timeout = max(_env_int("MS_TOPO_TIMEOUT", default=600), 1) * 1000
    client.wait_at_barrier(f"msxla/barrier/{_counter[0]}", timeout)


# ------------------------------------------------------------------ groups
def is_world(group: str) -> bool:
    return group in STATE.world_names


def ranks_of(group: str) -> tuple[int, ...]:
    """The world ranks of ``group`` in group-rank order."""
    if is_world(group):
        return tuple(range(STATE.size))
    ranks = STATE.groups.get(group)
    if ranks is None:
        raise RuntimeError(f"The group {group} does not exist. Create it with "
                           "mindspore.communication.create_group first.")
    return ranks


def axis_name(group: str) -> str:
    """The mesh axis a group's collectives run over."""
    return WORLD_AXIS if is_world(group) else f"group:{group}"


def rank_device(rank: int):
    """The device rank ``rank`` computes on."""
    for d in jax.devices():
        if d.process_index == rank:
            return d
    raise RuntimeError(f"jax has no device for rank {rank}.")


def local_device():
    return rank_device(STATE.rank) if STATE.runtime else jax.devices()[0]


def mesh(group: str):
    """The one-axis ``Mesh`` over the devices of ``group``'s ranks, in group-rank order."""
    ranks = ranks_of(group)
    key = (group, ranks)
    found = STATE.meshes.get(key)
    if found is None:
        devices = np.array([rank_device(r) for r in ranks]) if STATE.runtime else \
            np.array([jax.devices()[0]])
        found = STATE.meshes[key] = jax.sharding.Mesh(devices, (axis_name(group),))
    return found
