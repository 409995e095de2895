"""What ``CSRTensor`` and ``COOTensor`` share: the parts they are made of, their
read-only properties, their repr, and how capture passes them.

A sparse tensor is a few Tensors (its *parts*, named by ``_PARTS``) and a static
dense shape. Capture describes one as a ``values.Sparse`` node (class, shape, the
nodes of its parts), so a sparse tensor passed to a jitted function or returned by
it travels as its Tensors, like a tuple of Tensors, in every capture mode; the
shape is part of the compiled graph's key. ``_from_parts`` rebuilds one without
checks (the parts were checked when it was first built).
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common.tensor import Tensor, wrap
from msxla.errors import user_error


def as_tensor(value):
    """The Tensor a part is stored as (a plain Tensor around the same array)."""
    if type(value) is Tensor:
        return value
    return wrap(value._data if isinstance(value, Tensor) else jnp.asarray(value))


def check_value_type(name, value, opname):
    if not isinstance(value, Tensor):
        raise user_error(TypeError, f"For '{opname}', the type of '{name}' should be 'Tensor', "
                                    f"but got '{value}' with type '{type(value).__name__}'.")


class SparseBase:
    """The common surface of the sparse tensors (not a MindSpore name)."""

    __slots__ = ("_shape", "__weakref__")
    _PARTS: tuple = ()

    @classmethod
    def _from_parts(cls, shape, *parts):
        obj = object.__new__(cls)
        obj._shape = tuple(shape)
        for name, part in zip(cls._PARTS, parts):
            object.__setattr__(obj, name, as_tensor(part))
        return obj

    def _parts(self):
        return tuple(getattr(self, name) for name in self._PARTS)

    @property
    def values(self) -> Tensor:
        """The stored (non-zero) values."""
        return self._values

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def shape(self) -> tuple:
        """The dense shape."""
        return self._shape

    @property
    def dtype(self):
        """The dtype of the values (a ``mindspore.dtype``)."""
        return self._values.dtype

    @property
    def size(self) -> int:
        """The number of stored values."""
        return self._values.size

    @property
    def itemsize(self) -> int:
        """The length of one value in bytes."""
        return self._values.itemsize

    @property
    def ndim(self) -> int:
        """The number of dimensions of the dense shape."""
        return len(self._shape)

    def __repr__(self):
        parts = ", ".join(f"{name.lstrip('_')}={getattr(self, name)!r}" for name in self._PARTS)
        return (f"{type(self).__name__}(shape={list(self._shape)}, dtype={self.dtype}, "
                f"{parts})")

    __str__ = __repr__
