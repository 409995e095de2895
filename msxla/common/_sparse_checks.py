"""The argument checks of ``CSRTensor(...)`` and ``COOTensor(...)``, with MindSpore 2.10's
exceptions and messages (a TypeError for a wrong type, a ValueError for a shape that
does not fit), each naming the user's line.

Only shapes and dtypes are checked, so the checks run the same on Tensors
holding tracers (a sparse tensor built inside a captured graph).
"""
from __future__ import annotations

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.errors import user_error

_INDEX_TYPES = (mstype.int16, mstype.int32, mstype.int64)


def _fail(cls, message):
    raise user_error(cls, message)


def check_parts(indices, values, shape):
    if not isinstance(indices, Tensor):
        _fail(TypeError, f"For SparseTensors, 'indices' must be Tensor, but got {type(indices)}.")
    if not isinstance(values, Tensor):
        _fail(TypeError, f"For SparseTensors, 'values' must be Tensor, but got {type(values)}.")
    if not isinstance(shape, tuple):
        _fail(TypeError, f"For SparseTensors, 'shape' must be tuple, but got {type(shape)}.")


def check_csr(indptr, indices, values, shape):
    if not isinstance(indptr, Tensor):
        _fail(TypeError, f"For CSRTensor, 'indptr' must be Tensor, but got {type(indptr)}.")
    check_parts(indices, values, shape)
    _check_csr_shape(tuple(indptr.shape), tuple(indices.shape), tuple(values.shape), shape)
    if indptr.dtype not in _INDEX_TYPES:
        _fail(TypeError, "For CSRTensor, indptr must have int16 or int32 or int64 data type, "
                         f"but got {indptr.dtype}.")
    if indices.dtype not in _INDEX_TYPES:
        _fail(TypeError, "For CSRTensor, indices must have int16 or int32 or int64 data type, "
                         f"but got {indices.dtype}.")


def _check_csr_shape(indptr_shp, indices_shp, values_shp, shape):
    if indptr_shp == indices_shp == values_shp == (0,):
        return  # an empty sparse tensor
    total = 1
    for item in shape:
        if item <= 0:
            _fail(ValueError,
                  f"For CSRTensor, the element of shape must be positive, but got {item}")
        if not isinstance(item, int):
            _fail(TypeError, "For CSRTensor, the element type of shape must be int, but got "
                             f"{type(item)}")
        total *= item
    stored = 1
    for item in values_shp:
        if item <= 0:
            _fail(ValueError, f"The element of shape must be positive, but got {item}")
        stored *= item
    if total < stored:
        _fail(ValueError, f"Shape total size: {total} is too small to hold {stored} non-zero "
                          "values.")
    if len(indices_shp) != 1:
        _fail(ValueError, "For CSRTensor, indices must be a 1-dimensional tensor, but got a "
                          f"{len(indices_shp)} dimension tensor.")
    if len(indptr_shp) != 1:
        _fail(ValueError, "For CSRTensor, indptr must be a 1-dimensional tensor, but got a "
                          f"{len(indptr_shp)} dimension tensor.")
    if shape[0] + 1 != indptr_shp[0]:
        _fail(ValueError, "For CSRTensor, indptr must have length (1 + shape[0]), but got: "
                          f"{indptr_shp[0]}")
    if indices_shp[0] != values_shp[0]:
        _fail(ValueError, "For CSRTensor, indices and values must equal in their shape, but got "
                          f"indices shape: {indices_shp[0]}, values shape: {values_shp[0]}.")
    if len(values_shp) + 1 != len(shape):
        _fail(ValueError, "Values' dimension should equal to CSRTensor's dimension - 1, but got"
                          f"Values' dimension: {len(values_shp)} , CSRTensor's dimension: "
                          f"{len(shape)}")
    if values_shp[1:] != tuple(shape[2:]):
        _fail(ValueError, "CSRTensor's shape[2: ] must be equal to value's shape[1: ],but "
                          f"CSRTensor's shape[2: ] got: {shape[2:]} and value's shape[1: ]got: "
                          f"{values_shp[1:]}")


def check_coo(indices, values, shape):
    check_parts(indices, values, shape)
    indices_shp, values_shp = tuple(indices.shape), tuple(values.shape)
    if len(shape) != 2:
        _fail(ValueError, f"For COOTensor, the length of 'shape' must be 2, but got {shape}.")
    if not (indices_shp == (0,) and values_shp == (0,)):
        _check_coo_shape(indices_shp, values_shp, shape)
    if indices.dtype not in _INDEX_TYPES:
        _fail(TypeError, "For COOTensor, the type of 'indices' must be one of [int16, int32, "
                         f"int64], but got {indices.dtype}.")


def _check_coo_shape(indices_shp, values_shp, shape):
    total = 1
    for item in shape:
        if item <= 0:
            _fail(ValueError, "For COOTensor, the element of 'shape' must be positive, but got "
                              f"{item} in {shape}.")
        if not isinstance(item, int):
            _fail(TypeError, "For COOTensor, the element type of 'shape' must be int, but got "
                             f"{type(item)}")
        total *= item
    if len(values_shp) != 1:
        _fail(ValueError, "For COOTensor, 'values' must be a 1-dimensional tensor, but got a "
                          f"{len(values_shp)}-dimensional tensor.")
    if total < values_shp[0]:
        _fail(ValueError, f"For COOTensor, shape is too small: ({total}) to hold all "
                          f"values({values_shp[0]}).")
    if len(indices_shp) != 2:
        _fail(ValueError, "For COOTensor, 'indices' must be a 2-dimensional tensor, but got a "
                          f"{len(indices_shp)}-dimensional tensor.")
    if indices_shp[0] != values_shp[0]:
        _fail(ValueError, "For COOTensor, 'indices.shape[0]' must be euqal to 'values.shape[0]', "
                          f"but got 'indices.shape[0]' = {indices_shp[0]} and 'values.shape[0]' "
                          f"= {values_shp[0]}.")
    if indices_shp[1] != 2:
        _fail(ValueError, f"For COOTensor, 'indices.shape[1]' must be 2, but got {indices_shp[1]}.")


def check_same_shape(a, b):
    if not a.shape == getattr(b, "shape", None):
        _fail(ValueError, "Input tensors should have the same shape.")
