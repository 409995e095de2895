"""Which Tensor *object* a variable holds after a graph ``if``.

In Python a variable names an object: after

    t = x if b.mean() > 0 else b      # or an if statement that rebinds t
    t.add_(10.0)

``t`` *is* ``x`` or ``b``, and the in-place op changes the caller's Tensor.
A ``lax.cond`` only returns values, so the converted code would bind ``t`` to
a new Tensor and the write would be lost. This module keeps the identity:

- ``freeze`` (run at the end of each path, before the path's in-place
  changes are undone) replaces every watched Tensor (and Parameter) in the
  path's variables by a ``PathValue``: its data at the end of the path and
  the object it was.
- ``bind`` (after the ``cond``) looks at the object each path left in each
  variable. When every path left the same pre-existing object, the variable
  is that object again. When some paths did, the variable is an ``Aliased``
  Tensor: it reads as the object chosen by the condition that ran, and a
  write to it goes to that object (``where(mask, new, old)``), as in Python.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor

_new = object.__new__


class PathValue(Tensor):
    """A watched Tensor as one path of a graph ``if`` left it (see the module doc)."""

    __slots__ = ("origin",)


class Aliased(Tensor):
    """A Tensor that is one of several existing Tensors, chosen at run time.

    ``links`` holds ``[tensor, pred, negate, synced]``: the variable is
    ``tensor`` where the scalar boolean ``pred`` holds (or does not, with
    ``negate``; the links exclude each other), elsewhere its own value
    ``own``. ``synced`` is the linked Tensor's value when both were last known
    equal under the mask: while it is unchanged a read is just ``own`` (no
    select in the graph)."""

    __slots__ = ("_own", "_links")

    def __init__(self, own, links):  # noqa: D107 - internal, never a user Tensor
        self._own = own
        self._links = [[t, pred, negate, t._data] for t, pred, negate in links]

    @property
    def links(self):
        return [link[0] for link in self._links]

    @property
    def _data(self):
        value = self._own
        for t, pred, negate, synced in reversed(self._links):
            data = t._data
            if data is not synced and _fits(data, value):
                value = jnp.where(pred, value, data) if negate else jnp.where(pred, data, value)
        return value

    @_data.setter
    def _data(self, value):
        for link in self._links:
            t, pred, negate, _ = link
            old = t._data
            if _fits(old, value):
                new = value.astype(old.dtype)
                t._data = jnp.where(pred, old, new) if negate else jnp.where(pred, new, old)
            link[3] = t._data
        self._own = value

    def sync(self, own):
        """Take ``own`` as the value, consistent with the linked Tensors' values now."""
        self._own = own
        for link in self._links:
            link[3] = link[0]._data


def set_data(tensor, data):
    """Set a watched Tensor's value as a construct hands it on: an ``Aliased`` gets
    ``data`` as its own value only (the Tensors it links to are watched too, come
    earlier in the watch, and get their own values first)."""
    if type(tensor) is Aliased:
        tensor.sync(data)
    else:
        tensor._data = data


def _fits(a, b) -> bool:
    return tuple(a.shape) == tuple(b.shape)


def freeze(values, tensors):
    """``values`` with each Tensor of ``tensors`` (and each Parameter) replaced by its
    ``PathValue``."""
    ids = {id(t): t for t in tensors}
    return tuple(_freeze(v, ids) for v in values)


def _freeze(v, ids):
    if isinstance(v, Tensor):
        origin = v if isinstance(v, Parameter) else ids.get(id(v))
        if origin is None and type(v) is not Aliased:
            return v
        out = _new(PathValue)  # read now: an Aliased computes its value in this trace
        out._data = v._data
        out.origin = origin
        return out
    cls = type(v)
    if cls is tuple or cls is list:
        return cls(_freeze(x, ids) for x in v)
    return v


def origin(value):
    """The pre-existing Tensor a path left in a variable, or None."""
    return value.origin if type(value) is PathValue else None


def bind(values, observed, pred):
    """The variables after a graph ``if``, with the identities the paths kept.

    ``values``: the variables as ``Plan.unpack`` made them (new Tensors);
    ``observed``: ``{path: PathResult}`` of the paths that finished (path 1
    runs where ``pred`` holds); returns the values to bind."""
    if not observed:
        return values
    out = list(values)
    for i, value in enumerate(values):
        if not isinstance(value, Tensor):
            continue
        origins = {k: origin(r.values[i]) for k, r in observed.items()}
        if all(o is None for o in origins.values()):
            continue
        first = next(iter(origins.values()))
        if all(o is first for o in origins.values()):
            out[i] = first
            continue
        links = []
        for k, o in origins.items():
            if o is not None and _fits(o._data, value._data):
                links.append((o, pred, k == 0))
        if links:
            out[i] = Aliased(value._data, links)
    return tuple(out)
