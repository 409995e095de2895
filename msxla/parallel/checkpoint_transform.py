"""Distributed checkpoints: strategy files, merging rank slices, re-slicing checkpoints.

Under a semi-auto mode, ``save_checkpoint(net, f, integrated_save=False)`` (and
``CheckpointConfig(integrated_save=False)``) writes the process's rank slice of
each sharded Parameter; with ``integrated_save=True`` (the default) the whole
Parameter. ``set_auto_parallel_context(strategy_ckpt_config={"save_file":
"strategy.json"})`` writes the Parameters' layouts in MindSpore's JSON strategy
format (``parallel_layout_item``: ``dev_matrix``, ``tensor_map``) when a graph is
compiled. From them:

- ``build_searched_strategy(file)``: ``{name: layout}``;
- ``merge_sliced_parameter(slices, strategy=None)``: one Parameter from the ranks'
  slices (along dimension 0 without a strategy);
- ``load_distributed_checkpoint(net, files, train_strategy_filename=...)``: the
  ranks' checkpoint files merged and loaded into ``net``;
- ``transform_checkpoints(src_dir, dst_dir, prefix, src_strategy, dst_strategy)``:
  ``src_dir/rank_<i>/*.ckpt`` re-sliced into ``dst_dir/rank_<j>/<prefix><j>.ckpt``
  for the destination layout (whole Parameters without one).

msxla reads and writes the JSON form of MindSpore's strategy files (names ending
in ``.json``); MindSpore reads it too.
"""
from __future__ import annotations

import glob
import json
import math
import os

import numpy as np

from msxla.parallel import _slices

__all__ = ["build_searched_strategy", "merge_sliced_parameter", "load_distributed_checkpoint",
           "transform_checkpoints", "transform_checkpoint_by_rank", "rank_list_for_transform"]


class _Dims:
    def __init__(self, dim):
        self.dim = list(dim)


class ParallelLayout:
    """One Parameter's layout, shaped as MindSpore's ``ParallelLayouts``
    (``layout.dev_matrix[0].dim``, ``layout.tensor_map[0].dim``)."""

    def __init__(self, dev_matrix, tensor_map, field=0, opt_weight_shard_size=0,
                 opt_weight_shard_step=0):
        self.dev_matrix = [_Dims(dev_matrix)]
        self.tensor_map = [_Dims(tensor_map)]
        self.param_split_shape = [_Dims([])]
        self.indices_offset = [_Dims([])]
        self.field = field
        self.opt_weight_shard_size = opt_weight_shard_size
        self.opt_weight_shard_step = opt_weight_shard_step

    def pair(self):
        return self.dev_matrix[0].dim, self.tensor_map[0].dim


def _check_json(path, who):
    if not isinstance(path, str):
        raise TypeError(f"For '{who}', the strategy file name must be str, but got {type(path)}.")
    if not path.endswith(".json"):
        raise ValueError(f"For '{who}', msxla reads and writes MindSpore's JSON strategy files "
                         f"(a name ending in '.json'), but got '{path}'.")
    if not os.path.isfile(path):
        raise ValueError(f"For '{who}', the strategy file {path} does not exist.")


def build_searched_strategy(strategy_filename):
    """``{parameter name: layout}`` from a strategy file."""
    _check_json(strategy_filename, "build_searched_strategy")
    with open(strategy_filename, encoding="utf-8") as f:
        content = json.load(f)
    return {name: ParallelLayout(item["dev_matrix"], item["tensor_map"], item.get("field", 0),
                                 item.get("opt_weight_shard_size", 0),
                                 item.get("opt_weight_shard_step", 0))
            for name, item in content.get("parallel_layout_item", {}).items()}


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """One Parameter from its slices (in rank order), by ``strategy`` or along dimension 0."""
    from msxla.common.parameter import Parameter
    from msxla.common.tensor import Tensor
    if not isinstance(sliced_parameters, list):
        raise TypeError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should "
                        f"be list, but got {type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should "
                         "not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError("For 'merge_sliced_parameter', the argument 'strategy' should be dict, "
                        f"but got {type(strategy)}.")
    first = sliced_parameters[0]
    for index, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' "
                            f"should be 'Parameter', but got {type(p)} at index {index}.")
        if p.name != first.name or p.shape[1:] != first.shape[1:]:
            raise ValueError("For 'merge_sliced_parameter', please make sure that the elements in "
                             "'slice_parameters' have the same name, dimension length and shape "
                             f"except 0 axis, but got name: {p.name}, shape {p.shape} at index "
                             f"{index}.")
    arrays = [p.asnumpy() for p in sliced_parameters]
    if not strategy:
        whole = np.concatenate(arrays, axis=0)
    else:
        if first.name not in strategy:
            raise KeyError(f"For 'merge_sliced_parameter', the parameter name {first.name} should "
                           "be a key in the 'strategy'.")
        whole = _slices.merge_slices(arrays, *strategy[first.name].pair())
    return Parameter(Tensor(whole), first.name, first.requires_grad, first.layerwise_parallel)


def _merged(slices_by_rank, layout):
    if layout is None or all(t == -1 for t in layout.pair()[1]):
        return slices_by_rank[0]
    dev_matrix, tensor_map = layout.pair()
    return _slices.merge_slices([slices_by_rank[r] for r in range(math.prod(dev_matrix))],
                                dev_matrix, tensor_map)


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, **kwargs):
    """Load every rank's checkpoint (``checkpoint_filenames[r]`` is rank ``r``'s), merged by the
    training strategy file, into ``network``."""
    from msxla.common.parameter import Parameter
    from msxla.common.tensor import Tensor
    from msxla.train.serialization import load_checkpoint, load_param_into_net
    if not isinstance(checkpoint_filenames, list) or not checkpoint_filenames:
        raise TypeError("For 'load_distributed_checkpoint', the argument 'checkpoint_filenames' "
                        "should be a non-empty list of checkpoint files, in rank order.")
    strategy = build_searched_strategy(train_strategy_filename) if train_strategy_filename \
        else {}
    dicts = [load_checkpoint(f) for f in checkpoint_filenames]
    merged = {}
    for name, param in dicts[0].items():
        whole = _merged([d[name].asnumpy() for d in dicts], strategy.get(name))
        merged[name] = Parameter(Tensor(whole), name, param.requires_grad)
    load_param_into_net(network, merged, strict_load=strict_load)
    return None


def _rank_files(src_checkpoints_dir):
    files = {}
    for directory in glob.glob(os.path.join(src_checkpoints_dir, "rank_[0-9]*")):
        rank = int(directory.rsplit("rank_", 1)[1])
        found = sorted(glob.glob(os.path.join(directory, "*.ckpt")))
        if found:
            files[rank] = found[-1]
    return files


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix,
                          src_strategy_file=None, dst_strategy_file=None, process_num=1,
                          output_format="ckpt"):
    """Re-slice ``src_checkpoints_dir/rank_<i>/*.ckpt`` (saved with ``src_strategy_file``'s
    layouts) into ``dst_checkpoints_dir/rank_<j>/<ckpt_prefix><j>.ckpt`` for
    ``dst_strategy_file``'s (whole Parameters in ``rank_0`` without one)."""
    from msxla.train.serialization import load_checkpoint, save_checkpoint
    if not isinstance(ckpt_prefix, str):
        raise TypeError(f"For 'transform_checkpoints', the argument 'ckpt_prefix' must be str, "
                        f"but got {type(ckpt_prefix)}.")
    files = _rank_files(src_checkpoints_dir)
    if not files:
        raise ValueError(f"For 'transform_checkpoints', no checkpoint found in "
                         f"{src_checkpoints_dir}/rank_*/.")
    src = build_searched_strategy(src_strategy_file) if src_strategy_file else {}
    dst = build_searched_strategy(dst_strategy_file) if dst_strategy_file else {}
    dicts = {rank: load_checkpoint(f) for rank, f in files.items()}
    names = list(dicts[min(dicts)])
    whole = {n: _merged({r: d[n].asnumpy() for r, d in dicts.items()}, src.get(n))
             for n in names}
    dst_ranks = max((math.prod(l.pair()[0]) for l in dst.values()), default=1)
    for rank in range(dst_ranks):
        out = []
        for n in names:
            value = whole[n]
            if n in dst:
                value = _slices.rank_slice(value, *dst[n].pair(), rank)
            out.append({"name": n, "data": _tensor(value)})
        directory = os.path.join(dst_checkpoints_dir, f"rank_{rank}")
        save_checkpoint(out, os.path.join(directory, f"{ckpt_prefix}{rank}.ckpt"))


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                                 src_strategy_file=None, dst_strategy_file=None):
    """Write destination rank ``rank_id``'s checkpoint from the source ranks' files
    (``checkpoint_files_map``: ``{source rank: file}``)."""
    from msxla.train.serialization import load_checkpoint, save_checkpoint
    if not isinstance(rank_id, int) or rank_id < 0:
        raise ValueError(f"For 'transform_checkpoint_by_rank', the argument 'rank_id' must be a "
                         f"non-negative int, but got {rank_id}.")
    if not isinstance(checkpoint_files_map, dict) or not checkpoint_files_map:
        raise TypeError("For 'transform_checkpoint_by_rank', the argument "
                        "'checkpoint_files_map' must be a non-empty dict {rank: file}.")
    src = build_searched_strategy(src_strategy_file) if src_strategy_file else {}
    dst = build_searched_strategy(dst_strategy_file) if dst_strategy_file else {}
    dicts = {rank: load_checkpoint(f) for rank, f in checkpoint_files_map.items()}
    out = []
    for name in dicts[min(dicts)]:
        value = _merged({r: d[name].asnumpy() for r, d in dicts.items()}, src.get(name))
        if name in dst:
            value = _slices.rank_slice(value, *dst[name].pair(), rank_id)
        out.append({"name": name, "data": _tensor(value)})
    save_checkpoint(out, save_checkpoint_file_name)


def _tensor(value):
    from msxla.common.tensor import Tensor
    return Tensor(np.ascontiguousarray(value))


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """The source ranks whose slices rank ``rank_id`` of the destination needs (all of them:
    msxla merges whole Parameters before slicing)."""
    if not src_strategy_file:
        return [0]
    src = build_searched_strategy(src_strategy_file)
    return list(range(max((math.prod(l.pair()[0]) for l in src.values()), default=1)))
