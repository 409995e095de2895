"""Writing the Parameters' layouts as MindSpore's JSON strategy file.

``set_auto_parallel_context(strategy_ckpt_config={"save_file": "strategy.json"})``:
when a graph is compiled under a semi-auto mode, the layouts of the Parameters
it reads are written here (``{"current_stage": 0, "parallel_layout_item": {name:
{"dev_matrix", "tensor_map", "field", "opt_weight_shard_size",
"opt_weight_shard_step"}}}``, the form MindSpore reads from ``*.json``);
``checkpoint_transform`` reads them back.
"""
from __future__ import annotations

import json
import os
import tempfile

from msxla.parallel import _slices


def write_strategy(path, params):
    """Write ``params``' layouts (whole when unsharded) as MindSpore's JSON strategy file."""
    import jax
    items = {}
    for p in params:
        sharding = getattr(p, "sharding", None)
        if sharding is None:
            dev_matrix, tensor_map = [len(jax.devices())], [-1] * len(p.shape)
        else:
            dev_matrix, tensor_map = _slices.layout_of(sharding, len(p.shape))
            if any(isinstance(t, tuple) for t in tensor_map):
                raise ValueError(f"The layout of '{p.name}' splits one dimension over several "
                                 "device axes, which MindSpore's strategy file cannot hold.")
        items[p.name] = {"dev_matrix": dev_matrix, "tensor_map": tensor_map, "field": 0,
                         "opt_weight_shard_size": 0, "opt_weight_shard_step": 0}
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"current_stage": 0, "parallel_layout_item": items}, f, indent=1)
    os.replace(tmp, path)
