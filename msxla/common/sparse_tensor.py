"""``mindspore.common.sparse_tensor``: the sparse Tensors. ``CSRTensor`` and
``COOTensor`` (and the deprecated ``SparseTensor``) live in ``_csr_tensor.py`` and
``_coo_tensor.py``; this module holds ``RowTensor``.

``RowTensor`` (``mindspore.RowTensor``): a slice-wise sparse Tensor, the rows
``indices`` of a dense Tensor of shape ``dense_shape`` holding ``values``.

MindSpore produces RowTensors as the gradients of sparse lookups on Ascend;
msxla's gradients are dense Tensors, so a RowTensor appears only where code
builds one. It keeps its three parts (as MindSpore 2.10's, it has no dense
conversion) and is the type ``MultitypeFuncGraph`` registrations under
``"RowTensor"`` dispatch on.
"""
from __future__ import annotations

from msxla.common._coo_tensor import COOTensor, SparseTensor
from msxla.common._csr_tensor import CSRTensor
from msxla.common.tensor import Tensor


class RowTensor:
    """``RowTensor(indices, values, shape)`` or ``RowTensor(row_tensor=other)``."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, \
                row_tensor.dense_shape
        if not isinstance(indices, Tensor) or not isinstance(values, Tensor):
            raise TypeError("For 'RowTensor', 'indices' and 'values' must be Tensors, but got "
                            f"{type(indices).__name__} and {type(values).__name__}.")
        shape = tuple(int(s) for s in shape)
        if indices.ndim != 1 or values.shape[0] != indices.shape[0] \
                or tuple(values.shape[1:]) != shape[1:]:
            raise ValueError(f"For 'RowTensor', 'values' {values.shape} must be one row of the "
                             f"dense shape {shape} per index of the 1-D 'indices' "
                             f"{indices.shape}.")
        self._indices, self._values, self._shape = indices, values, shape

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        return self._values

    @property
    def dense_shape(self):
        return self._shape

    def __repr__(self):
        return (f"RowTensor(indices={self._indices!r}, values={self._values!r}, "
                f"dense_shape={self._shape})")


__all__ = ["RowTensor", "SparseTensor", "COOTensor", "CSRTensor"]
