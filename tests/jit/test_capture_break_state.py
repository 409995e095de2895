"""Shared capture-mode suite: the live values that cross a graph break. A Tensor
the function computed and read back out of a tuple (one it built, or a
library call's result) is a graph value even so: after a Tensor condition
(a graph break under bytecode) it comes back as the value the piece before
computed, on every call, never as a Tensor left holding a value of a finished
capture."""
import numpy as np
import pytest

from msxla import Tensor, ops
from agree import Program, agree
from modes import any_modes


def vec(*values):
    return Tensor(np.array(values, np.float32))


def tuple_item_across_break(x, y):
    t = (x * 2.0, x)
    z = t[0] + 1.0
    if y.sum() > 0:
        z = z * 2
    return t[0] + z


def library_tuple_item_across_break(x, y):
    parts = ops.split(x, 2)
    first = parts[0] * 1.0
    if y.sum() > 0:
        first = first + parts[1]
    return first + parts[0] + parts[1]


def in_place_in_nested_loops(x, y):
    """``long_run.py --seed 2312``'s program, reduced: the pair the inner loop
    builds is live at the outer loop's Tensor condition."""
    k = 0
    while k < 2:
        b = x * 0.9
        if y.max() > 0.13:
            y = y - 1.0
        j = 0
        while j < 2:
            pair = (x, x)
            x = pair[0] * 0.5 + pair[1]
            b.mul_(0.5)
            j += 1
        k += 1
    return x - b, y


def every_case(x, y):
    return (tuple_item_across_break(x, y), library_tuple_item_across_break(x, y),
            in_place_in_nested_loops(x, y))


def build():
    x = vec(1.0, 2.0, 3.0, 4.0)
    pos, neg, big = vec(1.0, 1.0, 1.0, 1.0), vec(-1.0, -1.0, -1.0, -1.0), vec(3.0, 0, 0, 0)
    return Program(every_case, [(x, pos), (x, neg), (x, big)], {"x": x})


@pytest.mark.parametrize("any_mode", any_modes())
def test_graph_values_read_from_tuples_cross_a_break(any_mode):
    agree(any_mode, build, tensor_control=True)
