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
- A path may itself leave an ``Aliased`` (an inner ``if`` chose the object):
  its choice is made by conditions traced inside the path, so they cannot be
  read after the ``cond``. ``nested_keys`` finds such variables, and the
  ``cond`` is traced again with one boolean output per (variable, object):
  whether the path that ran left that object there (``path_flags``).
- A graph ``while`` loop that rebinds a variable holding an existing Tensor:
  the variable is that Tensor until an iteration rebinds it (zero
  iterations leave it so), and an iteration may leave another existing
  Tensor in it. The loop carries one boolean per (variable, Tensor) pair
  (``loop_keys``, found by tracing the body; ``path_flags`` at its end), and
  the variable is an ``Aliased`` of those Tensors, in the body and after the
  loop (``keep_identity``).
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor

_new = object.__new__


class PathValue(Tensor):
    """A watched Tensor as one path of a graph ``if`` left it (see the module doc).

    ``origin``: the pre-existing Tensor the path left, or None; ``choices``:
    for an ``Aliased`` the path made, ``(tensor, flag)`` for each pre-existing
    Tensor it may be, ``flag`` the path's scalar boolean that it is that one."""

    __slots__ = ("origin", "choices")


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
        out.choices = () if origin is not None else tuple(
            (t, jnp.logical_not(pred) if negate else jnp.asarray(pred, bool))
            for t, pred, negate, _ in v._links if id(t) in ids or isinstance(t, Parameter))
        return out
    cls = type(v)
    if cls is tuple or cls is list:
        return cls(_freeze(x, ids) for x in v)
    return v


def origin(value):
    """The pre-existing Tensor a path left in a variable, or None."""
    return value.origin if type(value) is PathValue else None


def _left(value):
    """``((tensor, flag), ...)``: the pre-existing Tensors a path left a variable
    as, each with the path's flag that it is that one (True for its origin)."""
    if type(value) is not PathValue:
        return ()
    return ((value.origin, True),) if value.origin is not None else value.choices


def nested_keys(observed):
    """``[(variable index, Tensor)]`` for each variable some path left as a choice
    made inside it, with every pre-existing Tensor any path left there."""
    keys = []
    first = next(iter(observed.values()), None)
    for i in range(len(first.values) if first is not None else 0):
        vals = [r.values[i] for r in observed.values()]
        if not any(type(v) is PathValue and v.choices for v in vals):
            continue
        seen = set()
        for v in vals:
            for t, _ in _left(v):
                if id(t) not in seen:
                    seen.add(id(t))
                    keys.append((i, t))
    return keys


def path_flags(values, keys):
    """For each ``(i, tensor)`` of ``keys``: does this path leave ``tensor`` in
    variable ``i`` (a scalar boolean)."""
    return tuple(jnp.asarray(next((f for c, f in _left(values[i]) if c is t), False), bool)
                 for i, t in keys)


def same_keys(a, b) -> bool:
    """Whether two key lists name the same (variable, Tensor) pairs, in order."""
    return [(i, id(t)) for i, t in a] == [(i, id(t)) for i, t in b]


def split_flags(flat, n):
    """A ``cond``'s outputs or a loop's carry without, and with, its ``n`` identity
    flags (``path_flags``, always last)."""
    return tuple(flat[:len(flat) - n]), tuple(flat[len(flat) - n:])


def loop_keys(init, watched, values=None):
    """``[(i, tensor)]``: the loop's variables that hold one of the ``watched``
    Tensors before it, and (``values``: the variables as the body left them)
    the watched Tensors the body leaves in them. Parameters keep their own
    bookkeeping (the frames that record their writes)."""
    ids = {id(t) for t in watched}
    keys = [(i, v) for i, v in enumerate(init) if isinstance(v, Tensor) and id(v) in ids]
    seen = {(i, id(t)) for i, t in keys}
    for i, v in enumerate(values or ()):
        for t, _ in _left(v):
            if id(t) in ids and (i, id(t)) not in seen:
                seen.add((i, id(t)))
                keys.append((i, t))
    return keys


def keep_identity(values, keys, flags):
    """``values`` with each variable ``i`` that ``keys`` names an ``Aliased`` of the
    Tensors its ``(i, tensor)`` keys name, each where its flag holds (the flags
    of one variable exclude each other)."""
    links: dict = {}
    for (i, t), flag in zip(keys, flags):
        links.setdefault(i, []).append((t, flag, False))
    out = list(values)
    for i, these in links.items():
        v = out[i]
        if not isinstance(v, Tensor):
            continue
        these = [link for link in these if link[0] is not v and _fits(link[0]._data, v._data)]
        if these:
            out[i] = Aliased(v._data, these)
    return tuple(out)


def bind(values, observed, pred, keys=(), flags=()):
    """The variables after a graph ``if``, with the identities the paths kept.

    ``values``: the variables as ``Plan.unpack`` made them (new Tensors);
    ``observed``: ``{path: PathResult}`` of the paths that finished (path 1
    runs where ``pred`` holds); ``keys``/``flags``: ``nested_keys`` and the
    ``cond``'s outputs for them; returns the values to bind."""
    if not observed:
        return values
    out = list(keep_identity(values, keys, flags))
    nested = {i for i, _ in keys}
    for i, value in enumerate(values):
        if not isinstance(value, Tensor) or i in nested:
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
