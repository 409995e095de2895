"""Tensor methods of the indexing, scatter and sorting rows, and ``Tensor.__getitem__`` /
``__setitem__`` (installed here, once the op table they rely on is importable).

Methods whose MindSpore 2.10 signature differs from the functional one (two
overloads, renamed arguments, ``self`` not first) are adapters here.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from msxla.common import _indexing
from msxla.common.tensor import Tensor, wrap
from msxla.ops import indexing as I, sorting as O
from msxla.ops.scatter import (index_add_pure, scatter, tensor_scatter_add,
                               tensor_scatter_elements)
from msxla.ops.reduction_methods import _done, _pos, _take
from msxla.ops.surface import exports, tensor_method


def _index_select(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis")
    index = _pos(args, 1, kw, "index")
    _done("index_select", args, kw, 2)
    return I.index_select(self, axis, index)


def _scatter(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis")
    index = _pos(args, 1, kw, "index")
    src = _pos(args, 2, kw, "src", "value")
    reduce = _take(kw, "reduce")
    _done("scatter", args, kw, 3)
    if reduce is None:
        return scatter(self, axis, index, src)
    if reduce != "add":
        raise ValueError(f"For 'Tensor.scatter', 'reduce' must be 'add', but got {reduce!r}.")
    if not isinstance(src, Tensor):
        src = wrap(jnp.full(index.shape, src, self._data.dtype))
    return tensor_scatter_elements(self, index, src, axis, "add")


def _scatter_add(self, *args, **kw):
    if len(args) + len(kw) == 3:  # scatter_add(dim, index, src)
        dim = _pos(args, 0, kw, "dim")
        index = _pos(args, 1, kw, "index")
        src = _pos(args, 2, kw, "src")
        _done("scatter_add", args, kw, 3)
        return tensor_scatter_elements(self, index, src, dim, "add")
    indices = _pos(args, 0, kw, "indices")
    updates = _pos(args, 1, kw, "updates")
    _done("scatter_add", args, kw, 2)
    return tensor_scatter_add(self, indices, updates)


def _index_add(self, dim, index, source, *, alpha=1):
    if alpha != 1:
        source = source * alpha
    return index_add_pure(self, index, source, dim)


def _where(self, condition, y):
    return I.where(condition, self, y)


def _sort(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis", default=-1)
    descending = _pos(args, 1, kw, "descending", default=False)
    _take(kw, "stable")
    _done("sort", args, kw, 2)
    return O.sort(self, axis, descending)


def _argsort(self, *args, **kw):
    axis = _pos(args, 0, kw, "dim", "axis", default=-1)
    descending = _pos(args, 1, kw, "descending", default=False)
    _pos(args, 2, kw, "stable")
    _done("argsort", args, kw, 3)
    return O.argsort(self, axis, descending)


def _unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """Distinct values (sorted), with the inverse indices and counts on request."""
    from msxla.ops.indexing import eager_value
    arr = eager_value(self, "unique", "input")
    values, inverse, counts = np.unique(arr, return_inverse=True, return_counts=True,
                                        axis=dim)
    out = [wrap(jnp.asarray(values))]
    if return_inverse:
        out.append(wrap(jnp.asarray(inverse.reshape(arr.shape if dim is None else -1),
                                    jnp.int64)))
    if return_counts:
        out.append(wrap(jnp.asarray(counts, jnp.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def _searchsorted(self, v, side="left", sorter=None):
    return O.searchsorted(self, v, out_int32=True, side=side, sorter=sorter)


_METHODS = {
    "index_select": _index_select, "scatter": _scatter, "scatter_add": _scatter_add,
    "index_add": _index_add, "where": _where, "sort": _sort, "argsort": _argsort,
    "unique": _unique, "searchsorted": _searchsorted,
}
for _name, _fn in _METHODS.items():
    tensor_method(_name, _fn)
tensor_method("__getitem__", _indexing.tensor_getitem)
tensor_method("__setitem__", _indexing.tensor_setitem)


__all__ = exports(__name__)
