"""Shared capture-mode suite: a jitted function that rebinds a global, a Cell
attribute or a closure variable to a Tensor it computes (``G = G + x``,
``self.t = self.t + x``, ``nonlocal t; t = t * 2``) rebinds it on every call,
as PyNative does, also when the rebind is in a helper it calls (or a helper's
helper, a method, an outside object's attribute); the Tensor the name held
before is left as it was, and no Tensor of a finished capture is left behind.
Under ``fullgraph=True`` the rebind is an error at the line that stores it."""
import inspect
import types

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


# ------------------------------------------------------ the rebind in a called helper
STATE = types.SimpleNamespace(t=None)   # an outside object whose attribute is rebound


def bump_global(x):
    global G
    G = G + x


def bump_twice(x):
    bump_global(x)
    bump_global(x * 0.5)


def through_helper(x):
    bump_global(x)
    return G * 2


def through_helper_of_helper(x):
    bump_twice(x)
    return x + 1


def bump_attribute(x):
    STATE.t = STATE.t * 0.5 + x


def attribute_through_helper(x):
    bump_attribute(x)
    return STATE.t + 0


def build_helper():
    global G
    G = vec(0.0, 1.0)
    return Program(through_helper, [(vec(1.0, 1.0),)] * 3, {"G": lambda: G})


def build_helper_of_helper():
    global G
    G = vec(0.0, 1.0)
    return Program(through_helper_of_helper, [(vec(1.0, 2.0),)] * 3, {"G": lambda: G})


def build_outside_attribute():
    STATE.t = vec(2.0, 2.0)
    return Program(attribute_through_helper, [(vec(1.0, 0.0),)] * 3, {"t": lambda: STATE.t})


def build_closure_through_helper():
    t = vec(1.0, 1.0)

    def bump(x):
        nonlocal t
        t = t * 2 + x

    def step(x):  # reads t only through helpers
        bump(x)
        return x * 0 + read()

    def read():
        return t + 0
    return Program(step, [(vec(1.0, 0.0),)] * 3, {"t": lambda: t})


class Accumulate2(nn.Cell):
    """Rebinds its attribute in a method it calls."""

    def __init__(self):
        super().__init__()
        self.total = vec(0.0, 0.0)

    def add(self, x):
        self.total = self.total + x

    def construct(self, x):
        self.add(x)
        return self.total * 1


def build_method():
    net = Accumulate2()
    return Program(net, [(vec(1.0, 2.0),)] * 3, {"total": lambda: net.total})


class CallsHelper(nn.Cell):
    """A jitted Cell whose ``construct`` calls the helper that rebinds."""

    def construct(self, x):
        bump_global(x)
        return G * 2


def build_cell_helper():
    global G
    G = vec(0.0, 1.0)
    return Program(CallsHelper(), [(vec(1.0, 1.0),)] * 3, {"G": lambda: G})


@pytest.mark.parametrize("build", [build_global, build_closure, build_helper,
                                   build_helper_of_helper, build_outside_attribute,
                                   build_closure_through_helper, build_method,
                                   build_cell_helper])
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


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("fn, target, store", [
    (rebind_global, "G", "G = G + x"), (through_helper, "G", "G = G + x"),
    (attribute_through_helper, "STATE.t", "STATE.t = STATE.t")])
def test_fullgraph_rebind_error_names_the_store_and_the_fix(fn, target, store):
    """The error names the user's line that rebinds (in the helper, where it is there)
    and says what to change there, not the generic hint for Tensor conditions."""
    global G
    G = vec(0.0, 1.0)
    STATE.t = vec(2.0, 2.0)
    with pytest.raises(ms.errors.ConcretizationError) as info:
        ms.jit(fn, capture_mode="ast", fullgraph=True)(vec(1.0, 1.0))
    text = str(info.value)
    where = bump_global if fn is through_helper else (
        bump_attribute if fn is attribute_through_helper else fn)
    assert f'{__file__}", line {_line_of(where, store)}' in text, text
    assert f"ops.assign({target}, <new value>)" in text, text
    assert "ops.select" not in text, text
    assert isinstance(info.value, ms.errors.UnsupportedError)
    np.testing.assert_allclose(G.asnumpy(), [0.0, 1.0])
    np.testing.assert_allclose(STATE.t.asnumpy(), [2.0, 2.0])
