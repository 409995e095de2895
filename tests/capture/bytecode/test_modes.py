"""Where a bytecode-jitted function runs: MindSpore's notes on ``jit`` (plain function
in GRAPH_MODE and inside an ast-jitted function), nesting, methods and Cells, and
gradients through a function with graph breaks."""
import numpy as np
from bc_helpers import bc, t

import msxla as ms
from msxla import Parameter, Tensor, nn, ops


def branchy(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


def test_plain_function_in_graph_mode():
    g = bc(branchy)
    g(t(1.0))  # compiled in PyNative first
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        outs = [g(t(v)).asnumpy().tolist() for v in (1.0, -1.0)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert outs == [[2.0], [-2.0]]
    assert g(t(-3.0)).asnumpy().tolist() == [-4.0]


def test_plain_function_inside_ast_and_trace_and_inlined_in_bytecode():
    inner = bc(branchy)

    def outer(x):
        return inner(x) + 1
    for mode in ("ast", "bytecode"):  # (trace refuses a Tensor condition: its own rule)
        g = ms.jit(outer, capture_mode=mode)
        assert g(t(1.0)).asnumpy().tolist() == [3.0]
        assert g(t(-1.0)).asnumpy().tolist() == [-1.0]
        if mode == "ast":
            assert inner.stats.captures == 0  # part of the ast graph, never compiled alone
    # under bytecode the inner break makes the call run as its own jitted frame
    assert inner.stats.captures > 0
    plain = bc(lambda x: x * 2)
    assert ms.jit(lambda x: plain(x) + 1, capture_mode="trace")(t(1.0)).tolist() == [3.0]
    assert plain.stats.captures == 0

    lin = bc(lambda x: x * 3)
    both = bc(lambda x: lin(x) + lin(x + 1))
    assert both(t(1.0)).asnumpy().tolist() == [9.0]
    assert lin.stats.captures == 0 and ms.jit.explain(both)(t(1.0)).graph_count == 1


class Affine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, -1.0], np.float32)), name="w")

    @ms.jit(capture_mode="bytecode")
    def construct(self, x):
        y = x * self.w
        if y.sum() > 0:
            return y
        return -y


def test_decorated_construct_and_cell_class():
    a, b = Affine(), Affine()
    b.w.set_data(Tensor(np.array([1.0, 1.0], np.float32)))
    assert a(t(1.0, 1.0)).asnumpy().tolist() == [2.0, -1.0]
    assert b(t(1.0, 1.0)).asnumpy().tolist() == [1.0, 1.0]
    assert a(t(-1.0, 1.0)).asnumpy().tolist() == [2.0, 1.0]


def test_grad_through_graph_breaks():
    w = Parameter(Tensor(np.array([1.5, -0.5], np.float32)), name="w")

    def f(x):
        y = x * w
        if y.sum() > 0:
            y = y * y
        else:
            y = ops.sin(y)
        return y.sum()
    g = bc(f)
    for v in ([1.0, 1.0], [-2.0, 1.0]):
        x = Tensor(np.array(v, np.float32))
        got = ms.grad(g, grad_position=0, weights=[w])(x)
        ref = ms.grad(f, grad_position=0, weights=[w])(x)
        for a, b in zip(got, ref):
            a = a[0] if isinstance(a, tuple) else a
            b = b[0] if isinstance(b, tuple) else b
            np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_train_step_with_a_break_matches_pynative():
    def run(jitted):
        net = nn.Dense(3, 1)
        net.weight.set_data(Tensor(np.array([[0.1, -0.2, 0.3]], np.float32)))
        net.bias.set_data(Tensor(np.zeros(1, np.float32)))
        opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
        grad_fn = ms.value_and_grad(lambda x, y: ((net(x) - y) ** 2).mean(), None,
                                    opt.parameters)

        def step(x, y):
            loss, grads = grad_fn(x, y)
            if loss > 0.5:  # a data-dependent branch in a train step
                grads = tuple(g * 0.5 for g in grads)
            opt(grads)
            return loss
        step = bc(step) if jitted else step
        x = Tensor(np.ones((4, 3), np.float32))
        y = Tensor(np.full((4, 1), 3.0, np.float32))
        return [float(step(x, y).asnumpy()) for _ in range(4)]
    np.testing.assert_allclose(run(True), run(False), rtol=1e-5)


def test_transformed_function_with_a_branch_runs_in_python():
    import pytest
    from msxla.errors import UnsupportedError
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    def prog(x):
        while ops.abs(x).sum() < 5.0:
            x = ops.abs(x) * 1.5 + 0.5
        return (x * w).sum()
    f = ms.value_and_grad(prog, 0, [w])  # library code: jax traces it as a whole
    x = t(0.1, 0.2)
    (value, (dx, (dw,))), (ref, (rdx, (rdw,))) = bc(f)(x), f(x)
    for a, b in ((value, ref), (dx, rdx), (dw, rdw)):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
    with pytest.raises(UnsupportedError, match="fullgraph=True"):
        bc(f, fullgraph=True)(x)


class Box:
    def __init__(self, value):
        self.value = value


def test_function_returning_a_new_object_runs_in_python():
    g = bc(lambda x: Box(x * 2))
    assert [g(t(float(v))).value.asnumpy().tolist() for v in (1, 2)] == [[2.0], [4.0]]
