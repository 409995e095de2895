"""Shared capture-mode suite: a jitted function that rebinds a global, a Cell
attribute or a closure variable to a Tensor it computes (``G = G + x``,
``self.t = self.t + x``, ``nonlocal t; t = t * 2``) rebinds it on every call,
as PyNative does; the Tensor the name held before is left as it was, and no
Tensor of a finished capture is left behind."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn
from agree import Program, agree

G = None  # rebound by the build and by the function


def vec(*values):
    return Tensor(np.array(values, np.float32))


def rebind_global(x):
    global G
    G = G + x
    return G * 2


def build_global():
    global G
    G = vec(0.0, 1.0)
    old = G
    return Program(rebind_global, [(vec(1.0, 1.0),)] * 3, {"G": lambda: G, "old": old})


class Accumulate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = vec(0.0, 0.0)

    def construct(self, x):
        if x.sum() > 0:
            self.total = self.total + x
        return self.total * 1


def build_attribute():
    net = Accumulate()
    old = net.total
    pos, neg = vec(1.0, 2.0), vec(-1.0, -1.0)
    return Program(net, [(pos,), (neg,), (pos,)], {"total": lambda: net.total, "old": old})


def build_closure():
    t = vec(1.0, 1.0)

    def step(x):
        nonlocal t
        t = t * 2 + x
        return t + 0
    return Program(step, [(vec(1.0, 0.0),)] * 3, {"t": lambda: t})


@pytest.mark.parametrize("build", [build_global, build_closure])
def test_rebound_global_and_closure_variable(any_mode, build):
    agree(any_mode, build)


def test_rebound_cell_attribute(any_mode):
    agree(any_mode, build_attribute, tensor_control=True)


def test_rebinding_is_said_and_fullgraph_refuses_it():
    global G
    G = vec(0.0, 1.0)
    with pytest.raises(ms.errors.ConcretizationError, match="global 'G'"):
        ms.jit(rebind_global, capture_mode="ast", fullgraph=True)(vec(1.0, 1.0))
    np.testing.assert_allclose(G.asnumpy(), [0.0, 1.0])  # the capture left G as it was
