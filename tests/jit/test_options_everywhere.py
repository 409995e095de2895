"""jit's options hold on every path a compile can take.

``backend``, ``jit_level`` and donation apply to the graph of a call in each
capture mode, to each piece of a function with graph breaks, to the entries
``dynamic=1`` generalises, to a jitted Cell, to a Cell in GRAPH_MODE under
``JitConfig`` and to a jitted function called under ``grad``. Each test reads
the public ``jitted.stats.compiles_by_backend`` (no XLA compile of a GE
function, ever) and checks the values against numpy; ``levels`` records the
jit level every XLA compile asked for.
"""
from __future__ import annotations

import numpy as np
import pytest

import msxla as ms
from msxla import JitConfig, Parameter, Tensor, nn, ops
from msxla.jit import compile as jit_compile
from msxla.jit import dynamic_entry
from msxla.lower import lowering
from msxla.lower import options as lower_options


def f(a, b):
    return ops.sin(a) * b + 1


def ref(a, b):
    return np.sin(a) * b + 1


def _x(shape=(2, 3), seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


@pytest.fixture
def levels(monkeypatch):
    """The jit level of every XLA compile (the options each asked XLA for)."""
    seen = []

    def spy(level):
        seen.append(level)
        return lower_options.compiler_options(level)
    for module in (lowering, dynamic_entry, jit_compile):
        monkeypatch.setattr(module, "compiler_options", spy)
    return seen


@pytest.mark.parametrize("capture_mode", ["ast", "bytecode", "trace"])
def test_graph_of_a_call_in_every_capture_mode(capture_mode, levels):
    a, b = _x(), _x(seed=1)
    ge = ms.jit(f, capture_mode=capture_mode, backend="GE")
    np.testing.assert_allclose(ge(Tensor(a), Tensor(b)).asnumpy(), ref(a, b), rtol=1e-5)
    assert ge.stats.compiles_by_backend == {"GE": 1}
    xla = ms.jit(f, capture_mode=capture_mode, jit_level="O1")
    np.testing.assert_allclose(xla(Tensor(a), Tensor(b)).asnumpy(), ref(a, b), rtol=1e-5)
    assert xla.stats.compiles_by_backend == {"XLA": 1} and levels == ["O1"]


def breaks(x):
    y = x * 2
    print("sum", y.asnumpy().sum())  # a graph break: the value goes to Python
    return ops.sin(y) + 1


@pytest.mark.parametrize("backend,level", [("GE", "O0"), ("", "O1")])
def test_pieces_of_a_function_with_graph_breaks(backend, level, levels, capsys):
    jitted = ms.jit(breaks, capture_mode="bytecode", backend=backend, jit_level=level)
    a = _x()
    for _ in range(3):  # pieces run eagerly once, then compiled
        np.testing.assert_allclose(jitted(Tensor(a)).asnumpy(), np.sin(a * 2) + 1, rtol=1e-5)
    counts = jitted.stats.compiles_by_backend
    assert set(counts) == {"GE" if backend == "GE" else "XLA"} and sum(counts.values()) >= 1
    assert all(lv == level for lv in levels) and (backend == "GE" or levels)


def test_piece_writing_a_parameter_donates_only_without_effects():
    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def step(x, check):
        ops.assign(w, w * 2 + x)
        if check:
            print("w", w)  # staged print: an effect, so no donation
        print("break", x.asnumpy().sum())
        return w + 0
    for check, donated in ((False, (0,)), (True, ())):
        jitted = ms.jit(step, capture_mode="bytecode")
        for _ in range(3):
            jitted(Tensor(np.ones(3, np.float32)), check)
        runs = [r for e in jitted.cache.entries.values() for r in e.runner.pieces.values()
                if r.entry is not None and r.piece.graph.state_out]
        assert runs and all(r.entry.donated == donated for r in runs)


@pytest.mark.parametrize("backend,level", [("GE", "O0"), ("", "O1")])
def test_dynamic_entries(backend, level, levels):
    jitted = ms.jit(f, dynamic=1, backend=backend, jit_level=level)
    for n in (2, 3, 4, 5):
        a, b = _x((n, 3)), _x((n, 3), seed=1)
        np.testing.assert_allclose(jitted(Tensor(a), Tensor(b)).asnumpy(), ref(a, b), rtol=1e-5)
    counts = jitted.stats.compiles_by_backend
    if backend == "GE":  # GE graphs have static shapes: one per shape, never XLA
        assert counts == {"GE": 4}
    else:  # two static entries, then one generalised entry compiled per shape
        assert counts == {"XLA": 4} and set(levels) == {"O1"}
        assert jitted.cache.dynamic


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(_x((3,), seed=2)), name="w")

    def construct(self, x):
        return ops.sin(x) * self.w + 1


def test_jitted_cell(levels):
    net, a = Net(), _x()
    want = np.sin(a) * net.w.asnumpy() + 1
    ge = ms.jit(net, backend="GE")
    np.testing.assert_allclose(ge(Tensor(a)).asnumpy(), want, rtol=1e-5)
    assert ge.stats.compiles_by_backend == {"GE": 1}
    xla = ms.jit(net, jit_level="O1")
    np.testing.assert_allclose(xla(Tensor(a)).asnumpy(), want, rtol=1e-5)
    assert xla.stats.compiles_by_backend == {"XLA": 1} and levels == ["O1"]


@pytest.mark.parametrize("config,backend,level", [({"backend": "GE"}, "GE", None),
                                                  ({"jit_level": "O2"}, "XLA", "O2")])
def test_cell_in_graph_mode(config, backend, level, levels):
    net, a = Net(), _x()
    want = np.sin(a) * net.w.asnumpy() + 1
    net.set_jit_config(JitConfig(**config))
    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = net(Tensor(a))
    finally:
        ms.set_context(mode=old)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5)
    assert net._graph_runner.stats.compiles_by_backend == {backend: 1}
    assert levels == ([level] if level else [])


@pytest.mark.parametrize("backend,level", [("GE", "O0"), ("", "O1")])
def test_grad_of_a_jitted_function(backend, level, levels):
    g = ms.jit(lambda a, n: ops.sin(a) * a * n, backend=backend, jit_level=level)
    a = _x()
    n = Tensor(np.int32(3))  # an integer input: no cotangent
    grad = ms.grad(lambda x: g(x, n).sum())(Tensor(a))
    np.testing.assert_allclose(grad.asnumpy(), 3 * (np.cos(a) * a + np.sin(a)), rtol=1e-5)
    counts = g.stats.compiles_by_backend
    if backend == "GE":  # the call's graph, then GE graphs of the forward and its VJP
        assert counts == {"GE": 3}
    else:
        assert counts == {"XLA": 2} and set(levels) == {"O1"}


def test_grad_of_a_ge_function_whose_vjp_needs_no_primal():
    g = ms.jit(lambda a, b: a * 3 + b, backend="GE")  # the VJP does not read a or b
    a, b = _x(), _x(seed=1)
    grad = ms.grad(lambda x: g(x, Tensor(b)).sum())(Tensor(a))
    np.testing.assert_allclose(grad.asnumpy(), np.full_like(a, 3.0))
    assert g.stats.compiles_by_backend == {"GE": 3}
