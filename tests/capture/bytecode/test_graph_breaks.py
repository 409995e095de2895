"""Graph breaks, one test per kind: the number of graphs and breaks ``explain``
reports, results equal to PyNative on every call (both sides of each branch, cache
hits included), Python effects happening on every call, and ``fullgraph=True``
raising ``UnsupportedError`` at the breaking line."""
import random

import numpy as np
import pytest
from bc_helpers import bc, check_like_pynative, kinds, line_of, t

import msxla as ms
from msxla import Parameter, Tensor, nn
from msxla.errors import UnsupportedError

HERE = __file__


def explain(fn, *args):
    return ms.jit.explain(fn)(*args)


def assert_fullgraph_error(fn, args, text, kind_id, where=None):
    with pytest.raises(UnsupportedError) as info:
        bc(fn, fullgraph=True)(*args)
    err = info.value
    assert isinstance(err, RuntimeError) and err.loc.file == HERE
    assert err.loc.line == line_of(where or fn, text), (err.loc, str(err))
    assert kind_id in str(err) and "fullgraph=True" in str(err) and "Hint:" in str(err)
    return err


# ----------------------------------------------------------- B001 branches
def branch(x):
    y = x + 1
    if y.sum() > 0:
        y = y * 2
    else:
        y = y - 3
    return y * 5


def test_branch_on_tensor():
    check_like_pynative(branch, [(t(1.0, 2.0),), (t(-4.0, -5.0),), (t(3.0, 0.0),)])
    report = explain(branch, t(1.0, 2.0))
    assert kinds(report) == ["data-dependent-branch"] and report.graph_count == 2
    assert report.break_lines() == [line_of(branch, "if y.sum()")]
    assert report.graphs[0].op_counts == {"add": 1, "reduce_sum": 1, "gt": 1}
    err = assert_fullgraph_error(branch, (t(1.0),), "if y.sum()", "B001")
    assert "POP_JUMP" in str(err)


def loop_until(x):
    n = 0
    while x.sum() < 10:
        x = x * 2
        n += 1
    return x + n


def conditions(x, y):
    if x.sum() > 0 and y.sum() > 0:
        return x + y
    z = x if (x > y).all() else y
    return z - (1 if (x < 0).any() or (y < 0).any() else 2)


def test_while_and_boolean_operators():
    check_like_pynative(loop_until, [(t(1.0, 1.0),), (t(3.0, 4.0),), (t(0.5, 0.25),)])
    jitted = check_like_pynative(conditions, [(t(1.0), t(2.0)), (t(1.0), t(-2.0)),
                                              (t(-1.0), t(-3.0))])
    captures = jitted.stats.captures
    jitted(t(5.0), t(-6.0))  # a path already seen: nothing is captured again
    assert jitted.stats.captures == captures
    assert_fullgraph_error(loop_until, (t(1.0),), "while x.sum()", "B001")


# ----------------------------------------------------- B002 Tensor values
def scalar_uses(x):
    s = x.sum().item()
    n = int(x.max())
    out = x * s
    for i in range(n):
        out = out + i
    return out, float(x[0]), bool(x[0] > 0)


def test_tensor_values_needed_in_python():
    check_like_pynative(scalar_uses, [(t(1.0, 2.0),), (t(3.0, 1.0),)])
    report = explain(scalar_uses, t(1.0, 2.0))
    assert set(kinds(report)) == {"tensor-to-python"} and report.break_count == 4
    assert_fullgraph_error(scalar_uses, (t(1.0),), "x.sum().item()", "B002")


# ---------------------------------------------------- B003 unsupported call
def noisy(x):
    return x * random.random() + 1


def test_unsupported_call_runs_every_call():
    jitted = bc(noisy)
    for seed in (0, 1, 2):
        random.seed(seed)
        expected = noisy(t(1.0)).asnumpy()
        random.seed(seed)
        np.testing.assert_allclose(jitted(t(1.0)).asnumpy(), expected)
    assert kinds(explain(noisy, t(1.0))) == ["unsupported-call"]
    assert_fullgraph_error(noisy, (t(1.0),), "random.random()", "B003")


# ------------------------------------------------------- B004 side effects
LOG = []
COUNT = 0


def effects(x):
    global COUNT
    LOG.append(len(LOG))
    COUNT += 1
    return x * COUNT + len(LOG)


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    def construct(self, x):
        self.calls += 1
        return x * self.w + self.calls


def make_closure():
    hits = 0

    def bump(x):
        nonlocal hits
        hits += 1
        return x + hits
    return bump


def test_side_effects_happen_on_every_call():
    global COUNT
    jitted = bc(effects)
    LOG.clear()
    COUNT = 0
    outs = [jitted(t(1.0)).asnumpy().tolist() for _ in range(3)]
    assert outs == [[2.0], [4.0], [6.0]] and LOG == [0, 1, 2] and COUNT == 3
    net = Counter()
    g = bc(net)
    assert [g(t(1.0, 1.0)).asnumpy().tolist() for _ in range(3)] == [[2.0, 2.0], [3.0, 3.0],
                                                                      [4.0, 4.0]]
    assert net.calls == 3
    bump = make_closure()
    gb = bc(bump)
    assert [gb(t(0.0)).asnumpy().tolist() for _ in range(3)] == [[1.0], [2.0], [3.0]]
    report = explain(effects, t(1.0))
    assert kinds(report) == ["side-effect", "side-effect"]
    assert_fullgraph_error(effects, (t(1.0),), "LOG.append", "B004")


# ------------------------------------------------------------ B005 python I/O
def printer(x):
    print("start", flush=True)
    y = x + 1
    print("y =", y)
    return y


def test_print_with_flush_breaks_and_prints_in_order(capfd):
    jitted = bc(printer)
    for _ in range(2):
        jitted(t(1.0))
    assert capfd.readouterr().out.split("\n")[:4] == ["start", "y = [2.]"] * 2
    report = explain(printer, t(1.0))
    assert kinds(report) == ["python-io"] and report.graph_count == 1
    assert_fullgraph_error(printer, (t(1.0),), 'print("start"', "B005")


# ------------------------------------------------------ B006 opaque values
def numpy_middle(x):
    y = x * 2
    s = float(np.sum(y.asnumpy()))
    return y + s


def test_numpy_values_from_a_break_are_never_baked():
    check_like_pynative(numpy_middle, [(t(1.0, 2.0),), (t(3.0, -1.0),), (t(0.0, 0.0),)])
    assert "opaque-value" in kinds(explain(numpy_middle, t(1.0)))


# ----------------------------------------------------- B007 break in callee
def inner(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def outer(x):
    y = inner(x * 2)
    return y * 3


class Gate(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 10
        return x


GATE = Gate()


def outer_cell(x):
    return GATE(x + 1) - 1


def test_break_in_callee():
    check_like_pynative(outer, [(t(1.0, 2.0),), (t(-1.0, -2.0),)])
    check_like_pynative(outer_cell, [(t(1.0),), (t(-3.0),)])
    report = explain(outer, t(1.0))
    assert kinds(report) == ["break-in-callee", "data-dependent-branch"]
    callee = report.breaks[0]
    assert callee.loc.line == line_of(outer, "inner(x * 2)")
    assert callee.inner.line == line_of(inner, "if x.sum()")
    err = assert_fullgraph_error(outer, (t(1.0),), "if x.sum()", "B001", where=inner)
    assert f"called at {HERE}:{line_of(outer, 'inner(x * 2)')}" in str(err)


# ------------------------------------------------ B008/B011: run in Python
class Point:
    __match_args__ = ("x",)

    def __init__(self, x):
        self.x = x


def match_class(x, p):
    match p:
        case Point(x=1):
            return x + 1
    return x


def generator(x):
    yield x + 1


def test_unsupported_code_runs_in_python(caplog):
    jitted = bc(match_class)
    assert jitted(t(1.0), Point(1)).asnumpy().tolist() == [2.0]
    assert "MATCH_CLASS" in caplog.text and "B008" in caplog.text
    with pytest.raises(UnsupportedError, match="B008"):
        bc(match_class, fullgraph=True)(t(1.0), Point(1))
    assert [v.asnumpy().tolist() for v in bc(generator)(t(1.0))] == [[2.0]]
    with pytest.raises(UnsupportedError, match="B011"):
        bc(generator, fullgraph=True)(t(1.0))


# ---------------------------------------------------- B009 deep recursion
def countdown(x, n):
    return x if n == 0 else countdown(x + 1, n - 1)


def test_deep_recursion_breaks_and_stays_correct():
    check_like_pynative(countdown, [(t(0.0), 30)])
    assert "inline-depth" in str(explain(countdown, t(0.0), 30))


# ------------------------------------------------------- B010 python tail
def gen_values(x):
    for i in range(3):
        yield x * i


def generator_alive(x):
    g = gen_values(x)
    first = next(g)
    if x.sum() > 0:
        first = first + 1
    return first + sum(g)


def test_live_generator_at_a_break_runs_the_rest_in_python():
    check_like_pynative(generator_alive, [(t(1.0, 2.0),), (t(-1.0, -2.0),)])
    assert "python-tail" in kinds(explain(generator_alive, t(1.0)))


def test_registry_ids_are_stable_and_unique():
    from msxla.capture.bytecode.breaks import REGISTRY
    ids = sorted(k.id for k in REGISTRY.values())
    assert ids == [f"B{i:03d}" for i in range(1, len(ids) + 1)]
    assert REGISTRY["data-dependent-branch"].id == "B001"
