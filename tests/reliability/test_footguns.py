"""Footguns of capture, part 1: MindSpore 2.10's stale or wrong jit results.

Each test is one probe of MindSpore 2.10.0 (numbered as in the probe table)
where some capture mode returned a stale value, a wrong value or crashed.
Every test runs in PyNative and in every capture mode, and asserts the
PyNative answer (or, for trace, the error that replaces a frozen branch).
Part 2 (``test_footguns_more.py``) holds traps found beyond those probes.
"""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops
from msxla.errors import ConcretizationError, UnsupportedError
from helpers import assert_close
from modes import make


def full(*shape, v=1.0):
    return Tensor(np.full(shape, v, np.float32))


def first(t):
    return float(t.asnumpy().ravel()[0])


def expect_concretization(fn, *args, line_text):
    with pytest.raises(ConcretizationError) as info:
        fn(*args)
    assert "test_footguns.py" in str(info.value) and line_text in str(info.value)


def test_p01_scalar_values_then_repeats_never_crash(mode):
    """MindSpore trace: 'i:1 output of range:1' when n=2 repeats after the scalar
    became an input; ast: one compile per value."""
    fn = make(lambda x, n: x * n, mode)
    for n in (1, 2, 3, 2, 4, 5, 6):
        assert first(fn(full(2), n)) == n
    if mode != "pynative":
        assert fn.stats.captures <= 4  # three constants, then an input


def test_p01_scalar_used_as_python_value_after_the_brake(mode):
    def body(x, n):
        if n > 2:  # a Python condition on the scalar: it must stay a constant
            return x + n
        return x - n
    fn = make(body, mode)
    assert [first(fn(full(1), n)) for n in (1, 2, 3, 2, 4, 5)] == [0, -1, 4, -1, 5, 6]


SCALE = 1.0


def scaled(x):
    return x * SCALE


def test_p02_global_changed_between_calls(mode):
    """MindSpore: 1 (stale) in all three modes; bytecode never guards globals."""
    global SCALE
    fn = make(scaled, mode)
    try:
        SCALE = 1.0
        assert first(fn(full(1))) == 1.0
        SCALE = 5.0
        assert first(fn(full(1))) == 5.0
    finally:
        SCALE = 1.0


class Attr(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 1.0

    def construct(self, x):
        return x * self.k


def test_p03_cell_attribute_changed(mode):
    net = Attr()
    fn = make(net, mode)
    assert first(fn(full(1))) == 1.0
    net.k = 7.0
    assert first(fn(full(1))) == 7.0


def test_p03_cell_attribute_changed_in_graph_mode():
    """MindSpore's GRAPH_MODE Cell is stale too."""
    net = Attr()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert first(net(full(1))) == 1.0
        net.k = 7.0
        assert first(net(full(1))) == 7.0
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_p04_closure_variable_changed(mode):
    c = 1.0

    def inner(x):  # named like Tensor.inner: MindSpore trace took x for `self`
        return x * c
    fn = make(inner, mode)
    assert first(fn(full(1))) == 1.0
    c = 9.0
    assert first(fn(full(1))) == 9.0


def test_p05_tensor_in_tuple_changed_in_place(mode):
    """MindSpore ast and trace: 3 (stale), eager 12."""
    fn = make(lambda pair: pair[0] + pair[1], mode)
    a, b = full(1), full(1, v=2.0)
    assert first(fn((a, b))) == 3.0
    a.assign_value(full(1, v=10.0))
    assert first(fn((a, b))) == 12.0
    if mode != "pynative":
        assert fn.stats.captures == 1  # Tensors in tuples are inputs, not identity keys


def test_p06_list_argument_hits_the_cache(mode):
    """MindSpore ast recompiles on every list call; trace crashes on the hit."""
    fn = make(lambda x, coeffs: x * coeffs[0] + coeffs[1], mode)
    coeffs = [1.0, 2.0]
    assert [first(fn(full(1), coeffs)) for _ in range(3)] == [3.0] * 3
    assert first(fn(full(1), (1.0, 2.0))) == 3.0
    if mode != "pynative":
        assert fn.stats.captures == 2


def test_p07_print_runs_on_every_call(mode, capfd):
    """MindSpore trace prints on the first call only."""
    def noisy(x):
        print("value", x)
        return x + 1
    fn = make(noisy, mode)
    for v in (1.0, 2.0, 3.0):
        fn(full(1, v=v))
    assert capfd.readouterr().out.split("\n")[:3] == ["value [1.]", "value [2.]", "value [3.]"]


def test_p08_two_writes_to_one_parameter(mode):
    """MindSpore bytecode loses the second write (2, 4, 6); trace applies the first
    call twice (6, 14, 30). PyNative: 2, 6, 14."""
    w = Parameter(Tensor(np.zeros(1, np.float32)), name="w")

    def step(x):
        ops.assign_add(w, x)
        y = w * 2
        ops.assign(w, y)
        return y
    fn = make(step, mode)
    assert [first(fn(full(1))) for _ in range(3)] == [2.0, 6.0, 14.0]
    assert first(w) == 14.0


def branchy(x):
    if x.sum() > 0:
        return x + 100
    return x - 100


def test_p09_tensor_condition_never_freezes_a_branch(mode):
    """MindSpore trace: 101, 99 (the first branch frozen, no warning)."""
    fn = make(branchy, mode)
    if mode.startswith("trace"):
        expect_concretization(fn, full(1), line_text="if x.sum() > 0:")
        return
    assert first(fn(full(1))) == 101.0
    assert first(fn(full(1, v=-1.0))) == -101.0


class Branchy(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")

    def construct(self, x):
        if x.sum() > 0:
            return (x * self.w).sum()
        return (x * self.w * self.w).sum()


def test_p10_grad_through_a_jitted_cell_with_a_tensor_condition(mode):
    """MindSpore trace: wrong gradients for the branch not taken at capture."""
    net = Branchy()
    net.construct = make(net.construct, mode)
    grad_fn = ms.value_and_grad(net, 0, net.trainable_params())
    if mode.startswith("trace"):
        expect_concretization(grad_fn, full(1), line_text="if x.sum() > 0:")
        return
    loss, (gx, gw) = grad_fn(full(1))
    assert (first(loss), first(gx), first(gw[0])) == (2.0, 2.0, 1.0)
    loss, (gx, gw) = grad_fn(full(1, v=-1.0))
    assert (first(loss), first(gx), first(gw[0])) == (-4.0, 4.0, -4.0)


def test_p11_dynamic_shapes_stay_correct_and_generalise(jit_mode):
    """MindSpore ignores dynamic=1 in bytecode and trace (one compile per shape)."""
    fn = make(lambda x: x * x.shape[0], jit_mode, dynamic=1)
    shapes = [(2, 3), (4, 3), (5, 3), (6, 3), (3, 8), (2, 2, 2)]
    for shape in shapes:
        assert_close(fn(full(*shape)), np.full(shape, shape[0], np.float32))
    assert fn.stats.captures < len(shapes)


def guarded(x):
    try:
        y = x + 1
    except ValueError:
        y = x - 1
    return y


def test_p12_try_except(mode):
    """MindSpore ast: 'Unsupported statement Try' at either fullgraph value;
    bytecode runs it as plain Python even with fullgraph=True."""
    assert first(make(guarded, mode)(full(1))) == 2.0


def test_p12_try_except_with_fullgraph_is_captured_or_refused(jit_mode):
    fn = make(guarded, jit_mode, fullgraph=True)
    try:
        out = fn(full(1))
    except UnsupportedError as err:
        assert "test_footguns.py" in str(err) and "try" in str(err)
        return
    assert first(out) == 2.0


def numpy_inside(x):
    return Tensor(x.asnumpy() * 2)


def test_p13_asnumpy_falls_back_or_names_the_line(mode):
    fn = make(numpy_inside, mode)
    if mode.startswith("trace"):
        expect_concretization(fn, full(1), line_text="x.asnumpy()")
        return
    assert first(fn(full(1))) == 2.0
    if mode != "pynative":
        strict = make(numpy_inside, mode, fullgraph=True)
        with pytest.raises((AttributeError, UnsupportedError)) as info:
            strict(full(1))
        assert "test_footguns.py" in str(info.value) and "asnumpy" in str(info.value)


def test_p14_f_string_of_a_shape(mode):
    """MindSpore ast formats a 1-tuple shape as '(2)': 10 instead of 11."""
    fn = make(lambda x: x + len(f"shape={x.shape}"), mode)
    assert_close(fn(full(2)), [11.0, 11.0])


def test_p15_parameter_changed_outside_is_seen(mode):
    """MindSpore PyNative + jit: 1, 1, 1 (stale) in all modes."""
    net = nn.Dense(1, 1, weight_init="ones", bias_init="zeros")
    fn = make(net, mode)
    assert first(fn(full(1, 1))) == 1.0
    net.weight.set_data(Tensor(np.array([[5.0]], np.float32)))
    assert first(fn(full(1, 1))) == 5.0
    ops.assign(net.weight, Tensor(np.array([[9.0]], np.float32)))
    assert first(fn(full(1, 1))) == 9.0


def test_instances_of_one_jitted_cell_class_keep_their_own_weights(mode):
    """MindSpore: one compile per instance (per-instance key), correct values."""
    class Scaled(nn.Cell):
        def __init__(self, v):
            super().__init__()
            self.w = Parameter(full(1, v=v), name="w")

        def construct(self, x):
            return x * self.w
    if mode != "pynative":
        Scaled.construct = make(Scaled.construct, mode)
    nets = [Scaled(v) for v in (1.0, 2.0, 3.0)]
    assert [first(n(full(1))) for n in nets] == [1.0, 2.0, 3.0]
    assert [first(n(full(1))) for n in reversed(nets)] == [3.0, 2.0, 1.0]
