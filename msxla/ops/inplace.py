"""In-place Tensor methods (``x.add_(y)``, ``x.clamp_(0, 1)``, ``x.zero_()``, ...).

Each runs the out-of-place op and writes the result into ``self`` (cast to
``self``'s dtype; the result must have ``self``'s shape), returning ``self``,
as MindSpore documents. The write goes through ``self._data``, so for a
Parameter it is a state write (a graph output under jit) and an argument
Tensor changed inside a jitted function is written back after the call.
(MindSpore 2.10's CPU build returns the new value without changing the
Tensor; msxla follows the documented behaviour.)
"""
from __future__ import annotations

import msxla.ops as ops
from msxla.common.tensor import Tensor
from msxla.errors import ShapeError, user_error
from msxla.ops._dispatch import cast_array
from msxla.ops.surface import METHODS, exports, tensor_method


def _store(self, out, name):
    data = out._data if isinstance(out, Tensor) else out
    if tuple(data.shape) != tuple(self._data.shape):
        raise user_error(ShapeError, f"For 'Tensor.{name}', the result has shape "
                         f"{tuple(data.shape)}, which is not the Tensor's shape "
                         f"{tuple(self._data.shape)}: an in-place op cannot change the shape.")
    self._data = cast_array(data, self.dtype)
    return self


def _method(name, compute):
    def method(self, *args, **kwargs):
        return _store(self, compute(self, *args, **kwargs), name)
    method.__name__ = name
    method.__doc__ = f"In-place ``{name[:-1]}``: writes the result into this Tensor."
    tensor_method(name, method)


def _add(self, other, *, alpha=1):
    return ops.add(self, other if alpha == 1 else other * alpha)


def _sub(self, other, *, alpha=1):
    return ops.sub(self, other if alpha == 1 else other * alpha)


def _fill(self, value):
    return ops.full_like(self, value) if not isinstance(value, Tensor) else \
        ops.broadcast_to(value.astype(self.dtype), self.shape)


def _copy(self, src, non_blocking=False):
    src = src if isinstance(src, Tensor) else Tensor(src)
    return ops.broadcast_to(src.astype(self.dtype), self.shape)


_SIMPLE = {
    "add_": _add,
    "sub_": _sub,
    "mul_": lambda self, value: ops.mul(self, value),
    "div_": lambda self, value, *, rounding_mode=None: ops.div(self, value,
                                                              rounding_mode=rounding_mode),
    "floor_divide_": lambda self, other: ops.floor_divide(self, other),
    "remainder_": lambda self, other: ops.remainder(self, other),
    "clamp_": lambda self, min=None, max=None: ops.clamp(self, min, max),
    "fill_": _fill,
    "zero_": lambda self: ops.zeros_like(self),
    "copy_": _copy,
    "exp_": lambda self: ops.exp(self),
    "log_": lambda self: ops.log(self),
    "floor_": lambda self: ops.floor(self),
    "sign_": lambda self: ops.sign(self),
    "tanh_": lambda self: ops.tanh(self),
    "erfinv_": lambda self: ops.erfinv(self),
    "masked_fill_": lambda self, mask, value: ops.masked_fill(self, mask, value),
    "index_fill_": lambda self, dim, index, value: ops.index_fill(self, dim, index, value),
    "index_add_": lambda self, dim, index, source, *, alpha=1: ops.index_add(
        self, dim, index, source if alpha == 1 else source * alpha),
    "scatter_add_": lambda self, dim, index, src: ops.scatter_add(self, dim, index, src),
    "addmm_": lambda self, mat1, mat2, *, beta=1, alpha=1: ops.addmm(
        self, mat1, mat2, beta=beta, alpha=alpha),
}

for _name, _compute in _SIMPLE.items():
    if _name not in METHODS or _name in ("add_", "sub_", "mul_", "div_"):
        _method(_name, _compute)


@tensor_method("requires_grad_")
def requires_grad_(self, requires_grad=True):
    """Set ``requires_grad`` (meaningful for Parameters); returns self."""
    if hasattr(self, "requires_grad") or requires_grad is not None:
        self.requires_grad = requires_grad
    return self



__all__ = exports(__name__)
