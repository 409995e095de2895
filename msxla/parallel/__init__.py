"""``mindspore.parallel``: the auto-parallel context, ``Layout``, ``shard``, parameter
broadcast and distributed checkpoints, on jax's SPMD partitioner (GSPMD / Shardy)."""
from msxla.parallel._auto_parallel_context import ParallelMode  # noqa: F401
from msxla.parallel.layout import Layout
from msxla.parallel.checkpoint_transform import (  # noqa: F401
    build_searched_strategy, load_distributed_checkpoint, merge_sliced_parameter,
    rank_list_for_transform, transform_checkpoint_by_rank, transform_checkpoints)
from msxla.parallel.shard import shard
from msxla.parallel._strategy_file import merge_pipeline_strategys

__all__ = ["Layout", "shard", "build_searched_strategy", "load_distributed_checkpoint",
           "merge_sliced_parameter", "rank_list_for_transform", "transform_checkpoint_by_rank",
           "transform_checkpoints", "merge_pipeline_strategys"]
