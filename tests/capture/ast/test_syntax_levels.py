"""Syntax levels (fullgraph / jit_syntax_level) and the JIT Fallback.

STRICT (fullgraph=True) refuses what is not graph syntax, at compile time.
LAX (fullgraph=False) stays correct: constant pieces run at compile time,
prints of graph values format at run time, anything else that needs a Tensor's
value in Python runs the function in Python, with one warning.

Where msxla knowingly differs from MindSpore 2.10 (msxla follows PyNative):
- ``try`` / ``del`` / ``class`` ... under LAX: MindSpore refuses them even in LAX
  ("Unsupported statement 'Try'"); msxla runs them in Python while capturing.
- ``len(f"v={x}")`` and ``x.asnumpy()`` under STRICT: MindSpore raises
  ``AttributeError`` from its own method tables; msxla raises a RuntimeError at
  the user's line.
"""
import logging

import numpy as np
import pytest
from ast_helpers import check_case

import msxla as ms
from msxla import JitConfig, Tensor, nn

LEVEL_CASES = ["level_numpy_runtime", "level_numpy_constant", "level_fstring_len",
               "level_try_except", "level_graph_mode_context"]
# (case, fullgraph) -> why msxla's answer differs from MindSpore's (it equals PyNative)
DIFFERS = {
    ("level_try_except", False): "MindSpore refuses try/except even in LAX",
    ("level_graph_mode_context", False): "MindSpore refuses try/except even in LAX",
    ("level_fstring_len", True): "MindSpore raises AttributeError from its string methods",
    ("level_numpy_runtime", True): "MindSpore raises AttributeError, msxla RuntimeError",
    # not ast: msxla's PyNative promotes Tensor[Float32] + numpy.float64 to Float64 where
    # MindSpore keeps Float32 (the op table's scalar promotion); values are equal
    ("level_numpy_constant", False): "numpy float64 scalar promotion (op table)",
    ("level_numpy_constant", True): "numpy float64 scalar promotion (op table)",
}


def t(*v):
    return Tensor(np.array(v, np.float32))


@pytest.mark.parametrize("name", LEVEL_CASES)
@pytest.mark.parametrize("fullgraph", [False, True])
def test_level_programs(name, fullgraph):
    differs = DIFFERS.get((name, fullgraph))
    if fullgraph and name in ("level_numpy_runtime", "level_fstring_len", "level_try_except"):
        differs = "error: refused under STRICT"
    jitted, golden = check_case(name, fullgraph, differs)
    if differs and differs.startswith("error"):
        assert "exc" in jitted[0] and "exc" in golden[0]


def noisy(x):
    print("x is", x)
    print(f"sum={x.sum()} max={x.max():.2f}", "%s!" % x.min(), str(x.shape))  # noqa: UP031
    if x.sum() > 0:
        print("positive", (x, 1), [x.sum()])
    return x + 1


@pytest.mark.parametrize("fullgraph", [False, True])
def test_print_runs_every_call_formatted_like_pynative(fullgraph, capfd):
    inputs = [t(1.0, 2.0), t(-1.0, -3.0), t(0.5, 0.25)]
    for x in inputs:
        noisy(x)
    eager = capfd.readouterr().out
    jitted = ms.jit(noisy, fullgraph=fullgraph)
    for x in inputs:
        jitted(x)
    assert capfd.readouterr().out == eager
    assert jitted.stats.captures == 1


RUNS = []


def float_of_loss(x):
    RUNS.append(1)
    loss = (x * x).sum()
    if float(loss.asnumpy()) > 3:  # needs the value in Python
        return x * 2
    return x


def test_lax_falls_back_to_python_once(caplog):
    jitted = ms.jit(float_of_loss)
    RUNS.clear()
    with caplog.at_level(logging.WARNING, logger="msxla"):
        outs = [jitted(x).asnumpy().tolist() for x in (t(1.0, 2.0), t(0.5, 0.5), t(3.0, 0.0))]
    assert outs == [[2.0, 4.0], [0.5, 0.5], [6.0, 0.0]]
    warnings = [r.getMessage() for r in caplog.records if "JIT Fallback" in r.getMessage()]
    assert len(warnings) == 1 and "float_of_loss" in warnings[0]
    assert "test_syntax_levels.py" in warnings[0] and "asnumpy" in warnings[0]
    assert len(RUNS) == 3  # one Python run per call, as in PyNative (the aborted capture appends nothing)


def constant_numpy(x):
    table = np.cumsum(np.arange(4.0))  # constant: folded at compile time
    return x * float(table[-1]) + len(str(table.shape))


def test_constant_pieces_are_folded():
    jitted = ms.jit(constant_numpy, fullgraph=True)
    assert jitted(t(1.0)).asnumpy().tolist() == [10.0]
    graph = jitted.capture(t(1.0))
    assert "callback" not in str(graph.jaxpr)


class TryNet(nn.Cell):
    def construct(self, x):
        try:
            return x * 2
        except ValueError:
            return x


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


def test_graph_mode_levels_from_jit_config_and_context(graph_mode):
    assert TryNet()(t(1.0)).asnumpy().tolist() == [2.0]  # default LAX
    strict = TryNet()
    strict.set_jit_config(JitConfig(jit_syntax_level="STRICT"))
    with pytest.raises(RuntimeError, match="Unsupported statement 'Try'"):
        strict(t(1.0))
    ms.set_context(jit_syntax_level=ms.STRICT)
    with pytest.raises(RuntimeError, match="Unsupported statement 'Try'"):
        TryNet()(t(1.0))
    lax = TryNet()
    lax.set_jit_config(JitConfig(jit_syntax_level="LAX"))  # the Cell's config wins
    assert lax(t(1.0)).asnumpy().tolist() == [2.0]


def test_environment_variable_overrides(monkeypatch):
    def f(x):
        try:
            return x + 1
        except ValueError:
            return x
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    with pytest.raises(RuntimeError, match="Unsupported statement 'Try'"):
        ms.jit(f)(t(1.0))
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "2")
    assert ms.jit(f, fullgraph=True)(t(1.0)).asnumpy().tolist() == [2.0]
