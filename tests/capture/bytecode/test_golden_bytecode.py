"""capture_mode='bytecode' against MindSpore 2.10's answers (tests/golden/bytecode.json,
written by tests/golden/make_bytecode.py): the same programs give MindSpore's
outputs, and where MindSpore reports a graph break msxla reports one too. The one
probe where MindSpore is stale (a changed global) gives PyNative's answer here."""
import json
import os

import numpy as np
import pytest
from bc_helpers import bc

import msxla as ms
from msxla import Tensor, nn

with open(os.path.join(os.path.dirname(__file__), "..", "..", "golden", "bytecode.json")) as fh:
    GOLDEN = json.load(fh)["probes"]


def arr(v):
    return Tensor(np.array(v, np.float32))


def vals(t):
    return t.asnumpy().tolist()


def tensor_if(x):
    if x.sum() > 0:
        return x * 2 + 100
    return x * 2 - 100


def while_on_tensor(x):
    n = 0
    while x.sum() < 10:
        x = x * 2
        n += 1
    return x + n


def and_or_on_tensor(x, y):
    if x.sum() > 0 and y.sum() > 0:
        return x + y
    if x.sum() > 0 or y.sum() > 0:
        return x - y
    return x * y


def asnumpy_in_the_middle(x):
    y = x * 2
    s = float(np.sum(y.asnumpy()))
    return y + s


def inner(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def break_in_callee(x):
    y = inner(x * 2)
    return y * 3


SINGLE = {"tensor_if": tensor_if, "while_on_tensor": while_on_tensor,
          "asnumpy_in_the_middle": asnumpy_in_the_middle, "break_in_callee": break_in_callee}


@pytest.mark.parametrize("name", sorted(SINGLE))
def test_programs_with_breaks(name):
    golden, fn = GOLDEN[name], SINGLE[name]
    g = bc(fn)
    assert [vals(g(arr(v))) for v in golden["inputs"]] == golden["outputs"]
    if golden.get("breaks"):
        assert ms.jit.explain(fn)(arr(golden["inputs"][0])).break_count >= 1


def test_and_or():
    golden = GOLDEN["and_or_on_tensor"]
    g = bc(and_or_on_tensor)
    assert [vals(g(arr(a), arr(b))) for a, b in golden["inputs"]] == golden["outputs"]


def test_guards_cell_closure_global_tuple():
    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.k = 1.0

        def construct(self, x):
            return x * self.k
    net = Scale()
    g = bc(net)
    x = arr([1.0])
    out = [vals(g(x))]
    net.k = 7.0
    assert out + [vals(g(x))] == GOLDEN["cell_attribute_changed"]["outputs"]

    c = 1.0

    def f(x):
        return x * c
    g = bc(f)
    out = [vals(g(x))]
    c = 9.0
    assert out + [vals(g(x))] == GOLDEN["closure_changed"]["outputs"]

    a, b = arr([1.0]), arr([2.0])
    g = bc(lambda pair: pair[0] + pair[1])
    out = [vals(g((a, b)))]
    a.assign_value(arr([10.0]))
    assert out + [vals(g((a, b)))] == GOLDEN["tuple_in_place"]["outputs"]


G = 1.0


def read_g(x):
    return x * G


def test_changed_global_is_seen_unlike_mindspore():
    global G
    golden = GOLDEN["global_changed"]
    g = bc(read_g)
    G = 1.0
    out = [vals(g(arr([1.0])))]
    G = 5.0
    out.append(vals(g(arr([1.0]))))
    G = 1.0
    assert out == golden["pynative"] and golden["outputs"] != golden["pynative"]


def test_fstring_scalars_and_try():
    g = bc(lambda x: x + len(f"shape={x.shape}"))
    assert [vals(g(Tensor(np.ones(2, np.float32))))] == GOLDEN["fstring_length"]["outputs"]

    def scalar(x, n):
        if n > 2:
            return x * n
        return x - n
    g = bc(scalar)
    golden = GOLDEN["scalar_values"]
    ones = Tensor(np.ones(2, np.float32))
    assert [vals(g(ones, n)) for n in golden["inputs"]] == golden["outputs"]

    def try_except(x, i):
        try:
            v = [1.0, 2.0][i]
        except IndexError:
            v = -1.0
        return x * v
    g = bc(try_except, fullgraph=True)  # captured as written: no break, no fallback
    golden = GOLDEN["try_except"]
    assert [vals(g(ones, i)) for i in golden["inputs"]] == golden["outputs"]


def test_graph_mode_runs_the_plain_function():
    golden = GOLDEN["graph_mode_plain_function"]
    g = bc(inner)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = [vals(g(arr(v))) for v in golden["inputs"]]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert out == golden["outputs"] and g.stats.captures == 0
