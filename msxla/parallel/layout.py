"""``mindspore.Layout``: a device matrix with named axes, and a tensor's map onto it.

``Layout((2, 4), ("dp", "mp"))`` names a 2x4 arrangement of the devices;
calling it with one entry per tensor dimension (``layout("dp", "None")``, or
a tuple of axis names for a dimension split over several axes) gives that
tensor's layout. MindSpore stores the map as device-matrix indices counted
from the last axis (``"mp"`` -> 0, ``"dp"`` -> 1, ``"None"`` -> -1); msxla turns
it into a ``jax.sharding.PartitionSpec`` over a ``Mesh`` with the same axis
names (``msxla.parallel._sharding``).
"""
from __future__ import annotations

import copy

import numpy as np

INTERLEAVED = "interleaved_parallel"


class Layout:
    """A device matrix with axis names; call it with a tensor map (see the module doc)."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        for dim in device_matrix:
            if not isinstance(dim, int):
                raise TypeError(f"The element of device_matrix must be int type, but "
                                f"got:{type(dim)}")
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f"The element of alias_name must be str type, but got:{type(name)}")
            if not name:
                raise ValueError("The element of alias_name can not be empty.")
            if name == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' "
                                 "means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if INTERLEAVED in alias_name and alias_name.index(INTERLEAVED) != len(alias_name) - 1:
            raise ValueError(f"When alias_name {alias_name} contains keyword "
                             "'interleaved_parallel', it should be at the last dim of alias_name, "
                             "which means the virtual sharding.")
        size = int(np.prod(device_matrix))
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map = None
        self._rank_list = list(range(size))
        if rank_list is not None:
            if not isinstance(rank_list, list):
                raise TypeError(f"The rank_list should be a list, but got "
                                f"{type(rank_list).__name__}.")
            if any(not isinstance(r, int) for r in rank_list):
                raise TypeError("The element of rank_list should be int.")
            if len(rank_list) != size:
                raise ValueError(f"The length of rank_list should be equal to the product of "
                                 f"device_matrix, but got {len(rank_list)} and {size}.")
            self._rank_list = rank_list

    def _index(self, name, written):
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in written:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        written.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        mapped, written = (), []
        for entry in tensor_map:
            if isinstance(entry, tuple):
                mapped += (tuple(-1 if n == "None" else self._index(n, written) for n in entry),)
            else:
                mapped += (-1 if entry == "None" else self._index(entry, written),)
        self._tensor_map = mapped
        return copy.deepcopy(self)

    def to_dict(self):
        if self._device_shape is None:
            raise ValueError("The device_shape of layout is None")
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": INTERLEAVED in self._alias_name,
                "alias_name": self._alias_name, "rank_list": self._rank_list}

    # ------------------------------------------------ msxla: the jax view
    def axis_names_of(self, index):
        """The mesh axis names of tensor-map entry ``index`` (device-matrix indices from the
        last axis), or None for an unsplit dimension."""
        if index == -1:
            return None
        return self._alias_name[len(self._alias_name) - 1 - index]

    def __repr__(self):
        return (f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name}, "
                f"tensor_map={self._tensor_map})")
