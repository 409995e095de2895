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
    _dump(path, items)


def _dump(path, items):
    """Write ``{name: layout}`` as a strategy file, whole or not at all (a temporary
    file renamed into place)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"current_stage": 0, "parallel_layout_item": items}, f, indent=1)
    os.replace(tmp, path)


def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file):
    """Merge the strategy files of every pipeline stage in ``src_strategy_dirs`` into
    ``dst_strategy_file`` (``mindspore.parallel.merge_pipeline_strategys``).

    Each ``*.json`` file of the directory holds one stage's layouts; the merged file
    holds every Parameter's layout (a Parameter in several stages keeps the layout of
    the first file, in name order)."""
    from msxla.errors import user_error
    if not isinstance(src_strategy_dirs, str) or not os.path.isdir(src_strategy_dirs):
        raise user_error(NotADirectoryError, f"src_strategy_dirs {src_strategy_dirs} is not a "
                         "directory.", hint="pass the directory holding the stages' strategy "
                         "files.")
    if not isinstance(dst_strategy_file, str):
        raise user_error(TypeError, "For 'merge_pipeline_strategys', the argument "
                         "'dst_strategy_file' must be str, but got "
                         f"{type(dst_strategy_file).__name__}.")
    names = sorted(n for n in os.listdir(src_strategy_dirs) if n.endswith(".json"))
    if not names:
        raise user_error(ValueError, f"For 'merge_pipeline_strategys', {src_strategy_dirs} holds "
                         "no JSON strategy file.", hint="msxla reads and writes MindSpore's JSON "
                         "strategy files (names ending in .json).")
    items = {}
    for name in names:
        with open(os.path.join(src_strategy_dirs, name), encoding="utf-8") as f:
            doc = json.load(f)
        for param, layout in doc.get("parallel_layout_item", {}).items():
            items.setdefault(param, layout)
    _dump(dst_strategy_file, items)
