"""``mindspore.parallel``: the auto-parallel context, ``Layout``, ``shard``, parameter
broadcast and distributed checkpoints, on jax's SPMD partitioner (GSPMD / Shardy)."""
from msxla.parallel._auto_parallel_context import ParallelMode  # noqa: F401
from msxla.parallel.layout import Layout
from msxla.parallel.shard import shard

__all__ = ["Layout", "shard"]
