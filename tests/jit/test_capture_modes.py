"""The shared capture-mode suite: the same programs in PyNative and in every jit
mode at O0 and O1 give the same results, on every call, after globals, closures,
Cell attributes, scalars and shapes change (MindSpore's stale cases included)."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops
from helpers import assert_close
from modes import make


def full(*shape, v=1.0):
    return Tensor(np.full(shape, v, np.float32))


def test_seed_function(mode):
    def f(a, b, c):
        return a * b + c
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(3)]
    out = make(f, mode)(*[Tensor(x) for x in xs])
    assert_close(out, xs[0] * xs[1] + xs[2])


def test_scalar_argument_values(mode):
    def body(x, n):
        return x * n
    fn = make(body, mode)
    for n in (1, 2, 3, 2, 4, 5, 6):
        assert_close(fn(full(2), n), np.full(2, n, np.float32))


COEF = 1.0


def read_global(x):
    return x * COEF


def test_global_changed(mode):
    global COEF
    COEF = 1.0
    fn = make(read_global, mode)
    assert_close(fn(full(1)), [1.0])
    COEF = 5.0
    try:
        assert_close(fn(full(1)), [5.0])
    finally:
        COEF = 1.0


def test_closure_changed(mode):
    c = 1.0

    def inner(x):
        return x * c
    fn = make(inner, mode)
    assert_close(fn(full(1)), [1.0])
    c = 9.0
    assert_close(fn(full(1)), [9.0])


class Scale(nn.Cell):
    def __init__(self, k=1.0):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


def test_cell_attribute_changed(mode):
    net = Scale()
    fn = make(net, mode)
    assert_close(fn(full(1)), [1.0])
    net.k = 7.0
    assert_close(fn(full(1)), [7.0])


def test_tensors_in_tuple_are_inputs(mode):
    def add_pair(pair):
        return pair[0] + pair[1]
    fn = make(add_pair, mode)
    a, b = full(1), full(1, v=2.0)
    assert_close(fn((a, b)), [3.0])
    assert_close(fn((full(1, v=4.0), b)), [6.0])
    a.assign_value(full(1, v=10.0))  # the same object, changed in place
    assert_close(fn((a, b)), [12.0])


def test_list_argument(mode):
    def affine(x, coeffs):
        return x * coeffs[0] + coeffs[1]
    fn = make(affine, mode)
    shared = [1.0, 2.0]
    for _ in range(3):
        assert_close(fn(full(1), shared), [3.0])
    assert_close(fn(full(1), (2.0, 2.0)), [4.0])
    if mode != "pynative":
        assert fn.stats.captures == 2  # one for the list, one for the tuple: no per-call recompile


def test_parameter_writes_in_program_order(mode):
    w = Parameter(Tensor(np.ones(1, np.float32)), name="w")

    def step(x):
        ops.assign_add(w, x)
        y = w * 2
        ops.assign(w, y)
        return y
    fn = make(step, mode)
    outs = [float(fn(full(1)).asnumpy()[0]) for _ in range(3)]
    assert outs == [4.0, 10.0, 22.0] and float(w.asnumpy()[0]) == 22.0


def test_parameter_changed_outside_is_seen(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones(1, np.float32)), name="w")

        def construct(self, x):
            return x * self.w
    net = Net()
    fn = make(net, mode)
    assert_close(fn(full(1)), [1.0])
    net.w.set_data(Tensor(np.array([5.0], np.float32)))
    assert_close(fn(full(1)), [5.0])
    ops.assign(net.w, Tensor(np.array([9.0], np.float32)))
    assert_close(fn(full(1)), [9.0])


def test_output_structures(mode):
    def f(x):
        return {"a": x + 1, "b": (x * 2, None, 3)}, [x.shape[0], "s"]
    d, lst = make(f, mode)(full(2))
    assert_close(d["a"], [2.0, 2.0]) and assert_close(d["b"][0], [2.0, 2.0])
    assert d["b"][1:] == (None, 3) and lst == [2, "s"]


def test_keyword_and_default_arguments(mode):
    def f(x, y=None, *, scale=2.0):
        return x * scale if y is None else (x + y) * scale
    fn = make(f, mode)
    assert_close(fn(full(1)), [2.0])
    assert_close(fn(full(1), y=full(1), scale=3.0), [6.0])
    assert_close(fn(full(1), full(1, v=2.0)), [6.0])


def test_parameter_argument_is_state(mode):
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")

    def bump(param, x):
        ops.assign_add(param, x)
        return param * 1
    fn = make(bump, mode)
    fn(p, full(2))
    out = fn(p, full(2))
    assert_close(out, [3.0, 3.0]) and assert_close(p, [3.0, 3.0])


def test_in_place_write_to_argument_tensor(mode):
    def double_in_place(x):
        ops.assign(x, x * 2)
        return x + 0
    fn = make(double_in_place, mode)
    t = full(2, v=3.0)
    assert_close(fn(t), [6.0, 6.0])
    assert_close(t, [6.0, 6.0])
    assert_close(fn(t), [12.0, 12.0])


def test_print_runs_every_call_in_order(mode, capfd):
    def noisy(x):
        print("before", x)
        y = x + 1
        print("after")
        return y
    fn = make(noisy, mode)
    for _ in range(3):
        fn(full(2))
    out = capfd.readouterr().out.split("\n")
    assert out[:6] == ["before [1. 1.]", "after"] * 3


def test_cell_created_inside_the_function(mode):
    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.full((3,), 2.0, np.float32)), name="w")

        def construct(self, x):
            return x * self.w

    def run(x):
        return Network()(x)
    assert_close(make(run, mode)(full(3)), [2.0, 2.0, 2.0])


def test_train_eval_switch(mode):
    class Drop(nn.Cell):
        def construct(self, x):
            return x * 2 if self.training else x
    net = Drop()
    fn = make(net, mode)
    assert_close(fn(full(1)), [1.0])
    net.set_train(True)
    assert_close(fn(full(1)), [2.0])
    net.set_train(False)
    assert_close(fn(full(1)), [1.0])


def test_shape_dependent_python(mode):
    def f(x):
        n = x.shape[0]
        return x * n
    fn = make(f, mode)
    assert_close(fn(full(2)), [2.0, 2.0])
    assert_close(fn(full(3)), [3.0, 3.0, 3.0])


def test_dtype_change(mode):
    def f(x):
        return x + x
    fn = make(f, mode)
    assert fn(full(2)).dtype is ms.float32
    out = fn(Tensor(np.array([1, 2], np.int32)))
    assert out.dtype is ms.int32 and out.tolist() == [2, 4]


def test_held_parameter_values_survive_updates(mode):
    """Buffers of updated Parameters are donated only when nothing else holds them."""
    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def step(x):
        ops.assign(w, w * 2 + x)
        return x
    fn = make(step, mode)
    fn(full(3))
    before = w.value()
    fn(full(3))
    fn(full(3))
    assert_close(before, [3.0, 3.0, 3.0])
    assert_close(w, [15.0, 15.0, 15.0])


def test_running_past_a_per_step_learning_rate_list_raises_and_changes_nothing(mode):
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    opt = nn.SGD([w], learning_rate=[0.1, 0.2])

    def step(g):
        return opt((g,))
    fn = make(step, mode)
    g = full(2)
    fn(g)
    fn(g)
    with pytest.raises(RuntimeError, match="should be in the range"):
        fn(g)
    assert_close(w, [0.7, 0.7])
    with pytest.raises(RuntimeError, match="should be in the range"):
        fn(g)  # the function still works (and still refuses)
