"""Shared capture-mode suite: plain Tensors from outside a jitted function (a
global, a closure variable, a Cell attribute) changed in place inside it are
graph state, as Parameters are: every call changes them as PyNative does, a
later read sees the new value, and no call captures again."""
import numpy as np
import pytest

from msxla import Tensor, nn, ops
from agree import Program, agree
from modes import any_modes, make

G = None          # rebound by each build
SCALE = None


def vec(*values):
    return Tensor(np.array(values, np.float32))


class Counter(nn.Cell):
    """A Cell with plain Tensor attributes it changes in place."""

    def __init__(self):
        super().__init__()
        self.t = vec(0.0, 0.0)
        self.hist = vec(0.0, 0.0, 0.0)

    def construct(self, x):
        self.t.add_(1)
        self.hist[1] = self.hist[1] + x.sum()
        return x * self.t


def outside_writes(x, cond, net):
    G.add_(1.0)                          # a method
    ops.assign(SCALE, SCALE * 2)         # a library op writing in place
    y = net(x)                           # a Cell's attributes
    if cond.sum() > 0:                   # inside a Tensor branch
        G[0] = G[0] + 10.0
    i = 0
    while cond.sum() > i:                # inside a graph loop
        i = i + 1
        SCALE.sub_(0.5)
    return x + G * SCALE + y


def build_outside_writes():
    global G, SCALE
    G, SCALE = vec(0.0, 1.0), vec(1.0, 1.0)
    net = Counter()
    x, pos, neg = vec(1.0, 2.0), vec(1.0, 1.0), vec(-1.0, -1.0)
    return Program(outside_writes, [(x, pos, net), (x, neg, net), (x, pos, net)],
                   {"G": lambda: G, "SCALE": lambda: SCALE, "net.t": net.t,
                    "net.hist": net.hist, "x": x})


@pytest.mark.parametrize("any_mode", any_modes(slow=("bytecode",)))
def test_outside_tensors_changed_in_place(any_mode):
    agree(any_mode, build_outside_writes, tensor_control=True)


BUF = None        # a tuple of Tensors, rebound by the build


class Holder(nn.Cell):
    """A Cell holding plain Tensors in a list and a dict attribute."""

    def __init__(self):
        super().__init__()
        self.ts = [vec(0.0, 0.0), vec(5.0, 5.0)]
        self.d = {"m": vec(1.0, 1.0)}

    def construct(self, x):
        self.ts[0].add_(x)
        self.d["m"][0] = self.d["m"][0] * 2
        BUF[1].sub_(1.0)
        if x.sum() > 0:
            self.ts[1].mul_(2.0)
        return self.ts[0] + self.ts[1] + self.d["m"] + BUF[0] + BUF[1]


def build_contained_writes():
    global BUF
    BUF = (vec(3.0, 3.0), vec(0.0, 0.0))
    net = Holder()
    pos, neg = vec(1.0, 1.0), vec(-1.0, -1.0)
    return Program(net, [(pos,), (neg,), (pos,)],
                   {"ts": lambda: list(net.ts), "d": lambda: dict(net.d),
                    "BUF": lambda: list(BUF)})


def test_tensors_in_containers_changed_in_place(any_mode):
    """Tensors held in a Cell's list or dict attribute, or in a global tuple, are
    graph state too when changed in place."""
    agree(any_mode, build_contained_writes, tensor_control=True)


def straight_writes(x):
    G.add_(1.0)
    G[1] = G[1] * 2
    return x + G


def build_straight_writes():
    global G
    G = vec(0.0, 1.0)
    x = vec(1.0, 2.0)
    return Program(straight_writes, [(x,)] * 3, {"G": lambda: G, "x": x})


def test_written_global_is_state_not_a_recompile(any_mode):
    agree(any_mode, build_straight_writes)
    global G
    G = vec(0.0, 1.0)
    fn = make(straight_writes, any_mode)
    for _ in range(3):
        fn(vec(1.0, 2.0))
    runner = fn if not hasattr(fn, "cell") else fn.cell.__dict__["_graph_runner"]
    assert runner.stats.captures == 1
    G.add_(100.0)  # changed between calls: the next call reads it
    np.testing.assert_allclose(fn(vec(1.0, 2.0)).asnumpy(), [105.0, 248.0])
    np.testing.assert_allclose(G.asnumpy(), [104.0, 246.0])


def test_closure_tensor_and_cell_attribute_read_after_outside_change(jit_mode):
    """Read-only outside Tensors stay baked in, and an in-place change between
    calls (eager) is seen by the next call."""
    c = vec(1.0, 1.0)
    net = Counter()

    def f(x):
        return x * c + net.t

    fn = make(f, jit_mode)
    np.testing.assert_allclose(fn(vec(1.0, 2.0)).asnumpy(), [1.0, 2.0])
    c.mul_(3.0)
    net.t[0] = 5.0
    np.testing.assert_allclose(fn(vec(1.0, 2.0)).asnumpy(), [8.0, 6.0])
