"""dynamic=1: two static graphs, then one generalised graph with symbolic
dimensions; later shapes cause no capture and no lowering; declared dynamic
inputs capture exactly once; results equal PyNative."""
import logging
import re

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops
from helpers import assert_close
from modes import JIT_MODES


def mode_kwargs(mode):
    capture_mode, level = mode.split("-")
    return dict(capture_mode=capture_mode, jit_level=level)


@pytest.fixture(params=JIT_MODES)
def jmode(request):
    return request.param


def scaled_sum(x, y):
    n = x.shape[0]
    return (x * n + y).sum(axis=1)


def batch(b, d=3, seed=0):
    rng = np.random.default_rng(seed + b)
    return Tensor(rng.standard_normal((b, d)).astype(np.float32))


def test_function_five_batch_sizes(jmode):
    g = ms.jit(scaled_sum, dynamic=1, **mode_kwargs(jmode))
    counts = []
    for b in (2, 4, 5, 7, 3):
        x, y = batch(b), batch(b, seed=9)
        assert_close(g(x, y), scaled_sum(x, y).asnumpy(), rtol=1e-5)
        counts.append((g.stats.captures, g.stats.lowerings))
    assert counts[2] == (3, 3)          # two static graphs, then the generalised one
    assert counts[3] == counts[4] == (3, 3)  # later shapes: no capture, no lowering
    assert g.stats.compiles == 5        # one executable per concrete shape


def test_stablehlo_of_the_generalised_graph_has_dynamic_dims():
    g = ms.jit(scaled_sum, capture_mode="trace", dynamic=1)
    for b in (2, 4, 5):
        g(batch(b), batch(b))
    text = g.lower(batch(6), batch(6)).as_text()
    assert "tensor<?x3xf32>" in text and "tensor<?xf32>" in text


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(1)
        self.w1 = Parameter(Tensor(rng.standard_normal((3, 8)).astype(np.float32)), name="w1")
        self.w2 = Parameter(Tensor(rng.standard_normal((8, 2)).astype(np.float32)), name="w2")
        self.steps = Parameter(Tensor(np.zeros((), np.float32)), name="steps",
                               requires_grad=False)

    def construct(self, x):
        ops.assign_add(self.steps, Tensor(np.ones((), np.float32)))
        return ops.matmul(ops.relu(ops.matmul(x, self.w1)), self.w2)


def test_mlp_cell_with_state(jmode):
    net, ref = MLP(), MLP()
    g = ms.jit(net, dynamic=1, **mode_kwargs(jmode))
    for b in (1, 3, 4, 6, 9):
        x = batch(b)
        assert_close(g(x), ref(x).asnumpy(), rtol=1e-5, atol=1e-5)
    assert g.stats.captures == 3 and g.stats.lowerings == 3
    assert float(net.steps.asnumpy()) == 5.0


def test_sequence_model_five_lengths(jmode):
    def seq_model(x):  # (batch, length, features) -> mean over the sequence
        return ops.softmax(x, axis=1).sum(axis=1) / x.shape[1]
    g = ms.jit(seq_model, dynamic=1, **mode_kwargs(jmode))
    rng = np.random.default_rng(3)
    for length in (5, 8, 12, 6, 20):
        x = Tensor(rng.standard_normal((2, length, 4)).astype(np.float32))
        assert_close(g(x), seq_model(x).asnumpy(), rtol=1e-5)
    assert g.stats.captures == 3 and g.stats.lowerings == 3


def test_declared_dynamic_inputs_capture_once(jmode):
    @ms.enable_dynamic(x=Tensor(shape=[None, 3], dtype=ms.float32),
                       y=Tensor(shape=[None, 3], dtype=ms.float32))
    def f(x, y):
        return scaled_sum(x, y)
    g = ms.jit(f, **mode_kwargs(jmode))
    for b in (2, 4, 5, 7, 3):
        x, y = batch(b), batch(b, seed=5)
        assert_close(g(x, y), scaled_sum(x, y).asnumpy(), rtol=1e-5)
    assert g.stats.captures == 1 and g.stats.lowerings == 1


def test_cell_set_inputs_in_graph_mode():
    net, ref = MLP(), MLP()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for b in (2, 3, 5, 8):
            x = batch(b)
            out = net(x)
            ms.set_context(mode=ms.PYNATIVE_MODE)
            assert_close(out, ref(x).asnumpy(), rtol=1e-5, atol=1e-5)
            ms.set_context(mode=ms.GRAPH_MODE)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert net.__dict__["_graph_runner"].stats.captures == 1


def test_control_flow_on_a_dynamic_dimension_compiles_per_shape(caplog):
    def branchy(x):
        if x.shape[0] > 3:
            return x * 2
        return x * 3
    g = ms.jit(branchy, capture_mode="trace", dynamic=1)
    with caplog.at_level(logging.WARNING, logger="msxla"):
        for b in (2, 4, 5, 1, 6):
            assert_close(g(batch(b)), branchy(batch(b)).asnumpy())
    assert "compiled per shape" in caplog.text


def test_rank_change_gets_its_own_graph():
    g = ms.jit(lambda x: x * 2, capture_mode="trace", dynamic=1)
    for shape in ((2, 3), (4, 3), (5, 3), (6, 3), (3, 8), (2, 2, 2)):
        x = Tensor(np.ones(shape, np.float32))
        assert_close(g(x), np.full(shape, 2.0, np.float32))
    assert g.stats.captures <= 5  # (2,3), (4,3), generalised (?,3) or (?,?), and the rank-3 one


def test_dynamic_zero_keeps_one_graph_per_shape():
    g = ms.jit(scaled_sum, capture_mode="trace")
    for b in (2, 4, 5, 7):
        g(batch(b), batch(b))
    assert g.stats.captures == 4 and g.stats.lowerings == 4
    assert not re.search(r"\?x", g.lower(batch(7), batch(7)).as_text())


def test_any_rank_placeholder(jmode):
    # Tensor(None, dtype) / Tensor(shape=None, dtype): MindSpore 2.10's dynamic-rank
    # placeholder, shape [-2]; msxla compiles such an input per shape
    spec = Tensor(None, dtype=ms.float32)
    assert spec.shape == (-2,) and spec.dtype == ms.float32
    assert Tensor(shape=None, dtype=ms.float32).shape == (-2,)
    assert repr(spec) == "Tensor(shape=[-2], dtype=Float32, value=<placeholder>)"
    assert "[-1, 3]" in repr(Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(ValueError, match="placeholder"):
        spec.asnumpy()
    g = ms.jit(ms.enable_dynamic(x=spec)(lambda x: x.sum(0) * 2), **mode_kwargs(jmode))
    for shape in ((2, 3), (4, 5), (3, 2, 2), (5, 1, 2)):
        x = Tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
        assert_close(g(x), np.arange(np.prod(shape), dtype=np.float32).reshape(shape).sum(0) * 2)
    g(Tensor(np.ones((2, 3), np.float32)))
    assert g.stats.captures == 4


def test_any_rank_placeholder_through_set_inputs():
    net = nn.Dense(3, 2)
    net.set_inputs(Tensor(None, dtype=ms.float32))
    x = batch(4)
    want = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert_close(net(x), want, rtol=1e-5, atol=1e-5)
        assert net(batch(2)).shape == (2, 2)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
