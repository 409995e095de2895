"""The capture frame: Parameters as graph inputs and outputs during a capture.

While a function is captured, every Parameter it reads must be a graph input
(so the compiled graph reads the Parameter's value at call time, never a
stale constant) and every Parameter it writes a graph output. The frame is
created with the candidate Parameters already lifted to tracers; a read of
any other Parameter raises ``MissedParameter`` so the capture restarts with
it lifted. Parameters created during the capture (a Cell built inside the
function) are local constants of the graph and read directly.
"""
from __future__ import annotations

from msxla.common.parameter import next_serial
from msxla.common.state import StateFrame, current_frame, detach_written


class MissedParameter(Exception):
    """A Parameter read during capture was not lifted; capture again with it."""

    def __init__(self, param):
        super().__init__(param.name)
        self.param = param


class CaptureFrame(StateFrame):
    __slots__ = ("read_set", "first_serial", "leaves", "tensor_state")
    capturing = True

    def __init__(self, lifted, tensor_state=None):
        super().__init__(lifted)
        self.read_set = {}
        self.first_serial = next_serial()
        self.leaves = dict(self.values)  # each lifted Parameter's graph input
        self.tensor_state = tensor_state  # plain Tensors from outside (tensor_state.Lifted)

    def read(self, param):
        try:
            value = self.values[param]
        except KeyError:
            return self.read_missing(param)
        if param not in self.written:
            self.read_set[param] = None
        return value

    def read_missing(self, param):
        if param._serial >= self.first_serial:  # created inside the captured function
            return param._value
        raise MissedParameter(param)

    def write(self, param, value):
        if param._serial >= self.first_serial:
            param._value = value  # a local Parameter: its value lives in the graph only
            return
        # differentiated like PyNative: see msxla.common.state.detach_written
        self.values[param] = detach_written(value, self.leaves.get(param))
        self.written[param] = None


def outside_tensors_now() -> list:
    """The plain Tensors from outside the function being captured on this thread
    (lifted as state, or baked in): graph branches and loops watch them."""
    frame = current_frame()
    while frame is not None:
        if isinstance(frame, CaptureFrame):
            return frame.tensor_state.tensors() if frame.tensor_state is not None else []
        frame = frame.parent
    return []
