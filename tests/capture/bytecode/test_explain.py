"""``msxla.jit.explain``: graphs, graph breaks with reasons and source lines, guards
and op counts of one call, for functions, Cells and jitted functions."""
import numpy as np
from bc_helpers import kinds, line_of, t

import msxla as ms
from msxla import Tensor, nn, ops

HERE = __file__
LIMIT = 0.0


def two_breaks(x):
    y = ops.exp(x) + 1
    if y.sum() > LIMIT:
        y = y * 2
    z = y.asnumpy()
    return y - float(z[0])


def test_report_lists_graphs_breaks_guards_and_ops():
    report = ms.jit.explain(two_breaks)(t(0.0, 1.0))
    expected = two_breaks(t(0.0, 1.0)).asnumpy()
    np.testing.assert_allclose(report.value.asnumpy(), expected, rtol=1e-6)
    # z[0] and float(...) each operate on the numpy array: two opaque-value breaks
    assert kinds(report) == ["data-dependent-branch", "tensor-to-python", "opaque-value",
                             "opaque-value"]
    assert report.break_lines() == [line_of(two_breaks, "if y.sum()"),
                                    line_of(two_breaks, "asnumpy")] + \
        [line_of(two_breaks, "float(z[0])")] * 2
    assert report.graph_count == 3 and report.break_count == 4
    assert report.graphs[0].op_counts == {"exp": 1, "add": 1, "reduce_sum": 1, "gt": 1}
    assert report.op_count == sum(sum(g.op_counts.values()) for g in report.graphs)
    assert any("global 'LIMIT'" in g for g in report.guards)
    text = str(report)
    assert text.startswith("3 graph(s), 4 graph break(s)")
    assert f"{HERE}:{line_of(two_breaks, 'if y.sum()')}" in text and "B001" in text
    assert "    if y.sum() > LIMIT:" in text and "guard: global 'LIMIT'" in text


def test_report_of_a_whole_graph_and_of_a_cell():
    report = ms.jit.explain(lambda a, b: a * b + 1)(t(1.0), t(2.0))
    assert report.graph_count == 1 and report.break_count == 0 and report.steps == []
    assert report.op_counts == {"mul": 1, "add": 1}

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 3)

        def construct(self, x):
            return ops.relu(self.dense(x))
    net = Net()
    report = ms.jit.explain(net)(Tensor(np.ones((1, 2), np.float32)))
    assert report.graph_count == 1 and report.break_count == 0
    assert report.op_counts.get("dot_general") == 1
    assert any("Dense" in g for g in report.guards)


def test_explain_keeps_a_jitted_functions_options_and_cache():
    jitted = ms.jit(two_breaks, capture_mode="bytecode", fullgraph=True, jit_level="O1")
    report = ms.jit.explain(jitted)(t(0.0, 1.0))
    assert report.break_count == 4  # the report lists breaks instead of raising
    assert jitted.stats.captures == 0  # the function's own cache is untouched


def test_each_call_records_the_breaks_it_ran():
    report = ms.jit.explain(two_breaks)(t(-5.0, -9.0))
    assert [r.kind.name for r in report.steps] == kinds(report)
