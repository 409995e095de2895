"""ast coverage: control flow on Tensors (graph cond / while) and on Python values
(resolved at compile time). Each program runs jitted with fullgraph=False and True
and must equal PyNative and MindSpore 2.10 (tests/golden/ast_syntax.json)."""
import numpy as np
import pytest
from ast_helpers import check_case

import msxla as ms
from msxla import Tensor, nn

TENSOR_CONTROL = ["if_elif_else", "conditional_expression", "while_tensor", "while_break",
                  "for_break_tensor", "continue_tensor", "return_in_branch", "return_in_loop",
                  "and_or_not", "nested_if_in_while"]
PYTHON_CONTROL = ["if_on_constants_and_shapes", "if_on_training_flag", "for_range_constant",
                  "for_containers", "for_cell_list_sequential", "zip_enumerate",
                  "while_python_value"]


@pytest.mark.parametrize("fullgraph", [False, True])
@pytest.mark.parametrize("name", TENSOR_CONTROL)
def test_tensor_control_flow(name, fullgraph):
    check_case(name, fullgraph)


@pytest.mark.parametrize("fullgraph", [False, True])
@pytest.mark.parametrize("name", PYTHON_CONTROL)
def test_python_control_flow(name, fullgraph):
    check_case(name, fullgraph)


def test_python_conditions_leave_no_graph_control_flow():
    def f(x, n):
        if n > 2 and x.shape[0] == 2:
            x = x * 2
        for i in range(n):
            x = x + i
        return x
    graph = ms.jit(f).capture(Tensor(np.ones(2, np.float32)), 3)
    names = set(graph.op_counts())
    assert not names & {"cond", "while"}, names


def test_tensor_conditions_become_graph_control_flow():
    def f(x):
        if x.sum() > 0:
            x = x * 2
        while x.sum() < 10:
            x = x + 1
        return x
    graph = ms.jit(f).capture(Tensor(np.ones(2, np.float32)))
    counts = graph.op_counts()
    assert counts.get("cond") == 1 and counts.get("custom_vjp_call", 0) + counts.get(
        "while", 0) == 1, counts


class Drop(nn.Cell):
    def construct(self, x):
        if self.training:
            return x * 2
        return x


def test_training_flag_is_read_at_every_switch():
    net = Drop()
    jitted = ms.jit(net)
    x = Tensor(np.ones(2, np.float32))
    outs = []
    for mode in (False, True, False, True):
        net.set_train(mode)
        outs.append(jitted(x).asnumpy().tolist())
    assert outs == [[1.0, 1.0], [2.0, 2.0], [1.0, 1.0], [2.0, 2.0]]


def elif_scalar(x):
    s = x.sum()
    if s > 10:
        r = 1
    elif s > 5:
        r = 2
    else:
        r = 3
    return x * r, r


def loop_return(x):
    i = 0
    while i < 10:
        i += 1
        if x.sum() > 10:
            return x, i
        x = x * 2
    return x, i


@pytest.mark.parametrize("fn", [elif_scalar, loop_return])
def test_python_scalars_joined_across_graph_branches(fn):
    """A Python scalar that differs between the branches of a Tensor condition is a
    graph value inside the graph and comes back as a Python scalar (as in MindSpore)."""
    jitted = ms.jit(fn)
    for v in (1.0, 3.0, 6.0):
        x = Tensor(np.array([v, v], np.float32))
        (a, i), (b, j) = jitted(x), fn(x)
        assert type(i) is type(j) and i == j
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy())


def test_helper_function_defined_in_a_tensor_branch():
    """A function defined inside a Tensor ``if`` (and a loop variable of that
    branch) are not used after it: they are not branch outputs, so each trace's
    new function object does not force another trace (found by the fuzzer)."""
    from msxla import ops

    def f(x, a):
        if x.sum() > -0.37:
            for row in x:
                x = x + ops.tanh(row)

            def inner(z):
                return z * 1.5 + a
            a = inner(x)
        return x.sum() + a.sum()
    fn = ms.jit(f, capture_mode="ast")
    for v in (1.0, -1.0):
        x = Tensor(np.full((2, 2), v, np.float32))
        a = Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        np.testing.assert_allclose(fn(x, a).asnumpy(), f(x, a).asnumpy(), rtol=1e-6)
