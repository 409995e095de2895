"""``mindspore.dataset`` samplers: which rows of a random-access source an
epoch reads, and in which order.

A sampler turns the source's length into an index array for one epoch
(``_indices(n, ctx)``) and knows, without running, how many indices that is
(``_count(n)``). Random samplers draw from a numpy generator seeded from the
run's seed, the epoch and the node's place in the tree, so every epoch has a
new order, every run with the same ``set_seed`` the same orders, and threads
or processes never change them. The index rules are MindSpore's: sharding pads
by wrapping around to the start, so all shards have the same size (which is
what data-parallel training needs); with ``offset`` it does not pad.
"""
from __future__ import annotations

import enum
import math
import numbers

import numpy as np

from msxla.dataset.core import config

INT64_MAX = 9223372036854775807


class Shuffle(str, enum.Enum):
    """Shuffle modes of the file-based sources."""

    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"


def _check_num_samples(num_samples):
    if num_samples is None:
        return None
    if not isinstance(num_samples, int) or isinstance(num_samples, bool):
        raise TypeError(f"num_samples must be an integer, but got {type(num_samples)}.")
    if num_samples < 0 or num_samples > INT64_MAX:
        raise ValueError("num_samples exceeds the boundary between 0 and "
                         f"{INT64_MAX}(INT64_MAX)!")
    return num_samples or None


def _rng(ctx, sampler, base=None):
    return np.random.default_rng(ctx.seed_for(0x5A, base=base))


class BuiltinSampler:
    """Base of the samplers; ``add_child`` makes a child's indices this one's input."""

    def __init__(self, num_samples=None):
        self.num_samples = _check_num_samples(num_samples)
        self.child_sampler = None

    def add_child(self, sampler):
        if not isinstance(sampler, BuiltinSampler):
            raise TypeError("Input sampler should be a BuiltinSampler, but got "
                            f"{type(sampler).__name__}.")
        self.child_sampler = sampler

    def get_child(self):
        return self.child_sampler

    def get_num_samples(self):
        return self.num_samples

    def is_shuffled(self):
        return False

    def is_sharded(self):
        return False

    # -- engine protocol
    def _input(self, n, ctx):
        if self.child_sampler is None:
            return None, n
        base = self.child_sampler._indices(n, ctx)
        return base, len(base)

    def _count(self, n):
        if self.child_sampler is not None:
            n = self.child_sampler._count(n)
        return self._own_count(n)

    def _indices(self, n, ctx) -> np.ndarray:
        base, m = self._input(n, ctx)
        own = np.asarray(self._own_indices(m, ctx), dtype=np.int64)
        return own if base is None else base[own]

    def _cap(self, k):
        return k if self.num_samples is None else min(k, self.num_samples)


class SequentialSampler(BuiltinSampler):
    """Rows ``start_index``, ``start_index + 1``, ... in order."""

    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        if start_index is not None and (not isinstance(start_index, int) or start_index < 0):
            raise ValueError(f"start_index should be a non-negative integer, but got {start_index}.")
        self.start_index = start_index or 0

    def _own_count(self, n):
        return self._cap(max(0, n - self.start_index))

    def _own_indices(self, n, ctx):
        return np.arange(self.start_index, self.start_index + self._own_count(n))


class RandomSampler(BuiltinSampler):
    """A new random order every epoch (with ``replacement``: independent draws)."""

    def __init__(self, replacement=False, num_samples=None, shuffle=Shuffle.GLOBAL):
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        super().__init__(num_samples)
        self.replacement = replacement
        self.shuffle = shuffle

    def is_shuffled(self):
        return True

    def _own_count(self, n):
        return self._cap(n)

    def _own_indices(self, n, ctx):
        rng = _rng(ctx, self)
        if self.replacement:
            return rng.integers(0, n, self._own_count(n)) if n else np.zeros(0, np.int64)
        return rng.permutation(n)[:self._own_count(n)]


class DistributedSampler(BuiltinSampler):
    """Shard ``shard_id`` of ``num_shards``: every ``num_shards``-th row.

    Without ``offset`` the index list is padded by wrapping to the start so
    every shard has ``ceil(n / num_shards)`` rows; with ``shuffle`` the rows
    are first permuted, identically in every shard (the seed is
    ``ds.config.get_seed()`` and the epoch, never a per-run draw).
    """

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        super().__init__(num_samples)
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id), ("offset", offset)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"{name} must be an integer, but got {type(v)}.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be a boolean value but was: {shuffle}.")
        self.num_shards, self.shard_id, self.shuffle, self.offset = (
            num_shards, shard_id, shuffle, offset)

    def is_shuffled(self):
        return self.shuffle

    def is_sharded(self):
        return True

    def _check(self):
        if self.num_shards <= 0:
            raise RuntimeError(f"Invalid parameter, num_shards must be greater than 0, "
                               f"but got {self.num_shards}.")
        if not 0 <= self.shard_id < self.num_shards:
            raise RuntimeError(f"Invalid parameter, shard_id must be in range [0, "
                               f"{self.num_shards}), but got {self.shard_id}.")

    def _positions(self, n):
        self._check()
        if self.offset >= 0:
            pos = np.arange(n)
            pos = pos[(pos + self.offset) % self.num_shards == self.shard_id]
        else:
            per_shard = math.ceil(n / self.num_shards) if n else 0
            pos = np.arange(self.shard_id, per_shard * self.num_shards, self.num_shards)
        return pos[:self._cap(len(pos))]

    def _own_count(self, n):
        return len(self._positions(n))

    def _own_indices(self, n, ctx):
        pos = self._positions(n)
        if n == 0:
            return pos
        order = _rng(ctx, self, base=config.get_seed()).permutation(n) if self.shuffle \
            else np.arange(n)
        return order[pos % n]


def _check_indices(indices, who):
    if isinstance(indices, str) or not hasattr(indices, "__iter__"):
        raise TypeError(f"Unsupported sampler object of type ({type(indices)})")
    out = list(indices)
    for i, v in enumerate(out):
        if not isinstance(v, numbers.Integral) or isinstance(v, bool):
            raise TypeError(f"{who}: Type of indices element must be int, but got list[{i}]: "
                            f"{v}, type: {type(v)}.")
    return np.asarray(out, dtype=np.int64)


class SubsetSampler(BuiltinSampler):
    """Exactly the given rows, in the given order."""

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        self.indices = _check_indices(indices, type(self).__name__)

    def _own_count(self, n):
        return self._cap(len(self.indices))

    def _own_indices(self, n, ctx):
        chosen = self.indices[:self._own_count(n)]
        bad = chosen[(chosen < 0) | (chosen >= n)]
        if len(bad):
            raise RuntimeError(f"Sample ID ({int(bad[0])}) is out of bound, expected range "
                               f"[0, {n - 1}]")
        return chosen


class SubsetRandomSampler(SubsetSampler):
    """The given rows in a new random order every epoch."""

    def is_shuffled(self):
        return True

    def _own_indices(self, n, ctx):
        chosen = super()._own_indices(n, ctx)
        return _rng(ctx, self).permutation(self.indices)[:len(chosen)]


class WeightedRandomSampler(BuiltinSampler):
    """Rows drawn with probability proportional to ``weights``."""

    def __init__(self, weights, num_samples=None, replacement=True):
        super().__init__(num_samples)
        weights = list(weights)
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, (int, float, np.number)):
                raise TypeError(f"type of weights element must be number, but got w[{i}]: {w}, "
                                f"type: {type(w)}.")
        self.weights = np.asarray(weights, dtype=np.float64)
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        self.replacement = replacement

    def is_shuffled(self):
        return True

    def _own_count(self, n):
        """``num_samples`` rows, at most the source's (MindSpore's rule), all by default."""
        return n if self.num_samples is None else min(self.num_samples, n)

    def _own_indices(self, n, ctx):
        w = self.weights
        if len(w) > n:
            raise RuntimeError(f"Invalid parameter, size of sample weights must be less than or "
                               f"equal to num of data, otherwise might cause generated id out of "
                               f"bound or other errors, but got weight size: {len(w)}, num of "
                               f"data: {n}")
        if len(w) == 0 or (w < 0).any() or w.sum() <= 0:
            raise RuntimeError("Invalid parameter, weights must be non-negative, not all zero "
                               "and not empty.")
        k = self._own_count(n)
        if not self.replacement and k > np.count_nonzero(w):
            raise RuntimeError(f"Invalid parameter, num_samples ({k}) is more than the number "
                               f"of non-zero weights ({np.count_nonzero(w)}) without replacement.")
        return _rng(ctx, self).choice(len(w), size=k, replace=self.replacement, p=w / w.sum())


class Sampler(BuiltinSampler):
    """Base of user samplers: override ``__iter__`` to yield row indices;
    ``self.dataset_size`` is the source's length when it runs."""

    def __init__(self, num_samples=None):
        super().__init__(num_samples)
        self.dataset_size = 0

    def __iter__(self):
        raise NotImplementedError("A Sampler subclass must implement __iter__.")

    def _own_indices(self, n, ctx):
        self.dataset_size = n
        out = np.fromiter((int(i) for i in iter(self)), dtype=np.int64)
        return out[:self._cap(len(out))]

    def _own_count(self, n):
        return len(self._own_indices(n, None))


class IterSampler(Sampler):
    """A user's iterable of indices used as a sampler."""

    def __init__(self, sampler, num_samples=None):
        super().__init__(num_samples)
        self.sampler = sampler

    def __iter__(self):
        return iter(self.sampler)


class PKSampler(BuiltinSampler):
    """``num_val`` rows of each class (needs the source's labels)."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label",
                 num_samples=None):
        super().__init__(num_samples)
        if num_class is not None:
            raise NotImplementedError("num_class is not supported at this time.")
        self.num_val, self.shuffle, self.class_column = num_val, shuffle, class_column
        self.labels = None  # set by a source that knows its labels

    def is_shuffled(self):
        return self.shuffle

    def _groups(self, n):
        if self.labels is None:
            raise RuntimeError("PKSampler needs a source with a label column "
                               "(ImageFolderDataset, MnistDataset, ...).")
        labels = np.asarray(self.labels[:n])
        return [np.flatnonzero(labels == c) for c in np.unique(labels)]

    def _own_count(self, n):
        return self._cap(self.num_val * len(self._groups(n)))

    def _own_indices(self, n, ctx):
        rng = _rng(ctx, self) if self.shuffle else None
        out = []
        for rows in self._groups(n):
            if rng is not None:
                rows = rng.permutation(rows)
            reps = -(-self.num_val // len(rows))
            out.extend(np.tile(rows, reps)[:self.num_val])
        if rng is not None:
            out = list(rng.permutation(out))
        return np.asarray(out[:self._own_count(n)], dtype=np.int64)


def select_sampler(num_samples, sampler, shuffle, num_shards, shard_id):
    """The sampler a source uses, from its arguments (MindSpore's rules)."""
    if sampler is not None:
        if isinstance(sampler, BuiltinSampler) and not isinstance(sampler, IterSampler) and any(
                a is not None for a in (num_shards, shard_id, shuffle, num_samples)):
            raise ValueError(f"Conflicting arguments during sampler assignments. num_samples: "
                             f"{num_samples}, num_shards: {num_shards}, shard_id: {shard_id}, "
                             f"shuffle: {shuffle}.")
        if isinstance(sampler, BuiltinSampler):
            return sampler
        if isinstance(sampler, (np.ndarray, list, tuple)):
            return SubsetSampler(sampler, num_samples)
        if isinstance(sampler, int) and not isinstance(sampler, bool):
            return SubsetSampler([sampler])
        if not isinstance(sampler, str) and hasattr(sampler, "__iter__"):
            return IterSampler(sampler, num_samples)
        raise TypeError(f"Unsupported sampler object of type ({type(sampler)})")
    shuffled = shuffle is None or (shuffle is not False and shuffle != Shuffle.FALSE)
    if shuffled:
        if num_shards is not None:
            return DistributedSampler(num_shards, shard_id, shuffle=True, num_samples=num_samples)
        if num_samples:
            return RandomSampler(replacement=True, num_samples=num_samples)
        return RandomSampler(num_samples=num_samples)
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=False, num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)


def check_shards(num_shards, shard_id):
    """ValueErrors of a source's ``num_shards``/``shard_id`` arguments."""
    if (num_shards is None) != (shard_id is None):
        raise ValueError("num_shards and shard_id need to be passed in together.")
    if num_shards is None:
        return
    for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"Argument {name} with value {v} is not of type [<class 'int'>], "
                            f"but got {type(v)}.")
    if num_shards <= 0:
        raise ValueError(f"Input num_shards is not within the required interval of "
                         f"[1, 2147483647].")
    if not 0 <= shard_id < num_shards:
        raise ValueError("shard_id should be less than num_shards.")
