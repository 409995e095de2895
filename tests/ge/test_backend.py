"""backend="GE" through jit and JitConfig: the seeds' GE variants, Parameters
updated by an optimizer step (Variables + Assign), ge_options, the
outermost-Cell rule, grad through a GE function, and the error naming the
user's line for an op with no GE converter."""
import logging

import numpy as np
import pytest

import msxla as ms
from msxla import JitConfig, Tensor, nn, ops
from msxla.ge import GeConversionError
from msxla.jit.backend_ge import GeExecutable
from msxla import _log


def f(a, b, c):
    return a * b + c


def _inputs(seed=0):
    rng = np.random.default_rng(seed)
    return [Tensor(rng.standard_normal((2, 3)).astype(np.float32)) for _ in range(3)]


def _executables(jitted):
    return [e.compiled for e in jitted.cache.entries.values()]


@pytest.fixture
def fresh_notes(monkeypatch):
    monkeypatch.setattr(_log, "_noted", set())


@pytest.mark.parametrize("mode,fullgraph", [("ast", False), ("bytecode", False),
                                            ("trace", False), ("ast", True)])
def test_seed_variants_run_on_ge(mode, fullgraph):
    jitted = ms.jit(f, capture_mode=mode, backend="GE", fullgraph=fullgraph)
    for seed in range(3):  # first call compiles, later ones take the fast path
        x = _inputs(seed)
        out = jitted(*x)
        np.testing.assert_allclose(out.asnumpy(), f(*x).asnumpy(), rtol=1e-6)
        assert out.dtype == ms.float32 and out.shape == (2, 3)
    (exe,) = _executables(jitted)
    assert isinstance(exe, GeExecutable)
    assert [n.type for n in exe.model.main.nodes] == ["Data"] * 3 + ["Mul", "Add", "NetOutput"]


def test_trace_decorator_form():
    @ms.jit(capture_mode="trace", backend="GE")
    def g(a, b, c):
        return a * b + c

    x = _inputs()
    np.testing.assert_allclose(g(*x).asnumpy(), f(*x).asnumpy(), rtol=1e-6)
    assert isinstance(_executables(g)[0], GeExecutable)


def test_one_time_warning_says_where_it_runs(caplog, fresh_notes):
    jitted = ms.jit(f, backend="GE")
    with caplog.at_level(logging.WARNING, logger="msxla"):
        jitted(*_inputs(0))
        ms.jit(f, backend="GE")(*_inputs(1))
    notes = [r.message for r in caplog.records if "reference executor" in r.message]
    assert len(notes) == 1 and "Ascend" in notes[0]


def test_ge_options_validated_and_written_into_the_graph():
    options = {"global": {"ge.exec.precision_mode": "must_keep_origin_dtype"},
               "session": {"ge.exec.memoryOptimizationPolicy": "MemoryPriority"}}
    jitted = ms.jit(f, backend="GE", ge_options=options)
    jitted(*_inputs())
    attrs = _executables(jitted)[0].model.attrs
    assert attrs["ge.global.ge.exec.precision_mode"] == "must_keep_origin_dtype"
    assert attrs["ge.session.ge.exec.memoryOptimizationPolicy"] == "MemoryPriority"
    with pytest.raises(ValueError, match="must be one of \\['global', 'session'\\]"):
        ms.jit(f, backend="GE", ge_options={"device": {}})
    with pytest.raises(TypeError, match="type of key and value must be str"):
        ms.jit(f, backend="GE", ge_options={"global": {"k": 1}})


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3, weight_init="normal", bias_init="zeros")

    def construct(self, x):
        return ops.relu(self.dense(x))


def _train(backend, steps=3):
    ms.set_seed(1)
    net = Net()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    grad_fn = ms.value_and_grad(lambda x, y: ops.mean((net(x) - y) ** 2), None,
                                net.trainable_params())

    @ms.jit(backend=backend)
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    rng = np.random.default_rng(0)
    losses = []
    for _ in range(steps):
        x = Tensor(rng.standard_normal((5, 4)).astype(np.float32))
        y = Tensor(rng.standard_normal((5, 3)).astype(np.float32))
        losses.append(float(step(x, y).asnumpy()))
    return losses, [p.asnumpy() for p in net.trainable_params()], step


def test_optimizer_step_updates_parameters_through_assign():
    ge_losses, ge_params, step = _train("GE")
    xla_losses, xla_params, _ = _train("")
    np.testing.assert_allclose(ge_losses, xla_losses, rtol=1e-5)
    for a, b in zip(ge_params, xla_params):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    model = _executables(step)[0].model
    variables = {n.name for n in model.main.nodes_of_type("Variable")}
    assigned = {n.inputs[0].split(":")[0] for n in model.main.nodes_of_type("Assign")}
    assert {"dense.weight", "dense.bias", "moments.dense.weight"} <= variables
    assert {"dense.weight", "dense.bias"} <= assigned
    (out,) = model.main.nodes_of_type("NetOutput")
    assert set(out.control_inputs) == {n.name for n in model.main.nodes_of_type("Assign")}


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_jit_config_backend_ge_on_a_cell(graph_mode):
    ms.set_seed(0)
    net = Net()
    net.set_jit_config(JitConfig(backend="GE", ge_options={"global": {"a": "b"}}))
    x = Tensor(np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32))
    out = net(x)
    (exe,) = _executables(net.__dict__["_graph_runner"])
    assert isinstance(exe, GeExecutable) and exe.model.attrs["ge.global.a"] == "b"
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), net(x).asnumpy(), rtol=1e-6)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Net()
        self.inner.set_jit_config(JitConfig(backend="GE"))

    def construct(self, x):
        return self.inner(x) * 2


def test_ge_applies_to_the_outermost_cell_only(graph_mode, caplog, fresh_notes):
    ms.set_seed(0)
    net = Outer()
    x = Tensor(np.ones((2, 4), np.float32))
    with caplog.at_level(logging.WARNING, logger="msxla"):
        out = net(x)
    assert any("outermost Cell only" in r.message and "Net" in r.message
               for r in caplog.records)
    (exe,) = _executables(net.__dict__["_graph_runner"])
    assert not isinstance(exe, GeExecutable)  # compiled with the outer graph's backend
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), net(x).asnumpy(), rtol=1e-6)


def test_inner_ge_function_is_part_of_the_outer_graph(caplog, fresh_notes):
    inner = ms.jit(lambda a: a * 2, backend="GE")
    outer = ms.jit(lambda a: inner(a) + 1)
    x = Tensor(np.ones((2, 3), np.float32))
    with caplog.at_level(logging.WARNING, logger="msxla"):
        np.testing.assert_allclose(outer(x).asnumpy(), np.full((2, 3), 3.0))
    assert any("outermost Cell only" in r.message for r in caplog.records)
    assert not isinstance(_executables(outer)[0], GeExecutable)


def test_outer_ge_graph_takes_inner_functions_along():
    inner = ms.jit(lambda a: ops.exp(a))
    outer = ms.jit(lambda a: inner(a) * a, backend="GE")
    x = Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_allclose(outer(x).asnumpy(), np.exp(x.asnumpy()) * x.asnumpy(),
                               rtol=1e-6)
    assert "Exp" in _executables(outer)[0].model.op_types()


def test_grad_through_a_ge_function():
    g = ms.jit(lambda a: ops.sin(a) * a, backend="GE")
    x = Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    grad = ms.grad(lambda a: g(a).sum())(x)
    xs = x.asnumpy()
    np.testing.assert_allclose(grad.asnumpy(), np.cos(xs) * xs + np.sin(xs), rtol=1e-5)


def test_unconverted_op_names_the_op_and_the_user_line():
    def uses_lu(m):
        return ops.inverse(m)  # LU factorisation: no GE operator

    jitted = ms.jit(uses_lu, backend="GE")
    with pytest.raises(GeConversionError) as info:
        jitted(Tensor(np.eye(3, dtype=np.float32) * 2))
    message = str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert "lapack_sgetrf_ffi" in message and "has no converter to a GE operator" in message
    line = uses_lu.__code__.co_firstlineno + 1
    assert f'File "{__file__}", line {line}' in message and "ops.inverse(m)" in message


def test_random_ops_follow_the_same_stream():
    """jax's threefry generator lowers to integer ops that GE runs bit for bit."""
    def sample(x):
        return (x + ops.standard_normal((2, 3)), ops.uniform((3,), Tensor(0.0), Tensor(1.0)),
                ops.randint(0, 10, (4,)))

    x = Tensor(np.zeros((2, 3), np.float32))
    results = {}
    for backend in ("", "GE"):
        ms.set_seed(5)
        jitted = ms.jit(sample, backend=backend)
        results[backend] = [[o.asnumpy() for o in jitted(x)] for _ in range(2)]
    for xla, ge_out in zip(results[""], results["GE"]):
        np.testing.assert_allclose(ge_out[0], xla[0], rtol=1e-5, atol=1e-6)  # erfinv: ulps
        np.testing.assert_array_equal(ge_out[1], xla[1])
        np.testing.assert_array_equal(ge_out[2], xla[2])


def _breaks(x):
    y = x * 2
    if y.sum() > 0:  # a Python branch on a Tensor: a graph break under bytecode
        return y + 1
    return y - 1


def test_every_piece_of_a_broken_function_is_a_ge_graph_from_the_first_call():
    jitted = ms.jit(_breaks, capture_mode="bytecode", backend="GE")
    for sign in (1.0, -1.0, 1.0):
        x = Tensor(np.full((2, 2), sign, np.float32))
        np.testing.assert_allclose(jitted(x).asnumpy(), _breaks(x).asnumpy())
        # every piece that ran was converted for GE, none evaluated on XLA
        assert set(jitted.stats.compiles_by_backend) == {"GE"}
    assert jitted.stats.compiles_by_backend["GE"] == 3  # before the branch, each branch


_W = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w_printed")


def _prints(x):
    y = x * 2
    print("first", y)
    ops.assign(_W, _W + y.sum())
    print("second", _W * 1)
    return y + 1


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
def test_prints_run_on_the_host_around_the_ge_graph(mode, capsys):
    x = Tensor(np.ones((2,), np.float32))
    _W.set_data(Tensor(np.ones(2, np.float32)))
    want_out = _prints(x).asnumpy()
    want = capsys.readouterr().out
    _W.set_data(Tensor(np.ones(2, np.float32)))
    jitted = ms.jit(_prints, capture_mode=mode, backend="GE")
    for _ in range(2):  # the compiled call and the cached one
        _W.set_data(Tensor(np.ones(2, np.float32)))
        np.testing.assert_allclose(jitted(x).asnumpy(), want_out)
        assert capsys.readouterr().out == want  # same lines, same values, same order
    np.testing.assert_allclose(_W.asnumpy(), [5.0, 5.0])
    assert jitted.stats.compiles_by_backend == {"GE": 1}


def _prints_in_a_branch(x):
    y = x * 2
    if y.sum() > 0:
        print("inside", y)  # the line the error names
    return y + 1


def test_a_print_inside_a_tensor_condition_is_refused_at_its_line():
    jitted = ms.jit(_prints_in_a_branch, capture_mode="ast", backend="GE")
    with pytest.raises(GeConversionError, match="inside a Tensor condition or loop") as info:
        jitted(Tensor(np.ones((2,), np.float32)))
    line = _prints_in_a_branch.__code__.co_firstlineno + 3
    assert f'{__file__}", line {line}' in str(info.value)
