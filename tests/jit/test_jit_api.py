"""The jit API: validation, the forms it wraps, staging, options, counters."""
import logging
import re

import numpy as np
import pytest

import msxla as ms
from msxla import JitConfig, Parameter, Tensor, nn, ops
from msxla.ops import _kernels
from helpers import assert_close


def full(*shape, v=1.0):
    return Tensor(np.full(shape, v, np.float32))


def f(a, b, c):
    return a * b + c


@pytest.mark.parametrize("kwargs, exc, pattern", [
    (dict(capture_mode="foo"), ValueError,
     r"For 'jit', the 'capture_mode' must be str and must be in '\['ast', 'bytecode', "
     r"'trace'\]', but got 'foo'"),
    (dict(jit_level="O2"), ValueError, r"'jit_level' must be str and must be in '\['O0', 'O1'\]'"),
    (dict(dynamic=2), ValueError, r"'dynamic' must be in range of \[0, 1\], but got 2"),
    (dict(fullgraph=1), TypeError, r"the 'fullgraph' must be a bool, but got int"),
    (dict(exec_order="xyz"), ValueError, r"must be one of \['bfs', 'dfs'\], but got 'xyz'"),
    (dict(exec_order=1), TypeError, r"the type of 'exec_order' must be str"),
    (dict(disable_format_transform="yes"), TypeError,
     r"the type of 'disable_format_transform' must be bool"),
    (dict(infer_boost="maybe"), ValueError, r"must be one of \['on', 'off'\]"),
    (dict(ge_options={"bad": {}}), ValueError, r"must be one of \['global', 'session'\]"),
    (dict(ge_options={"global": {"a": 1}}), TypeError, r"the type of key and value must be str"),
])
def test_invalid_arguments_like_mindspore(kwargs, exc, pattern):
    with pytest.raises(exc, match=pattern):
        ms.jit(f, **kwargs)


def test_unknown_backend_fails_at_call():
    g = ms.jit(f, backend="foo")
    with pytest.raises(RuntimeError, match="Invalid backend name: foo"):
        g(full(1), full(1), full(1))


def test_unknown_option_is_ignored_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="msxla"):
        g = ms.jit(f, foo=1)
    assert "'foo' is not recognized" in caplog.text
    assert_close(g(full(1), full(1), full(1)), [2.0])


def test_signature_and_defaults():
    import inspect
    sig = inspect.signature(ms.jit)
    assert str(sig) == ("(function=None, *, capture_mode='ast', jit_level='O0', dynamic=0, "
                        "fullgraph=False, backend='', **options)")


def test_decorator_forms():
    @ms.jit
    def g1(x):
        return x + 1

    @ms.jit(capture_mode="trace", jit_level="O1")
    def g2(x):
        return x + 2
    assert_close(g1(full(1)), [2.0]) and assert_close(g2(full(1)), [3.0])
    assert g1.__name__ == "g1"


class Add(nn.Cell):
    def __init__(self):
        super().__init__()
        self.b = Parameter(Tensor(np.array([1.0], np.float32)), name="b")

    def construct(self, x):
        return x + self.b


def test_cell_instance_method_and_class_forms():
    net = Add()
    assert_close(ms.jit(net)(full(1)), [2.0])
    assert_close(ms.jit(net.construct)(full(1)), [2.0])

    class Local(Add):
        pass
    ms.jit(Local)
    a, b = Local(), Local()
    b.b.set_data(Tensor(np.array([5.0], np.float32)))
    assert_close(a(full(1)), [2.0]) and assert_close(b(full(1)), [6.0])


def test_construct_decorated_in_class_body():
    class Mul(nn.Cell):
        @ms.jit
        def construct(self, x):
            return x * x * 2
    n1, n2 = Mul(), Mul()
    assert_close(n1(full(2, v=3.0)), [18.0, 18.0])
    assert_close(n2(full(1, v=1.0)), [2.0])


def test_second_call_hits_the_cache_and_new_shape_recompiles_once():
    g = ms.jit(f, capture_mode="trace")
    x = full(2, 3)
    for _ in range(3):
        g(x, x, x)
    assert (g.stats.captures, g.stats.compiles, g.stats.slow_calls) == (1, 1, 1)
    y = full(4, 3)
    assert_close(g(y, y, y), np.full((4, 3), 2.0, np.float32))
    g(y, y, y), g(x, x, x)
    assert (g.stats.captures, g.stats.compiles) == (2, 2)


def test_new_scalar_value_recompiles_once_then_becomes_an_input(caplog):
    def body(x, n):
        return x * n
    g = ms.jit(body, capture_mode="trace")
    with caplog.at_level(logging.WARNING, logger="msxla"):
        for n in (1, 2, 2, 3, 4, 5, 6, 1):
            assert_close(g(full(1), n), [float(n)])
    assert g.stats.captures == 3 + 1  # 1, 2, 3 as constants, then one graph with n an input
    assert "now a graph input" in caplog.text


def test_scalar_used_as_python_value_stays_constant():
    def rep(x, n):
        out = x
        for _ in range(n):
            out = out + x
        return out
    g = ms.jit(rep, capture_mode="trace")
    for n in (1, 2, 3, 4, 2):
        assert_close(g(full(1), n), [float(n + 1)])


def test_mutable_scalar_is_an_input_from_the_start():
    def body(x, n):
        return x * n
    g = ms.jit(body, capture_mode="trace")
    for n in (1.0, 2.0, 3.0):
        assert_close(g(full(1), ms.mutable(n)), [n])
    assert g.stats.captures == 1


def test_mutable_rejects_strings():
    with pytest.raises(TypeError, match="For 'mutable', the 'input_data' should be one of"):
        ms.mutable("s")


def test_explain_recompiles(caplog):
    g = ms.jit(lambda a, b: a * 2 + b.sum(), capture_mode="trace")
    ms.jit.explain_recompiles(True)
    try:
        with caplog.at_level(logging.WARNING, logger="msxla"):
            g(full(2, 8), full(2, 8))
            g(full(2, 16), full(2, 8))
    finally:
        ms.jit.explain_recompiles(False)
    assert "args[0].shape: (2, 8) -> (2, 16)" in caplog.text


def test_explain_guard_failure(caplog):
    k = [1.0]
    scale = 1.0

    def h(x):
        return x * scale
    g = ms.jit(h, capture_mode="trace")
    g(full(1))
    scale = 4.0
    ms.jit.explain_recompiles(True)
    try:
        with caplog.at_level(logging.WARNING, logger="msxla"):
            assert_close(g(full(1)), [4.0])
    finally:
        ms.jit.explain_recompiles(False)
    assert "closure variable 'scale'" in caplog.text and "1.0 -> 4.0" in caplog.text
    assert k == [1.0]


def test_staged_api_stablehlo_with_user_locations():
    g = ms.jit(f, capture_mode="trace")
    lowered = g.lower(full(2, 3), full(2, 3), full(2, 3))
    text = lowered.as_text()
    assert "stablehlo.multiply" in text and "stablehlo.add" in text
    assert "tensor<2x3xf32>" in text
    located = lowered.as_text(debug_info=True)
    assert re.search(r'loc\(".*test_jit_api\.py":\d+', located), located[-800:]
    compiled = lowered.compile()
    out = compiled(*[full(2, 3)._data] * 3)
    np.testing.assert_allclose(np.asarray(out[0]), np.full((2, 3), 2.0))


def _fusions(hlo_text):
    return len(re.findall(r"\bfusion\(", hlo_text))


def _chain(x):
    return ops.maximum(x * 2.0 + 1.0, x) - x * x


@pytest.mark.skipif(_kernels.kernels_kept(), reason="jax compiles for a GPU here")
def test_o0_compiles_like_o1_on_a_cpu():
    # XLA:CPU drops optimization barriers before fusing: no op boundaries are put
    x = full(16, 16)
    o0 = ms.jit(_chain, capture_mode="trace", jit_level="O0").lower(x)
    o1 = ms.jit(_chain, capture_mode="trace", jit_level="O1").lower(x)
    assert "optimization_barrier" not in o0.as_text()
    assert _fusions(o0.compile().as_text()) == _fusions(o1.compile().as_text())


def test_o0_ends_a_kernel_at_every_op_where_the_compiler_keeps_them(monkeypatch):
    monkeypatch.setattr(_kernels, "kernels_kept", lambda: True)   # as on a GPU
    x = Tensor(np.linspace(-2, 2, 256, dtype=np.float32).reshape(16, 16))

    def barriers(fn, level):
        text = ms.jit(fn, capture_mode="trace", jit_level=level).lower(x).as_text()
        return text.count("stablehlo.optimization_barrier")
    assert barriers(_chain, "O0") == 5 and barriers(_chain, "O1") == 0   # *, +, max, *, -
    # GELU is a handful of XLA instructions: one op, one kernel (one barrier at its end)
    assert barriers(ops.gelu, "O0") == 1
    assert_close(ms.jit(_chain, capture_mode="trace", jit_level="O0")(x), _chain(x).asnumpy())

    def loss(x):
        return (_chain(x) * _chain(x)).sum()
    grad = ms.value_and_grad(loss)
    got = ms.jit(grad, capture_mode="trace", jit_level="O0")(x)
    want = grad(x)
    assert_close(got[0], want[0].asnumpy())
    assert_close(got[1], want[1].asnumpy())


def test_jit_config():
    cfg = JitConfig(jit_level="O1")
    assert cfg.jit_config_dict["jit_level"] == "O1"
    with pytest.raises(ValueError, match=r"For 'jit_level' must be one of \['O0', 'O1', 'O2'\]"):
        JitConfig(jit_level="O5")
    with pytest.raises(ValueError, match="exc_mode"):
        JitConfig(exc_mode="x")
    with pytest.raises(ValueError, match="jit_syntax_level"):
        JitConfig(jit_syntax_level="X")
    with pytest.raises(ValueError, match="jit_syntax_level"):
        JitConfig(jit_syntax_level="strict")  # MindSpore 2.10 takes the upper-case names only
    for level in ("STRICT", "COMPATIBLE", "LAX", ""):
        assert JitConfig(jit_syntax_level=level).jit_config_dict["jit_syntax_level"] == level
    net = Add()
    net.set_jit_config(JitConfig(jit_level="O2"))
    assert net.jit_config_dict["jit_level"] == "O2"


def test_error_inside_jit_leaves_function_and_parameters_usable():
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    def step(x):
        ops.assign_add(w, x)
        return w * 1
    g = ms.jit(step, capture_mode="trace")
    with pytest.raises(ValueError, match="same rank"):
        g(full(2, 2))
    assert_close(w, [1.0, 1.0])
    assert_close(g(full(2)), [2.0, 2.0])
    assert_close(w, [2.0, 2.0])


def test_jit_twice_warns(caplog):
    g = ms.jit(f)
    with caplog.at_level(logging.WARNING, logger="msxla"):
        h = ms.jit(g, jit_level="O1")
    assert "only once" in caplog.text and h.options.jit_level == "O1"


def test_capture_shows_graph_state_and_guards():
    net = Add()
    graph = ms.jit(net).capture(full(1))
    text = str(graph)
    assert "state ['b']" in text and "add" in text
