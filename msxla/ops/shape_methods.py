"""Tensor methods of the shape family whose forms differ from the functional ops.

MindSpore's Tensor methods accept several overloads (``x.reshape(2, 3)`` and
``x.reshape((2, 3))``; ``x.transpose(0, 2)`` swaps two dims while
``x.transpose(2, 0, 1)`` permutes; ``x.flatten()`` starts at dim 0 where
``ops.flatten`` starts at 1). Each adapter here resolves the overload and
calls the op row's public function.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.tensor import wrap
from msxla.ops._shape_util import as_shape, varargs_shape
from msxla.ops.shape import broadcast_to, flatten, permute, reshape, squeeze, transpose
from msxla.ops.shape_diag import diag, diag_embed, diagonal, trace_along
from msxla.ops.shape_join import chunk, split, unbind
from msxla.ops.shape_tile import flip, narrow, repeat_interleave, roll, tile
from msxla.ops.surface import exports, tensor_method


def _reshape(self, *shape, **kwargs):
    return reshape(self, varargs_shape(shape, kwargs))


def _view(self, *shape, **kwargs):
    if len(shape) == 1 and isinstance(shape[0], mstype.Type) or "dtype" in kwargs:
        return _view_dtype(self, kwargs.get("dtype", shape[0] if shape else None))
    return reshape(self, varargs_shape(shape, kwargs))


def _view_dtype(x, dtype):
    """The bytes of ``x`` read as ``dtype``; the last axis scales by the size ratio."""
    src, dst = x.dtype.np_dtype, mstype.to_ms(dtype).np_dtype
    data = x._data
    if src.itemsize == dst.itemsize:
        return wrap(jax.lax.bitcast_convert_type(data, dst))
    if src.itemsize > dst.itemsize:
        out = jax.lax.bitcast_convert_type(data, dst)
        return wrap(out.reshape(data.shape[:-1] + (-1,)))
    ratio = dst.itemsize // src.itemsize
    if data.ndim == 0 or data.shape[-1] % ratio:
        raise ValueError(f"For 'ViewDtype', the last dimension must be divisible by {ratio} to "
                         f"view {x.dtype} as {mstype.to_ms(dtype)}, but got shape "
                         f"{tuple(data.shape)}.")
    grouped = data.reshape(data.shape[:-1] + (data.shape[-1] // ratio, ratio))
    return wrap(jax.lax.bitcast_convert_type(grouped, dst))


def _view_as(self, other):
    return reshape(self, other.shape)


def _resize(self, *new_shape):
    """numpy's resize: the flattened elements, truncated or padded with zeros."""
    shape = as_shape(varargs_shape(new_shape))
    flat = reshape(self, (-1,))
    n = math.prod(shape)
    data = flat._data[:n]
    if data.shape[0] < n:
        data = jnp.concatenate([data, jnp.zeros((n - data.shape[0],), data.dtype)])
    return reshape(wrap(data), shape)


def _transpose(self, *axes, **kwargs):
    if "dim0" in kwargs or "dim1" in kwargs:
        axes = axes + (kwargs.pop("dim0"), kwargs.pop("dim1"))[len(axes):]
    if kwargs:
        raise TypeError(f"Tensor.transpose() got an unexpected keyword argument "
                        f"'{next(iter(kwargs))}'")
    ndim = self.ndim
    if not axes or (len(axes) == 1 and axes[0] is None):
        return transpose(self, tuple(reversed(range(ndim))))
    if len(axes) == 1:
        return transpose(self, axes[0])
    if len(axes) == 2 and all(isinstance(a, int) for a in axes):
        if not all(-ndim <= v < ndim for v in axes):
            raise ValueError(f"For 'Tensor.transpose', dim0 and dim1 must be in range "
                             f"[{-ndim}, {ndim}), but got {axes}.")
        a, b = (v % ndim for v in axes)
        perm = list(range(ndim))
        perm[a], perm[b] = perm[b], perm[a]
        return transpose(self, tuple(perm))
    return transpose(self, axes)


def _permute(self, *dims, **kwargs):
    return permute(self, varargs_shape(dims, kwargs, "dims"))


def _squeeze(self, *axis, **kwargs):
    if "axis" in kwargs:
        return squeeze(self, kwargs["axis"])
    if not axis:
        return squeeze(self)
    return squeeze(self, axis[0] if len(axis) == 1 else axis)


def _flatten(self, *args, **kwargs):
    if args and isinstance(args[0], str) or "order" in kwargs:
        order = args[0] if args else kwargs.pop("order")
        return flatten(self, order, start_dim=kwargs.get("start_dim", 0),
                       end_dim=kwargs.get("end_dim", -1))
    names = ("start_dim", "end_dim")
    values = {"start_dim": 0, "end_dim": -1}
    values.update(zip(names, args))
    values.update(kwargs)
    return flatten(self, "C", start_dim=values["start_dim"], end_dim=values["end_dim"])


def _axis_kw(kwargs, default=0):
    return kwargs.get("dim", kwargs.get("axis", default))


def _split(self, split_size_or_sections=None, *args, **kwargs):
    if split_size_or_sections is None:
        split_size_or_sections = kwargs.pop("split_size", kwargs.pop("split_size_or_sections",
                                                                     None))
    axis = args[0] if args else _axis_kw(kwargs)
    return split(self, split_size_or_sections, axis)


def _chunk(self, chunks, *args, **kwargs):
    return chunk(self, chunks, args[0] if args else _axis_kw(kwargs))


def _unbind(self, dim=0):
    return unbind(self, dim)


def _tile(self, *dims, **kwargs):
    if "reps" in kwargs:
        kwargs["dims"] = kwargs.pop("reps")
    return tile(self, varargs_shape(dims, kwargs, "dims"))


def _repeat(self, *repeats, **kwargs):
    """Tile ``self`` ``repeats[i]`` times along dim i (``repeats`` may add leading dims)."""
    reps = as_shape(varargs_shape(repeats, kwargs, "repeats"))
    if len(reps) < self.ndim:
        raise ValueError(f"For 'Tensor.repeat', the number of repeats ({len(reps)}) must not "
                         f"be less than the number of dimensions ({self.ndim}).")
    x = reshape(self, (1,) * (len(reps) - self.ndim) + self.shape)
    return tile(x, reps)


def _repeat_interleave(self, repeats, dim=None, *, output_size=None, axis=None):
    return repeat_interleave(self, repeats, dim if dim is not None else axis)


def _broadcast_to(self, *shape, **kwargs):
    return broadcast_to(self, varargs_shape(shape, kwargs, "shape"))


def _expand(self, *size, **kwargs):
    return broadcast_to(self, varargs_shape(size, kwargs, "size"))


def _expand_as(self, other=None, **kwargs):
    other = other if other is not None else kwargs.get("x")
    return broadcast_to(self, other.shape)


def _flip(self, dims):
    return flip(self, dims)


def _roll(self, shifts, dims=None):
    return roll(self, shifts, dims)


def _narrow(self, dim=None, start=None, length=None, *, axis=None):
    return narrow(self, dim if dim is not None else axis, start, length)


def _diag(self, diagonal=0):
    if diagonal == 0:
        return diag(self)
    if self.ndim == 1:
        return diag_embed(self, diagonal)
    if self.ndim == 2:
        return diagonal_(self, diagonal, 0, 1)
    raise ValueError(f"For 'Tensor.diag', the input must be 1-D or 2-D, but got {self.ndim}-D.")


diagonal_ = diagonal


def _diagonal(self, offset=0, axis1=0, axis2=1, *, dim1=None, dim2=None):
    return diagonal(self, offset, axis1 if dim1 is None else dim1,
                    axis2 if dim2 is None else dim2)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    return trace_along(self, offset, axis1, axis2, dtype)


def _t(self):
    return transpose(self, tuple(reversed(range(self.ndim))))


def _mt(self):
    if self.ndim < 2:
        raise ValueError(f"For 'Tensor.mT', the input must have at least 2 dimensions, but got "
                         f"{self.ndim}.")
    perm = tuple(range(self.ndim - 2)) + (self.ndim - 1, self.ndim - 2)
    return transpose(self, perm)


def _h(self):
    out = _t(self)
    if mstype.category(self.dtype) == 3:
        return wrap(jnp.conj(out._data))
    return out


def _dim(self):
    return len(self.shape)


def _numel(self):
    return math.prod(self.shape)


_METHODS = {
    "reshape": _reshape, "view": _view, "view_as": _view_as, "resize": _resize,
    "transpose": _transpose, "permute": _permute, "squeeze": _squeeze, "flatten": _flatten,
    "split": _split, "chunk": _chunk, "unbind": _unbind, "tile": _tile, "repeat": _repeat,
    "repeat_interleave": _repeat_interleave, "broadcast_to": _broadcast_to, "expand": _expand,
    "expand_as": _expand_as, "flip": _flip, "roll": _roll, "narrow": _narrow, "diag": _diag,
    "diagonal": _diagonal, "trace": _trace, "dim": _dim, "ndimension": _dim,
    "numel": _numel, "nelement": _numel,
}
for _name, _fn in _METHODS.items():
    _fn.__name__ = _name
    tensor_method(_name, _fn)
tensor_method("T", _t, prop=True)
tensor_method("mT", _mt, prop=True)
tensor_method("H", _h, prop=True)


__all__ = exports(__name__)
