"""Parameter layouts as MindSpore writes them, and the slice each rank holds.

A layout is MindSpore's ``(dev_matrix, tensor_map)``: the device matrix (ranks in
row-major order) and, per tensor dimension, the device-matrix axis it is split
along counted from the last axis (``-1``: not split; a tuple: split along several
axes, the first outermost). ``layout_of(sharding)`` reads it off a jax
``NamedSharding`` (mesh shape = device matrix, ranks in ``jax.devices()`` order);
``rank_slice`` / ``merge_slices`` cut a whole array into a rank's slice and put
the slices of every rank back together.
"""
from __future__ import annotations

import math

import jax
import numpy as np


def layout_of(sharding, ndim):
    """``(dev_matrix, tensor_map)`` of a ``NamedSharding`` for a tensor of ``ndim`` dims."""
    names = list(sharding.mesh.axis_names)
    dev_matrix = [int(n) for n in sharding.mesh.devices.shape]
    spec = list(sharding.spec) + [None] * (ndim - len(sharding.spec))
    tensor_map = []
    for entry in spec:
        if entry is None:
            tensor_map.append(-1)
        elif isinstance(entry, tuple):
            tensor_map.append(tuple(len(names) - 1 - names.index(n) for n in entry))
        else:
            tensor_map.append(len(names) - 1 - names.index(entry))
    order = [d.id for d in jax.devices()]
    ranks = [order.index(d.id) for d in sharding.mesh.devices.flat]
    if ranks != sorted(ranks):
        raise ValueError("A layout whose rank_list reorders the devices cannot be written as "
                         "MindSpore's (dev_matrix, tensor_map).")
    return dev_matrix, tensor_map


def _cuts(dev_matrix, tensor_map, rank):
    """Per tensor dimension: (number of slices, this rank's slice index)."""
    coord = np.unravel_index(rank, dev_matrix) if dev_matrix else ()
    out = []
    for entry in tensor_map:
        axes = entry if isinstance(entry, (tuple, list)) else (entry,)
        count, index = 1, 0
        for j in axes:
            if j == -1:
                continue
            a = len(dev_matrix) - 1 - j
            count, index = count * dev_matrix[a], index * dev_matrix[a] + int(coord[a])
        out.append((count, index))
    return out


def rank_slice(array, dev_matrix, tensor_map, rank):
    """Rank ``rank``'s slice of the whole ``array`` (numpy)."""
    array = np.asarray(array)
    index = []
    for size, (count, i) in zip(array.shape, _cuts(dev_matrix, tensor_map, rank)):
        if size % count:
            raise ValueError(f"A dimension of size {size} cannot be split into {count} slices.")
        step = size // count
        index.append(slice(i * step, (i + 1) * step))
    return array[tuple(index)]


def merge_slices(slices, dev_matrix, tensor_map):
    """The whole array from every rank's slice (``slices[r]`` is rank ``r``'s)."""
    ranks = math.prod(dev_matrix)
    if len(slices) != ranks:
        raise ValueError(f"The layout's device matrix {list(dev_matrix)} has {ranks} ranks, but "
                         f"{len(slices)} slices were given.")
    first = np.asarray(slices[0])
    cuts0 = _cuts(dev_matrix, tensor_map, 0)
    shape = [s * c for s, (c, _) in zip(first.shape, cuts0)]
    whole = np.empty(shape, first.dtype)
    for rank, piece in enumerate(slices):
        index = tuple(slice(i * s, (i + 1) * s)
                      for s, (c, i) in zip(first.shape, _cuts(dev_matrix, tensor_map, rank)))
        whole[index] = np.asarray(piece)
    return whole


def this_rank():
    """The rank whose slice this process saves (its process index; device 0 in one process)."""
    return jax.process_index()
