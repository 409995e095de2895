"""Guards of capture_mode='bytecode': a changed global, closure variable, Cell
attribute, scalar argument or input shape recompiles when the captured code read it,
and only then; results always equal PyNative (MindSpore 2.10 misses a changed
global; msxla does not). The same holds for the pieces after a graph break."""
import logging

import numpy as np
from bc_helpers import bc, t

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

SCALE = 2.0
UNUSED = 1


def scaled(x):
    return x * SCALE


class Config:
    def __init__(self):
        self.bias = 1.0
        self.table = {"k": 3.0}


CFG = Config()


def configured(x):
    return x + CFG.bias + CFG.table["k"]


def calls(jitted):
    return jitted.stats.captures


def test_global_changes_recompile_only_when_read():
    global SCALE, UNUSED
    g = bc(scaled)
    assert g(t(1.0)).asnumpy().tolist() == [2.0]
    n = calls(g)
    UNUSED += 1  # not read by the function
    assert g(t(1.0)).asnumpy().tolist() == [2.0] and calls(g) == n
    SCALE = 5.0
    try:
        assert g(t(1.0)).asnumpy().tolist() == [5.0] and calls(g) == n + 1
        assert g(t(1.0)).asnumpy().tolist() == [5.0] and calls(g) == n + 1
    finally:
        SCALE = 2.0


def test_attributes_and_items_of_global_objects():
    g = bc(configured)
    assert g(t(0.0)).asnumpy().tolist() == [4.0]
    n = calls(g)
    CFG.bias = 10.0
    assert g(t(0.0)).asnumpy().tolist() == [13.0] and calls(g) == n + 1
    CFG.table["k"] = -1.0
    assert g(t(0.0)).asnumpy().tolist() == [9.0] and calls(g) == n + 2
    CFG.bias, CFG.table["k"] = 1.0, 3.0


def test_closure_variable():
    k = 1.0

    def f(x):
        return x * k
    g = bc(f)
    assert g(t(1.0)).asnumpy().tolist() == [1.0]
    n = calls(g)
    assert g(t(1.0)).asnumpy().tolist() == [1.0] and calls(g) == n
    k = 9.0
    assert g(t(1.0)).asnumpy().tolist() == [9.0] and calls(g) == n + 1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 1.0
        self.unused = 0
        self.dense = nn.Dense(2, 2, has_bias=False)
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    def construct(self, x):
        return self.dense(x) * self.k + self.w


def test_cell_attributes_read_and_unread():
    net = Net()
    g = bc(net)
    x = t(1.0, 2.0)
    assert np.allclose(g(x).asnumpy(), net(x).asnumpy())
    n = calls(g)
    net.unused = 5  # never read: no recompile
    g(x)
    assert calls(g) == n
    net.k = 3.0
    assert np.allclose(g(x).asnumpy(), net(x).asnumpy()) and calls(g) == n + 1
    net.w.set_data(Tensor(np.full(2, 4.0, np.float32)))  # Parameter values are inputs
    assert np.allclose(g(x).asnumpy(), net(x).asnumpy()) and calls(g) == n + 1
    net.dense = nn.Dense(2, 2)  # a replaced sub-Cell
    assert np.allclose(g(x).asnumpy(), net(x).asnumpy()) and calls(g) == n + 2
    net.dense.has_bias = False  # an attribute of a library Cell: the whole Cell is guarded
    assert np.allclose(g(x).asnumpy(), net(x).asnumpy()) and calls(g) == n + 3


def test_hooks_on_an_inlined_cell_are_seen():
    net = Net()
    g = bc(lambda x: net(x) + 1)  # net's construct is inlined into the caller's graph
    x = t(1.0, 2.0)
    g(x)
    net.register_forward_hook(lambda cell, inputs, out: out * 0)
    assert g(x).asnumpy().tolist() == [1.0, 1.0]


def scalar_fn(x, n):
    out = x
    for i in range(n):
        out = out + i
    return out


def test_scalar_argument_and_shapes():
    g = bc(scalar_fn)
    for n in (1, 2, 1):
        assert np.allclose(g(t(0.0), n).asnumpy(), scalar_fn(t(0.0), n).asnumpy())
    assert calls(g) == 2  # one graph per distinct value, none for a repeated one
    g(Tensor(np.zeros(3, np.float32)), 1)
    assert calls(g) == 3  # a new shape
    g(Tensor(np.zeros(3, np.float32)), 1)
    assert calls(g) == 3
    for n in (3, 4, 5, 4):  # past the recompile brake, `range(n)` still gets each value
        assert np.allclose(g(t(0.0), n).asnumpy(), scalar_fn(t(0.0), n).asnumpy())


BREAK_SCALE = 1.0


def after_break(x):
    y = x * 2
    if y.sum() > 0:
        y = y + 1
    return y * BREAK_SCALE


def test_guards_of_pieces_after_a_break():
    global BREAK_SCALE
    g = bc(after_break)
    assert g(t(1.0)).asnumpy().tolist() == [3.0]
    n = calls(g)
    assert g(t(1.0)).asnumpy().tolist() == [3.0] and calls(g) == n
    BREAK_SCALE = 10.0
    try:
        assert g(t(1.0)).asnumpy().tolist() == [30.0] and calls(g) == n + 1
        assert g(t(-1.0)).asnumpy().tolist() == [-20.0]
    finally:
        BREAK_SCALE = 1.0


def test_failed_guard_says_why(caplog):
    global SCALE
    g = bc(scaled)
    g(t(1.0))
    ms.jit.explain_recompiles(True)
    SCALE = 3.0
    try:
        with caplog.at_level(logging.WARNING, logger="msxla"):
            g(t(1.0))
    finally:
        SCALE = 2.0
        ms.jit.explain_recompiles(False)
    assert "global 'SCALE'" in caplog.text and "2.0 -> 3.0" in caplog.text


def test_train_flag_and_parameter_writes():
    class Drop(nn.Cell):
        def __init__(self):
            super().__init__()
            self.steps = Parameter(Tensor(np.zeros(1, np.float32)), name="steps")

        def construct(self, x):
            ops.assign_add(self.steps, Tensor(np.ones(1, np.float32)))
            return x * 2 if self.training else x
    net = Drop()
    g = bc(net)
    assert g(t(1.0)).asnumpy().tolist() == [1.0]
    net.set_train(True)
    assert g(t(1.0)).asnumpy().tolist() == [2.0]
    net.set_train(False)
    assert g(t(1.0)).asnumpy().tolist() == [1.0]
    assert net.steps.asnumpy().tolist() == [3.0] and calls(g) <= 3


SCALES = {"a": None, "b": None}


def sum_scaled(x):
    out = x
    for name in SCALES:  # reads the dict's contents: guarded by them
        out = out * SCALES[name]
    return out


def test_dict_of_tensors_read_by_contents_hits_the_cache():
    SCALES["a"], SCALES["b"] = t(2.0), t(3.0)
    fn = bc(sum_scaled)
    for _ in range(3):
        assert fn(t(1.0)).asnumpy().tolist() == [6.0]
    assert fn.stats.captures == 1
    SCALES["c"] = t(0.5)  # a new entry: seen
    assert fn(t(1.0)).asnumpy().tolist() == [3.0]
    del SCALES["c"]
