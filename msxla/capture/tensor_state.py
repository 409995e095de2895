"""Plain Tensors from outside a jitted function that it changes in place: graph state.

A Parameter is graph state by its type. A plain Tensor the function reaches
from outside (a global, a closure variable, a Cell attribute) and changes in
place (``G.add_(1.0)``, ``self.t[0] = 1``, ``ops.assign(G, v)``) must be
state too: PyNative changes it on every call. Such a Tensor is found when a
capture writes to it (its ``_data`` is then a tracer of the capture): the
write is undone and the capture restarts with the Tensor *lifted*, like a
Parameter the discovery missed. A lifted Tensor is a ``TensorState`` handle
in the graph's ``state_in`` / ``state_out``: the compiled graph takes its
value at call time and its new value is written back after the call; its
baked-in value guard is dropped (the graph no longer bakes it in).

During a capture the Tensor object itself holds the graph input (so every
read and write in user code, library code and graph branches sees it), and
its own value is restored when the capture ends, whatever happens.
"""
from __future__ import annotations

from msxla.capture.guards import TensorDataGuard


class TensorState:
    """A plain Tensor used as graph state (quacks like a Parameter for the jit layer)."""

    __slots__ = ("tensor", "name")

    def __init__(self, tensor, name):
        self.tensor = tensor
        self.name = name

    @property
    def _value(self):
        return self.tensor._data

    @_value.setter
    def _value(self, value):
        self.tensor._data = value

    _data = _value

    def __repr__(self):
        return f"<Tensor state {self.name}>"


class MissedTensorState(Exception):
    """A capture wrote to a plain Tensor from outside: capture again with it lifted."""

    def __init__(self, tensor, name):
        super().__init__(name)
        self.tensor, self.name = tensor, name


def add_candidate(candidates, missed: MissedTensorState):
    """Lift ``missed``'s Tensor in the next captures (``candidates`` is the jitted
    function's list of state candidates)."""
    if not any(type(c) is TensorState and c.tensor is missed.tensor for c in candidates):
        candidates.append(TensorState(missed.tensor, missed.name))


def split_state(candidates, values):
    """``({Parameter: value}, {TensorState: value})`` of the state inputs."""
    params, handles = {}, {}
    for c, v in zip(candidates, values):
        (handles if type(c) is TensorState else params)[c] = v
    return params, handles


def outside_tensors(guards):
    """``(tensor, source)`` of the plain Tensors a capture bakes in (their value guards)."""
    if guards is None:
        return []
    seen, out = set(), []
    for g in guards.guards:
        if isinstance(g, TensorDataGuard) and id(g.tensor) not in seen:
            seen.add(id(g.tensor))
            out.append((g.tensor, g.source[:-len("._data")]))
    return out


class Lifted:
    """The capture-time side of Tensor state (see the module doc).

    ``with Lifted(handles, inputs, outside):`` puts each handle's graph input
    in its Tensor; ``finish()`` (inside) gives the handles written and their
    new values; leaving restores every Tensor's own value and, if a Tensor of
    ``outside`` (not lifted) was written, raises ``MissedTensorState``."""

    def __init__(self, handles, inputs, outside):
        self.handles, self.inputs = list(handles), list(inputs)
        lifted = {id(h.tensor) for h in self.handles}
        self.outside = [(t, src) for t, src in outside if id(t) not in lifted]

    def __enter__(self):
        self.saved = [(h.tensor, h.tensor._data) for h in self.handles]
        self.saved += [(t, t._data) for t, _ in self.outside]
        for h, x in zip(self.handles, self.inputs):
            h.tensor._data = x
        return self

    def tensors(self):
        """The Tensors a graph branch or loop must watch for in-place changes."""
        return [t for t, _ in self.saved]

    def finish(self):
        """``(written handles, their values)``, in handle order."""
        written = [h for h, x in zip(self.handles, self.inputs) if h.tensor._data is not x]
        return written, [h.tensor._data for h in written]

    def __exit__(self, exc_type, exc, tb):
        n = len(self.handles)
        missed = [(t, src) for (t, data), (_, src) in zip(self.saved[n:], self.outside)
                  if t._data is not data]
        for t, data in self.saved:
            t._data = data
        if missed and (exc_type is None or not issubclass(exc_type, MissedTensorState)):
            raise MissedTensorState(*missed[0])
        return False


def drop_state_guards(guards, graph):
    """Remove the value guards of the Tensors ``graph`` takes as state."""
    ids = {id(h.tensor) for h in tuple(graph.state_in) + tuple(graph.state_out)
           if type(h) is TensorState}
    if ids and guards is not None:
        guards.guards = [g for g in guards.guards
                         if not (isinstance(g, TensorDataGuard) and id(g.tensor) in ids)]
    return guards
