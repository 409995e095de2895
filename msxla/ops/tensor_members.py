"""Tensor members that are not ops: dtype shorthands, layout queries, ``t``, ``select``.

MindSpore 2.10's Tensor carries torch-style shorthands that scripts use
(``x.float()``, ``x.long()``, ``x.type_as(y)``, ``x.t()``, ``x.contiguous()``,
``x.stride()``, ``x.sum_to_size(1, 3)``). Each is a row of the method table
(``msxla.ops.surface.tensor_method``) written over existing op rows. A
jax array is always one dense, row-major buffer: ``contiguous`` is the
Tensor itself, ``stride`` is the row-major stride in elements and
``storage_offset`` is 0, as they are for every MindSpore Tensor not made by
a view op.
"""
from __future__ import annotations

import math

import jax

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor, wrap
from msxla.ops.reduction import sum as _sum
from msxla.ops.shape import reshape, swapaxes, transpose
from msxla.ops._shape_util import varargs_shape
from msxla.ops.indexing import select as _select_where
from msxla.ops.surface import exports, tensor_method

_SHORTHANDS = {
    "float": mstype.float32, "double": mstype.float64, "half": mstype.float16,
    "bfloat16": mstype.bfloat16, "int": mstype.int32, "long": mstype.int64,
    "short": mstype.int16, "byte": mstype.uint8, "bool": mstype.bool_,
}


def _shorthand(name, dtype):
    def method(self):
        return self.astype(dtype)
    method.__name__ = name
    method.__doc__ = f"This Tensor cast to ``{dtype}`` (``Tensor.{name}()``)."
    tensor_method(name, method)


for _name, _dtype in _SHORTHANDS.items():
    _shorthand(_name, _dtype)


@tensor_method("type")
def _type(self, dtype=None):
    """Without ``dtype``: the dtype's name (``'Float32'``); with it: this Tensor cast."""
    if dtype is None:
        return str(self.dtype)
    return self.astype(dtype)


@tensor_method("type_as")
def _type_as(self, other):
    """This Tensor cast to ``other``'s dtype."""
    if not isinstance(other, Tensor):
        raise TypeError(f"For 'Tensor.type_as', 'other' must be a Tensor, but got "
                        f"{type(other).__name__}.")
    return self.astype(other.dtype)


@tensor_method("contiguous")
def _contiguous(self):
    """The Tensor itself: a jax array is always one dense row-major buffer."""
    return self


@tensor_method("is_contiguous")
def _is_contiguous(self):
    return True


@tensor_method("value")
def _value(self):
    """The Tensor itself (MindSpore returns its value, a Tensor)."""
    return self


@tensor_method("storage_offset")
def _storage_offset(self):
    return 0


@tensor_method("stride")
def _stride(self, dim=None):
    """Row-major strides in elements: a list, or one int for ``dim``."""
    out, acc = [], 1
    for d in reversed(self.shape):
        out.append(acc)
        acc *= d
    out.reverse()
    if dim is None:
        return out
    if not -len(out) <= dim < max(len(out), 1):
        raise IndexError(f"For 'Tensor.stride', dim {dim} is out of range for a Tensor of "
                         f"rank {len(out)}.")
    return out[dim]


@tensor_method("data_ptr")
def _data_ptr(self):
    """The address of the device buffer holding the value."""
    data = self._concrete("data_ptr")
    return data.unsafe_buffer_pointer()


@tensor_method("device", prop=True)
def _device(self):
    """``'CPU'`` or ``'GPU'``: the platform of the device holding the value."""
    data = self._data
    if isinstance(data, jax.Array) and not isinstance(data, jax.core.Tracer):
        platform = next(iter(data.devices())).platform
    else:
        platform = jax.default_backend()
    return {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU"}.get(platform,
                                                                          platform.upper())


@tensor_method("t")
def _t(self):
    """The transpose of a matrix; a 0-D or 1-D Tensor as it is."""
    if self.ndim > 2:
        raise ValueError(f"For 't', the input must be a Tensor of rank at most 2, but got rank "
                         f"{self.ndim}.")
    return transpose(self, (1, 0)) if self.ndim == 2 else self


@tensor_method("reshape_as")
def _reshape_as(self, other):
    return reshape(self, other.shape)


@tensor_method("sum_to_size")
def _sum_to_size(self, *size):
    """Sum over the leading dimensions and the dimensions of size 1 in ``size`` so that
    the result has shape ``size`` (the inverse of broadcasting to this shape)."""
    target = tuple(varargs_shape(size))
    have = self.shape
    ok = len(target) <= len(have) and all(
        t in (h, 1) for t, h in zip(target[::-1], have[::-1]))
    if not ok:
        raise ValueError(f"For sum_to_size, size {target} is not expandable to the tensor size "
                         f"{have}.")
    lead = len(have) - len(target)
    axes = tuple(range(lead)) + tuple(lead + i for i, t in enumerate(target)
                                      if t == 1 and have[lead + i] != 1)
    out = _sum(self, axes, True) if axes else self
    return reshape(out, target)


def _adjoint(self):
    """The conjugate transpose of the last two dimensions."""
    return swapaxes(self, -1, -2).conj()


tensor_method("adjoint", _adjoint)
tensor_method("mH", _adjoint, prop=True, origin="mH")


@tensor_method("itemset")
def _itemset(self, *args):
    """``x.itemset(i, v)`` / ``x.itemset((i, j), v)``: write one element (flat index or
    index tuple) in place; returns this Tensor."""
    if len(args) != 2:
        raise TypeError(f"For 'Tensor.itemset', expected (index, value), but got {len(args)} "
                        "arguments.")
    index, value = args
    data = self._data
    if isinstance(index, int):
        index = tuple(int(i) for i in _unravel(index, data.shape))
    value = value._data if isinstance(value, Tensor) else value
    self._data = data.at[tuple(index)].set(value)
    return self


def _unravel(flat, dims):
    size = math.prod(dims)
    if not -size <= flat < size:
        raise IndexError(f"index {flat} is out of bounds for size {size}")
    flat %= size
    out = []
    for d in reversed(dims):
        out.append(flat % d)
        flat //= d
    return reversed(out)


@tensor_method("select")
def _select(self, *args, **kwargs):
    """``x.select(dim, index)``: the slice at ``index`` along ``dim`` (that dimension
    removed); the older overload ``x.select(condition, y)`` is ``ops.select(condition, x, y)``."""
    names = ("dim", "index") if ("dim" in kwargs or "index" in kwargs or
                                 (args and isinstance(args[0], int)
                                  and not isinstance(args[0], bool))) else ("condition", "y")
    bound = dict(zip(names, args))
    bound.update(kwargs)
    if names[0] == "condition":
        return _select_where(bound["condition"], self, bound["y"])
    dim, index = bound["dim"], bound["index"]
    n = self.ndim
    if not -n <= dim < n:
        raise ValueError(f"Dimension out of range (expected to be in range of [{-n}, {n}), but "
                         f"got {dim})")
    size = self.shape[dim]
    index = int(index)
    if not -size <= index < size:
        raise ValueError(f"For Primitive [SelectExtView] start exceed range. start: {index}, "
                         f"start should be in [{-size}, {size}).")
    key = (slice(None),) * (dim % n) + (index % size,)
    return wrap(self._data[key])


@tensor_method("move_to")
def _move_to(self, to, blocking=True):
    """A copy on ``to`` (``'CPU'``, ``'GPU'``; ``'Ascend'`` keeps the host)."""
    if to not in ("CPU", "GPU", "Ascend"):
        raise ValueError(f"The value of arg 'to' of method 'move_to' must be CPU, GPU or "
                         f"Ascend, but got {to}.")
    platform = {"CPU": "cpu", "GPU": "gpu"}.get(to)
    if platform is None:
        return wrap(self._data)
    return wrap(jax.device_put(self._concrete("move_to"), jax.devices(platform)[0]))


@tensor_method("is_pinned")
def _is_pinned(self):
    return False


@tensor_method("is_shared")
def _is_shared(self):
    return False


__all__ = exports(__name__)
