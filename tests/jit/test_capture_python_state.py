"""Shared capture-mode suite: Python state around a jitted function. A Cell's
list attribute changed in place between calls is seen; a list the function
only appends to (a global, or the caller's list argument) gets every call's
appends; a numpy argument handed back stays a numpy array."""
import numpy as np

from msxla import Tensor, nn
from agree import Program, agree

LOG = []


class Poly(nn.Cell):
    def __init__(self):
        super().__init__()
        self.coeffs = [1.0, 2.0]
        self.table = {"bias": 0.5}

    def construct(self, x):
        return x * self.coeffs[0] + self.coeffs[1] + self.table["bias"]


def build_list_attribute():
    net = Poly()
    x = Tensor(np.array([1.0, 2.0], np.float32))

    class Calls(list):  # changes the attributes in place between calls
        def __iter__(self):
            for i, args in enumerate(list.__iter__(self)):
                if i == 1:
                    net.coeffs[1] = 50.0
                if i == 2:
                    net.table["bias"] = -1.0
                yield args
    return Program(net, Calls([(x,)] * 3), {"x": x})


def test_cell_list_attribute_changed_in_place(any_mode):
    agree(any_mode, build_list_attribute)


def logging_step(x, a, seen):
    LOG.append("step")
    y = x * 2
    LOG.append(y + 1)
    LOG.append((3, "done"))
    seen.append(y.sum())          # the caller's list
    return y, a


def build_logging_step():
    LOG.clear()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    a, seen = np.arange(3.0), []
    return Program(logging_step, [(x, a, seen), (x * 2, a, seen), (x, a, seen)],
                   {"LOG": LOG, "a": a, "seen": seen})


def test_log_appends_every_call_and_numpy_stays_numpy(any_mode):
    agree(any_mode, build_logging_step)
