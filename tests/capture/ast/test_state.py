"""Parameter writes (and in-place Tensor writes) inside graph branches and loops:
they become outputs of the ``cond`` / carried values of the ``while_loop`` and
land in the Parameters in program order, on every call, exactly as in PyNative."""
import numpy as np
import pytest
from ast_helpers import check_case

import msxla as ms
from msxla import Parameter, Tensor, nn, ops


def t(*v):
    return Tensor(np.array(v, np.float32))


def twice(make, calls):
    """Run the program ``make()`` builds in PyNative and jitted; return both traces."""
    traces = []
    for jit in (False, True):
        fn, probe = make()
        run = ms.jit(fn) if jit else fn
        outs = []
        for args in calls:
            out = run(*args)
            outs.append([o.asnumpy().copy() for o in (out if isinstance(out, tuple) else (out,))]
                        + [p.asnumpy().copy() for p in probe])
        traces.append(outs)
    return traces


def assert_same(traces):
    eager, jitted = traces
    for e_call, j_call in zip(eager, jitted):
        for e, j in zip(e_call, j_call):
            np.testing.assert_allclose(j, e, rtol=1e-6)


@pytest.mark.parametrize("name", ["param_assign_in_tensor_if", "param_assign_in_tensor_while",
                                  "param_setattr_in_branch"])
@pytest.mark.parametrize("fullgraph", [False, True])
def test_golden_programs(name, fullgraph):
    check_case(name, fullgraph)


def test_write_in_one_branch_and_read_after():
    def make():
        w = Parameter(t(1.0, 1.0), name="w")
        v = Parameter(t(0.0, 0.0), name="v")

        def f(x):
            if x.sum() > 0:
                ops.assign(w, w * 3)
            else:
                ops.assign_add(v, x)
            y = w + v
            ops.assign_add(w, t(1.0, 1.0))
            return y
        return f, (w, v)
    assert_same(twice(make, [(t(1.0, 2.0),), (t(-1.0, -1.0),), (t(2.0, 2.0),)]))


def test_nested_branches_in_a_graph_loop():
    def make():
        acc = Parameter(t(0.0), name="acc")
        hits = Parameter(t(0.0), name="hits")

        def f(x):
            while x.sum() < 12:
                if x.sum() > 4:
                    ops.assign_add(hits, t(1.0))
                    if x.sum() > 8:
                        ops.assign(acc, acc * 2)
                else:
                    ops.assign_add(acc, x)
                x = x + 1
            return x
        return f, (acc, hits)
    assert_same(twice(make, [(t(1.0),), (t(6.0),), (t(20.0),)]))


def test_local_cell_and_argument_tensor_written_in_branches():
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.n = Parameter(t(0.0), name="n")  # shape (1,)

        def construct(self, x):
            if x.sum() > 0:
                ops.assign_add(self.n, x.sum().reshape((1,)))
            return self.n * 1

    def make():
        def f(x, buf):
            c = Counter()
            y = c(x) + c(x)
            if x.sum() > 0:
                buf[0] = 9.0
            else:
                ops.assign(buf, buf * 2)
            return y, buf + 0
        return f, ()

    for jit in (False, True):
        fn, _ = make()
        run = ms.jit(fn) if jit else fn
        buf = t(1.0, 2.0)
        y, b = run(t(1.0), buf)
        assert y.asnumpy().tolist() == [3.0] and b.asnumpy().tolist() == [9.0, 2.0]
        assert buf.asnumpy().tolist() == [9.0, 2.0]  # the argument changed in place
        y, b = run(t(-1.0), buf)
        assert y.asnumpy().tolist() == [0.0] and buf.asnumpy().tolist() == [18.0, 4.0]


def test_grad_through_graph_control_flow():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t(2.0, 3.0), name="w")

        def construct(self, x):
            if (x * self.w).sum() > 0:
                y = x * self.w * self.w
            else:
                y = x - self.w
            while y.sum() < 20:
                y = y * y + self.w
            return y.sum()

    for x in (t(1.0, 1.0), t(-1.0, -1.0)):
        net = Net()
        eager = ms.value_and_grad(net, None, net.trainable_params())(x)
        jitted = ms.value_and_grad(ms.jit(net), None, net.trainable_params())(x)
        np.testing.assert_allclose(jitted[0].asnumpy(), eager[0].asnumpy(), rtol=1e-6)
        np.testing.assert_allclose(jitted[1][0].asnumpy(), eager[1][0].asnumpy(), rtol=1e-6)


def test_nested_function_rebinding_a_variable_in_a_branch():
    def f(x):
        a = 1

        def bump():
            nonlocal a
            a += 1
        if x.sum() > 0:
            bump()
        return x * a
    jitted = ms.jit(f)
    for x in (t(1.0, 2.0), t(-1.0, -2.0)):
        np.testing.assert_allclose(jitted(x).asnumpy(), f(x).asnumpy())


class Counting(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = 0

    def construct(self, x):
        if x.sum() > 0:
            self.count += 1
        return x * self.count


def test_attribute_set_under_a_tensor_condition():
    """Whether the attribute changes is only known when the graph runs: under LAX the
    Cell runs in Python (exactly once per call), under STRICT it is an error."""
    net = Counting()
    jitted = ms.jit(net)
    outs = [jitted(x).asnumpy().tolist() for x in (t(1.0), t(-1.0), t(2.0))]
    assert outs == [[1.0], [-1.0], [4.0]] and net.count == 2
    with pytest.raises(RuntimeError, match="an attribute of an object rebound"):
        ms.jit(Counting(), fullgraph=True)(t(1.0))


class CountingFallback(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = 0

    def construct(self, x):
        self.count += 1
        return Tensor(x.asnumpy() * self.count)


def test_fallback_runs_cell_side_effects_once():
    net = CountingFallback()
    jitted = ms.jit(net)
    assert jitted(t(1.0)).asnumpy().tolist() == [1.0] and net.count == 1
    assert jitted(t(1.0)).asnumpy().tolist() == [2.0] and net.count == 2
