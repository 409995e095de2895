"""Tensor indexing: ``x[index]`` and ``x[index] = value`` with MindSpore's semantics.

An index is normalised once into a hashable *spec* (ints, slices, None,
Ellipsis, constant integer arrays) plus the list of dynamic index arrays
(integer Tensors), checked against the Tensor's shape with MindSpore's errors.
The spec is a static argument of one jitted getter and one jitted setter, so
jax applies numpy's indexing rules (basic and advanced) and repeated eager
indexing with the same kind of index reuses one compiled executable. Nothing
here reads Tensor values except boolean masks, whose selected shape depends on
them: they run eagerly, and raise a ``ConcretizationError`` under capture
(``x[mask] = scalar`` alone stays traceable, as a ``where``).

Rules that differ from numpy, as MindSpore 2.10 has them:

- a list holding lists, tuples, Tensors, slices, None or Ellipsis is read as
  a tuple (``x[[0, [1]]]`` is ``x[0, [1]]``); other lists are index arrays;
- ``x[False]``, ``x[[]]``, float and string indices raise IndexError; indexing
  a 0-d Tensor with an int raises TypeError;
- in ``x[index] = value`` the value may not have more dimensions than the
  selection (ValueError), and is cast to the Tensor's dtype.
"""
from __future__ import annotations

import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from msxla.common import dtype as mstype
from msxla.common.cast import cast_array
from msxla.common.tensor import Tensor, wrap
from msxla.errors import ConcretizationError, ShapeError, user_error

_SEQ_MARKERS = (list, tuple, Tensor, slice, type(None), type(Ellipsis), np.ndarray)
_MAX_CONST = 64  # constant index arrays up to this size are compiled in; larger ones are inputs
_SCALARS = (bool, int, float, complex)


def _index_error(msg):
    return user_error(IndexError, msg)


def _type_error(index):
    return user_error(
        IndexError, "Only support integers, slices(`:`), ellipsis(`...`), None, bool, tensor, "
                    f"int, list and tuple as index, but got {index!r} with type {type(index)}")


# ------------------------------------------------------------- normalising
def _as_items(index):
    """The index as a tuple of per-position items (MindSpore's list-as-tuple rule)."""
    if type(index) is tuple:
        return index
    if isinstance(index, list) and any(isinstance(i, _SEQ_MARKERS) for i in index):
        return tuple(index)
    return (index,)


def _slice_bound(v):
    if v is None or (isinstance(v, numbers.Integral) and not isinstance(v, bool)):
        return None if v is None else int(v)
    if isinstance(v, Tensor):
        return int(v)
    raise user_error(TypeError, f"slice indices must be integers, None or 0-d int Tensors, "
                                f"but got {type(v).__name__}.")


def _const_array(arr, dim, size, setitem):
    """A static integer index array, bound-checked and made non-negative."""
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        bad = hi if hi >= size else (lo if lo < -size else None)
        if bad is not None:
            if setitem:
                raise _index_error(f"Index {bad} is out of bounds for axis {dim} with size {size}")
            raise _index_error(f"index {bad} out of bounds for dimension with size {size}")
    arr = np.where(arr < 0, arr + size, arr).astype(np.int64)
    if arr.size > _MAX_CONST:
        return arr  # passed as a dynamic input
    return ("c", arr.shape, tuple(arr.reshape(-1).tolist()))


class _Normaliser:
    """Turns one index into ``(spec, arrays)`` for a Tensor of ``shape``."""

    def __init__(self, shape, setitem):
        self.shape, self.setitem = shape, setitem
        self.spec, self.arrays = [], []

    def dynamic(self, arr):
        self.arrays.append(arr)
        return ("a", len(self.arrays) - 1)

    def run(self, index):
        items = _as_items(index)
        kinds = [self.classify(i) for i in items]
        ndim = len(self.shape)
        used = sum(n for kind, n, _ in kinds if kind != "...")
        if sum(1 for kind, _, _ in kinds if kind == "...") > 1:
            raise _index_error("An index can only have a single ellipsis('...')")
        if used > ndim:
            if ndim == 0 and any(kind == "int" for kind, _, _ in kinds):
                raise user_error(TypeError, "Cannot iterate over a scalar tensor.")
            if ndim == 0 and any(kind == "slice" for kind, _, _ in kinds):
                raise user_error(ValueError, "A 0-d Tensor cannot be sliced: the input data's "
                                             "dim must be in the range of [1, 8], but got 0.")
            raise _index_error(f"too many indices for tensor of dimension {ndim}")
        dim = 0
        for kind, n, item in kinds:
            if kind == "...":
                self.spec.append(Ellipsis)
                dim += ndim - used
            else:
                self.emit(kind, item, dim)
                dim += n
        return tuple(self.spec), self.arrays

    def classify(self, item):
        """``(kind, dims consumed, item)`` for one index item."""
        if item is None:
            return "none", 0, None
        if item is Ellipsis:
            return "...", 0, None
        if isinstance(item, bool):
            if not item:
                raise _index_error("When tensor is indexed by a bool object, the value only "
                                   "support 'True'.")
            return "none", 0, None
        if isinstance(item, numbers.Integral):
            return "int", 1, int(item)
        if isinstance(item, slice):
            if item.step is not None and _slice_bound(item.step) == 0:
                raise user_error(ValueError, "For 'StridedSlice', 'strides' cannot contain 0")
            return "slice", 1, item
        if isinstance(item, Tensor):
            return self.classify_tensor(item)
        if isinstance(item, (jax.Array, Tracer)):  # internal callers may index with jax values
            return self.classify_tensor(wrap(item))
        if isinstance(item, (list, tuple, np.ndarray)):
            return self.classify_sequence(item)
        raise _type_error(item)

    def classify_tensor(self, t):
        data = t._data
        kind = data.dtype.kind
        if kind == "b":
            if data.ndim == 0:  # a 0-d bool Tensor acts as the Python bool it holds
                return self.classify(bool(_concrete_mask(t)))
            return "tmask", data.ndim, t
        if kind not in "iu" or data.dtype == np.uint8:
            raise _index_error(f"The tensor index must be int or bool type, but got {t}")
        return "array", 1, data

    def classify_sequence(self, seq):
        if isinstance(seq, (list, tuple)):
            if len(seq) == 0:
                raise _index_error("When tensor is indexed by list, the list can't be empty.")
            if any(isinstance(x, Tensor) for x in _flat(seq)):
                data = jnp.asarray(_unwrap(seq))
                return ("mask", data.ndim, np.asarray(data)) if data.dtype == np.bool_ \
                    else ("array", 1, data)
            arr = np.asarray(seq)
        else:
            arr = seq
        if arr.dtype == np.bool_:
            return "mask", arr.ndim, arr
        if arr.dtype.kind not in "iu":
            raise user_error(TypeError, "For tuple index, the types only support 'Slice', "
                                        "'Ellipsis', 'None', 'Tensor', 'int', 'List', 'Tuple', "
                                        f"'bool', but got {arr.dtype} values: {seq!r}")
        return "const", 1, arr

    def emit(self, kind, item, dim):
        shape, spec = self.shape, self.spec
        if kind == "none":
            spec.append(None)
        elif kind == "int":
            size = shape[dim]
            if not -size <= item < size:
                if self.setitem:
                    raise _index_error(f"Index {item} is out of bounds for axis {dim} with "
                                       f"size {size}")
                raise _index_error(f"index {item} is out of bounds for dimension with size "
                                   f"{size}")
            spec.append(item % size)
        elif kind == "slice":
            spec.append(("s", _slice_bound(item.start), _slice_bound(item.stop),
                         _slice_bound(item.step)))
        elif kind == "array":
            spec.append(self.dynamic(item))
        elif kind == "const":
            c = _const_array(item, dim, shape[dim], self.setitem)
            spec.append(c if isinstance(c, tuple) else self.dynamic(jnp.asarray(c)))
        else:  # a boolean mask over dims [dim, dim + ndim)
            mask = _concrete_mask(item) if kind == "tmask" else item
            want = tuple(shape[dim:dim + mask.ndim])
            if mask.shape != want:
                if kind == "tmask":
                    raise user_error(ShapeError, f"The shape of index {list(mask.shape)} does "
                                                 f"not match the shape of the indexed data "
                                                 f"{list(shape)} at dim index {dim}")
                raise _index_error(f"dimension is {want[0] if want else 0} but corresponding "
                                   f"boolean dimension is {mask.shape[0]}")
            for axis_idx in np.nonzero(mask):
                c = _const_array(axis_idx, dim, 1 << 62, self.setitem)
                spec.append(c if isinstance(c, tuple) else self.dynamic(jnp.asarray(c)))


def _flat(seq):
    for x in seq:
        if isinstance(x, (list, tuple)):
            yield from _flat(x)
        else:
            yield x


def _unwrap(seq):
    return [(_unwrap(x) if isinstance(x, (list, tuple)) else
             x._data if isinstance(x, Tensor) else x) for x in seq]


def _concrete_mask(t):
    data = t._data
    if isinstance(data, Tracer):
        raise user_error(
            ConcretizationError,
            "Indexing with a boolean Tensor selects a number of elements that depends on the "
            "mask's values, so it can only run eagerly (PyNative), not inside a captured graph.",
            hint="keep shapes static: use ops.masked_fill / ops.where(mask, x, y), or "
                 "`x[mask] = scalar`, which stays a graph operation.")
    return np.asarray(data)


def normalise(index, shape, setitem=False):
    """``(spec, arrays)``: the static description of ``index`` and its dynamic arrays.

    Indices made only of ints, bools, slices of ints, None, Ellipsis and lists or
    tuples of those have no dynamic arrays; their spec is cached per shape."""
    key = _key(index)
    if key is None:
        return _Normaliser(tuple(shape), setitem).run(index)
    ck = (key, tuple(shape), setitem)
    spec = _CACHE.get(ck)
    if spec is not None:
        return spec, ()
    spec, arrays = _Normaliser(tuple(shape), setitem).run(index)
    if not arrays:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[ck] = spec
    return spec, arrays


_CACHE: dict = {}
_CACHE_SIZE = 4096
_NONE_T, _ELL_T = type(None), type(Ellipsis)


def _key(index):
    """A hashable key for an index without Tensors or arrays, else None."""
    t = type(index)
    if t is int or t is _NONE_T or t is _ELL_T:
        return index
    if t is slice:
        a, b, c = index.start, index.stop, index.step
        if type(a) in (int, _NONE_T) and type(b) in (int, _NONE_T) and type(c) in (int, _NONE_T):
            return ("s", a, b, c)
        return None
    if t is bool:
        return ("b", index)
    if t is tuple or t is list:
        keys = [_key(i) for i in index]
        if any(k is None and i is not None for k, i in zip(keys, index)):
            return None
        return ("t" if t is tuple else "l", *keys)
    return None


def _build(spec, arrays):
    out = []
    for s in spec:
        if type(s) is tuple:
            tag = s[0]
            if tag == "s":
                out.append(slice(s[1], s[2], s[3]))
            elif tag == "a":
                out.append(arrays[s[1]])
            else:
                out.append(np.asarray(s[2], np.int64).reshape(s[1]))
        else:
            out.append(s)
    return tuple(out)


# --------------------------------------------------------------- execution
@functools.partial(jax.jit, static_argnums=(1,), inline=True)
def _get(data, spec, *arrays):
    return data[_build(spec, arrays)]


@functools.partial(jax.jit, static_argnums=(1,), inline=True)
def _set(data, spec, value, *arrays):
    index = _build(spec, arrays)
    target = jax.eval_shape(lambda d, *a: d[_build(spec, a)], data, *arrays).shape
    value = jnp.asarray(value)
    _check_fits(value.shape, target)
    return data.at[index].set(_cast(value, data.dtype))


@functools.partial(jax.jit, inline=True)
def _set_where(data, mask, value):
    value = _cast(jnp.asarray(value), data.dtype).reshape(())
    mask = mask.reshape(mask.shape + (1,) * (data.ndim - mask.ndim))
    return jnp.where(mask, value, data)


def _cast(value, np_dtype):
    """``value`` as ``np_dtype`` with MindSpore's casts (-1.5 into uint8 is 255)."""
    return cast_array(value, mstype.from_np(np_dtype))


def _check_fits(vshape, target):
    ok = len(vshape) <= len(target)
    if ok:
        try:
            ok = np.broadcast_shapes(vshape, target) == tuple(target)
        except ValueError:
            ok = False
    if not ok:
        raise user_error(ShapeError, f"For '__setitem__', the value of shape {tuple(vshape)} "
                                     f"cannot be broadcast to the shape of the selection "
                                     f"{tuple(target)}.")


def tensor_getitem(self, index):
    """``self[index]``."""
    data = self._data
    spec, arrays = normalise(index, data.shape)
    return wrap(_get(data, spec, *arrays))


def _value_data(value):
    if isinstance(value, Tensor):
        return value._data
    if isinstance(value, _SCALARS) or isinstance(value, (np.ndarray, np.generic)):
        return value
    if isinstance(value, (list, tuple)):
        if any(isinstance(x, Tensor) for x in _flat(value)):
            return jnp.asarray(_unwrap(list(value)))
        return np.asarray(value)
    raise user_error(TypeError, "only support numbers, Tensor, tuple, list as value, but got "
                                f"{value!r} with type {type(value)}")


def _mask_only(index, shape):
    """The bool Tensor when ``index`` is one mask over the leading dims, else None."""
    if type(index) is tuple and len(index) == 1:
        index = index[0]
    if (isinstance(index, Tensor) and index._data.dtype == np.bool_ and index._data.ndim
            and tuple(index._data.shape) == tuple(shape[:index._data.ndim])):
        return index._data
    return None


def tensor_setitem(self, index, value):
    """``self[index] = value``: updates this Tensor (or Parameter) in place."""
    data = self._data
    value = _value_data(value)
    if index is False:  # selects nothing (MindSpore assigns nothing; reading x[False] raises)
        return
    mask = _mask_only(index, data.shape)
    if mask is not None and np.size(value) == 1:
        self._data = _set_where(data, mask, value)
        return
    spec, arrays = normalise(index, data.shape, setitem=True)
    self._data = _set(data, spec, value, *arrays)
