"""What one symbolic run of the interpreter keeps track of.

``Tracking`` is created for each capture of a graph (a whole function, or a
segment between graph breaks) and thrown away with it:

- *fresh* objects: created by the code being captured (``BUILD_LIST``, a
  constructor call, ``MAKE_FUNCTION``, ``MAKE_CELL``). Mutating them is part
  of the capture; mutating anything else is a side effect, so a break;
- *lifted* objects: the copies of the live state the capture starts from
  (arguments, or the state after a break), mapped to their position in that
  state so the capture's end can refer back to the real objects;
- the guards of everything read from outside (``guards.GuardRecorder``);
- ``stop_at``: instruction offsets of the captured frame where this capture
  ends because a graph break was found there before (a capture that finds a
  break is restarted, so that nothing of the breaking instruction is staged).
"""
from __future__ import annotations

from jax.core import Tracer

from msxla.capture.bytecode.guards import GuardRecorder
from msxla.capture.frame import outside_tensors_now
from msxla.common.tensor import Tensor


class Tracking:
    def __init__(self, stop_at=frozenset(), fullgraph=False):
        self.fresh: dict = {}
        self.lifted: dict = {}        # id(lifted object) -> index in the input state
        self.inputs: dict = {}        # id(real input object) -> index in the input state
        self.arguments: dict = {}     # id -> containers rebuilt from the call's arguments
        self.external: dict = {}      # id -> object read from outside (globals, attributes)
        self.keep: list = []          # keeps lifted/fresh objects alive while ids are used
        self.guards = GuardRecorder()
        self.stop_at = stop_at
        self.fullgraph = fullgraph
        self.instructions = 0

    def mark_fresh(self, obj):
        self.fresh[id(obj)] = obj
        return obj

    def saw_external(self, obj):
        """``obj`` was read from an object the capture did not make or lift (a global, a
        closure variable, an attribute, an item). A Tensor holding a value of this graph
        is not outside state even so (an item of a tuple the code built, of a library
        call's result): only one from outside lifted as graph state is."""
        if isinstance(obj, Tensor) and isinstance(obj._data, Tracer) and \
                not any(t is obj for t in outside_tensors_now()):
            return obj
        self.external[id(obj)] = obj
        return obj

    def mark_arguments(self, values):
        """The lists, tuples and dicts of the call's arguments, rebuilt from the
        signature for this capture: their contents are graph inputs, guarded by the
        signature, not outside state (but writes to them would not reach the caller's
        objects, so they are not fresh)."""
        for value in values:
            if type(value) in (list, tuple, dict):
                self.arguments[id(value)] = value
                self.mark_arguments(value.values() if type(value) is dict else value)

    def is_tracked(self, obj) -> bool:
        """Created by, or handed to, this capture (its contents are not outside state)."""
        key = id(obj)
        return key in self.fresh or key in self.lifted or key in self.arguments

    def may_mutate(self, obj) -> bool:
        """Whether the captured code may mutate ``obj`` without a break."""
        from msxla.common.tensor import Tensor
        if id(obj) in self.fresh:
            return True
        if isinstance(obj, Tensor):  # a graph value: in-place writes are tracked by the graph
            return isinstance(obj._data, Tracer)
        return False

    def outside_tensor_write(self, obj):
        """A write in place to a plain Tensor read from outside (a global, a closure
        variable, an attribute): it becomes graph state, so the capture restarts with it
        lifted (``msxla.capture.tensor_state``) instead of breaking the graph."""
        from msxla.capture.tensor_state import MissedTensorState
        from msxla.common.parameter import Parameter
        from msxla.common.tensor import Tensor
        if isinstance(obj, Tensor) and not isinstance(obj, Parameter) and \
                id(obj) in self.external and not isinstance(obj._data, Tracer):
            raise MissedTensorState(obj, self.guards.tensor_source(obj))

    def lift(self, obj, index):
        self.lifted[id(obj)] = index
        self.keep.append(obj)
