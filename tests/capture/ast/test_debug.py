"""The converted program is inspectable: its source with a source map, and the
graph's equations and StableHLO locations point at the user's lines."""
import logging

import numpy as np
from ast_helpers import line_of

import msxla as ms
from msxla import Tensor, nn
from msxla.capture.ast import converted_source

HERE = __file__


def branchy(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 1
    while y.sum() < 10:
        y = y + 3
    return y


def test_converted_source_has_a_source_map():
    text = converted_source(branchy)
    if_line = line_of(branchy, "if x.sum()")
    assert "ms__.if_stmt(ms__.call(x.sum) > 0, " in text
    assert "ms__.while_stmt(" in text
    lines = text.splitlines()
    assert lines[0].startswith("def branchy(x):")
    # every generated line names the user line it came from
    assert all("# test_debug.py:" in ln for ln in lines)
    run_if = next(ln for ln in lines if "ms__.if_stmt(" in ln)
    assert run_if.endswith(f"# test_debug.py:{if_line}")
    body = next(ln for ln in lines if ln.strip().startswith("y = x * 2"))
    assert body.endswith(f"# test_debug.py:{if_line + 1}")


class Net(nn.Cell):
    def construct(self, x):
        return x * 2 if x.sum() > 0 else x


def test_converted_source_of_cells_and_jitted_functions():
    assert "ms__.if_exp(" in converted_source(Net())
    assert "ms__.while_stmt(" in converted_source(ms.jit(branchy))


def test_debug_switch_logs_listings(monkeypatch, caplog):
    monkeypatch.setenv("MSXLA_DEBUG_AST", "1")

    def fresh(x):
        return x + 1 if x.sum() > 0 else x
    with caplog.at_level(logging.WARNING, logger="msxla"):
        ms.jit(fresh)(Tensor(np.ones(2, np.float32)))
    assert any("ast capture converted" in r.getMessage() and "ms__.if_exp(" in r.getMessage()
               for r in caplog.records)


def test_graph_locations_are_the_users_lines():
    jitted = ms.jit(branchy)
    x = Tensor(np.ones(2, np.float32))
    graph = jitted.capture(x)
    located = {loc.line for _, loc in graph.source_map() if loc is not None}
    assert line_of(branchy, "if x.sum()") in located
    assert all(loc.file == HERE for _, loc in graph.source_map() if loc is not None)
    hlo = jitted.lower(x).as_text(debug_info=True)
    assert f"test_debug.py\":{line_of(branchy, 'y = y + 3')}" in hlo
