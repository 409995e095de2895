"""``nn.SyncBatchNorm``: batch normalisation with statistics over every rank's batch.

In training, each rank's per-channel sum, sum of squares and element count are
summed over the ranks of its group (``ops.AllReduce``), so every rank
normalises with the mean and variance of the whole, distributed batch, and
the gradients flow back through the all-reduce to every rank (MindSpore's
bprop rule). The moving statistics are updated from those global statistics
(the variance unbiased), as ``BatchNorm2d`` does. ``process_groups`` divides
the ranks into groups that synchronise separately; a rank in no group of
more than one rank (and a one-rank world) behaves as ``BatchNorm``.
"""
from __future__ import annotations

import hashlib

from msxla import ops
from msxla.common import dtype as mstype
from msxla.communication import create_group, get_group_size, get_rank
from msxla.communication.management import GlobalComm
from msxla.nn.layer.normalization import _BatchNorm

__all__ = ["SyncBatchNorm"]
_GROUPS: dict[str, str] = {}


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, H, W) synchronised over ranks."""

    _ranks = (2, 4)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, process_groups=None, dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, dtype=dtype)
        self.process_groups = process_groups
        self.group_name = None
        if process_groups == 0:
            return
        rank, size = get_rank(), get_group_size()
        if process_groups is not None:
            if not isinstance(process_groups, list):
                raise TypeError(f"For 'SyncBatchNorm', the 'process_groups' must be list, but "
                                f"got {type(process_groups).__name__}.")
            self._check_rank_ids(process_groups, size)
            for ranks in process_groups:
                if not isinstance(ranks, list):
                    raise TypeError(f"For 'SyncBatchNorm', each group of 'process_groups' must "
                                    f"be list, but got {type(ranks).__name__}.")
                if rank in ranks and len(ranks) > 1:
                    self.group_name = _group_for(ranks)
        elif size > 1:
            self.group_name = GlobalComm.WORLD_COMM_GROUP

    def _check_rank_ids(self, groups, size):
        seen = set()
        for ranks in groups:
            for rid in ranks:
                if not isinstance(rid, int) or not 0 <= rid < size:
                    raise ValueError(f"For 'SyncBatchNorm', the 'rank id in process_groups' must "
                                     f"be in range of [0, {size}), but got {rid}.")
                if rid in seen:
                    raise ValueError(f"For 'SyncBatchNorm', rank id in 'process_groups' must not "
                                     f"be duplicated, but got {groups}.")
                seen.add(rid)

    def _check_input_dim(self, ndim):
        if ndim not in self._ranks:
            raise ValueError(f"For 'SyncBatchNorm', the must have 2 dims or 4 dims, but got "
                             f"{ndim}.")

    def construct(self, x):
        self._check_input_dim(x.ndim)
        use_batch = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        if not use_batch or self.group_name is None:
            return super().construct(x)
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        xf = ops.cast(x, mstype.float32)
        allreduce = ops.AllReduce("sum", self.group_name)
        total = allreduce(ops.stack([xf.sum(axes), (xf * xf).sum(axes)]))
        count = allreduce(ops.fill(mstype.float32, (), x.size // x.shape[1]))
        mean = total[0] / count
        var = ops.maximum(total[1] / count - mean * mean, 0.0)
        y = (xf - mean.reshape(shape)) / ops.sqrt(var.reshape(shape) + self.eps)
        y = y * ops.cast(self.gamma, mstype.float32).reshape(shape) + \
            ops.cast(self.beta, mstype.float32).reshape(shape)
        unbiased = var * count / ops.maximum(count - 1.0, 1.0)
        w = self.momentum  # the weight of the batch statistics
        ops.assign(self.moving_mean, ops.stop_gradient(
            (1 - w) * self.moving_mean + w * ops.cast(mean, self.moving_mean.dtype)))
        ops.assign(self.moving_variance, ops.stop_gradient(
            (1 - w) * self.moving_variance + w * ops.cast(unbiased, self.moving_variance.dtype)))
        return ops.cast(y, x.dtype)


def _group_for(ranks):
    """MindSpore's group name for a SyncBatchNorm rank list (created once)."""
    key = "_".join(str(r) for r in ranks)
    name = _GROUPS.get(key)
    if name is None:
        name = f"{len(ranks)}_{hashlib.sha256(key.encode('utf-8')).hexdigest()}"
        create_group(name, list(ranks))
        _GROUPS[key] = name
    return name
