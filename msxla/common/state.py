"""Parameter state frames: how jit and grad see Parameter reads and writes.

A Parameter's value is read and written through ``Parameter._data``. With no
frame active (plain PyNative) that is the stored array. Inside a frame (a jit
capture, or a function being differentiated) reads and writes go to the
innermost frame instead, so the function becomes *functional*: the frame
knows which Parameters were read and the new values of those written, in
program order, and its owner turns them into graph inputs and outputs.

Frames are per thread: eager code on another thread never sees a tracer.
"""
from __future__ import annotations

import threading

import jax


class _Local(threading.local):
    frame = None


_local = _Local()


def current_frame():
    return _local.frame


def is_capturing() -> bool:
    """True while a graph is being captured on this thread (print is staged)."""
    frame = _local.frame
    while frame is not None:
        if frame.capturing:
            return True
        frame = frame.parent
    return False


class StateFrame:
    """A scope that owns the values Parameters have inside it.

    ``values`` maps a Parameter to its value in this frame (a jax array or
    tracer); ``written`` lists the Parameters written here, first write first.
    Reads of Parameters this frame does not hold fall through to the parent
    frame, or to the Parameter's stored value at the outermost level.
    """

    __slots__ = ("parent", "values", "written")
    capturing = False  # True for frames that build a graph (jit capture)

    def __init__(self, values=None):
        self.parent = None
        self.values = {} if values is None else dict(values)
        self.written = {}

    def read(self, param):
        try:
            return self.values[param]
        except KeyError:
            return self.read_missing(param)

    def read_missing(self, param):
        return param._value if self.parent is None else self.parent.read(param)

    def write(self, param, value):
        self.values[param] = value
        self.written[param] = None

    def __enter__(self):
        self.parent = _local.frame
        _local.frame = self
        return self

    def __exit__(self, *exc):
        _local.frame = self.parent
        return False

    def written_values(self):
        """``(params, values)`` of what was written in this frame, in write order."""
        params = list(self.written)
        return params, [self.values[p] for p in params]


class WriteThrough:
    """Suspend every frame (e.g. to write final values back to Parameters)."""

    __slots__ = ("_saved",)

    def __enter__(self):
        self._saved = _local.frame
        _local.frame = None

    def __exit__(self, *exc):
        _local.frame = self._saved
        return False


def detach_written(value, leaf):
    """A value written to a Parameter, as later reads see it when differentiating.

    As in MindSpore, a value written to a Parameter (``ops.assign``, ``set_data``)
    carries no gradient back to what it was computed from; a later read of the
    Parameter differentiates with respect to the Parameter itself (``leaf``, its
    value when the frame began), when there is one. The value is unchanged."""
    if leaf is not None and leaf.shape == value.shape and leaf.dtype == value.dtype:
        return _rebind(value, leaf)
    return jax.lax.stop_gradient(value)


@jax.custom_jvp
def _rebind(new, leaf):
    """``new``'s value with ``leaf``'s derivative."""
    return new


@_rebind.defjvp
def _rebind_jvp(primals, tangents):
    return primals[0], tangents[1]
