"""capture_mode='trace': the body runs once per capture (a list it only appends
to still gets every call's appends), and Python control flow on a traced Tensor
is an error at the user's line (MindSpore silently freezes the branch)."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, ops
from msxla.errors import ConcretizationError


def full(*shape, v=1.0):
    return Tensor(np.full(shape, v, np.float32))


def test_tensor_condition_is_an_error_naming_the_line():
    def branchy(x):
        if x.sum() > 0:  # the line the error must name
            return x + 100
        return x - 100
    g = ms.jit(branchy, capture_mode="trace")
    with pytest.raises(ConcretizationError) as info:
        g(full(1))
    msg = str(info.value)
    line = branchy.__code__.co_firstlineno + 1
    assert f"test_trace_mode.py\", line {line}" in msg and "if x.sum() > 0:" in msg
    assert "capture_mode='ast'" in msg  # says what to change


def test_asnumpy_under_trace_is_an_error():
    g = ms.jit(lambda x: Tensor(x.asnumpy() + 1), capture_mode="trace")
    with pytest.raises(ConcretizationError, match="asnumpy"):
        g(full(1))


def test_body_runs_once_per_capture():
    calls = []

    def body(x):
        calls.append(1)  # a list only appended to is a log: every call appends, as in PyNative
        return x * 3
    g = ms.jit(body, capture_mode="trace")
    for _ in range(4):
        g(full(2))
    assert g.stats.captures == 1 and len(calls) == 4
    g(full(3))  # a new shape: one more capture
    assert g.stats.captures == 2 and len(calls) == 5


def test_first_call_applies_an_update_once():
    w = Parameter(Tensor(np.zeros(1, np.float32)), name="w")

    def step(x):
        ops.assign_add(w, x)
        return w + 0
    g = ms.jit(step, capture_mode="trace")
    assert float(g(full(1)).asnumpy()[0]) == 1.0
    assert float(w.asnumpy()[0]) == 1.0


def test_random_ops_draw_fresh_values_each_call():
    if not hasattr(ms.ops, "uniform") and not hasattr(ms.ops, "rand"):
        pytest.skip("no random rows in this build")
    rand = getattr(ms.ops, "rand")
    g = ms.jit(lambda x: x + rand(3), capture_mode="trace")
    a, b = g(full(3)).asnumpy(), g(full(3)).asnumpy()
    assert not np.allclose(a, b)
    ms.set_seed(7)
    first = [g(full(3)).asnumpy() for _ in range(2)]
    ms.set_seed(7)
    second = [g(full(3)).asnumpy() for _ in range(2)]
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
