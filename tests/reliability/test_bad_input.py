"""Bad input: the error type MindSpore raises, a message that names the user's
line, and nothing broken afterwards.

Inside jit: wrong shapes and dtypes into layers and ops, unsupported syntax
under fullgraph=True, a function without source, a program's own ``raise``.
Outside: invalid ``jit`` / ``JitConfig`` / ``set_context`` arguments,
truncated or corrupted checkpoint files, checkpoints with missing or
mis-shaped Parameters. After each error the same jitted function still works
and no Parameter changed.
"""
import os
import traceback

import numpy as np
import pytest

import msxla as ms
from msxla import JitConfig, Parameter, Tensor, nn, ops
from msxla.errors import ConcretizationError, UnsupportedError
from modes import make

HERE = os.path.basename(__file__)


def full(*shape, v=1.0, dtype=np.float32):
    return Tensor(np.full(shape, v, dtype))


def line_of(fn, text):
    """The line number of the first line of ``fn`` holding ``text``."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def shown(err) -> str:
    """Everything the user sees: traceback, message and notes."""
    return "".join(traceback.format_exception(err))


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 4, weight_init="ones", bias_init="zeros")
        self.count = Parameter(full(1, v=0.0), name="count")

    def construct(self, x):
        ops.assign_add(self.count, full(1))
        y = x * 2
        return self.dense(y)


def test_wrong_shape_into_a_layer(jit_mode):
    net = Model()
    fn = make(net, jit_mode)
    with pytest.raises(ValueError, match="MatMul") as info:
        fn(full(2, 5))
    assert f'{HERE}", line {line_of(Model.construct, "self.dense(y)")}' in shown(info.value)
    assert float(net.count.asnumpy()[0]) == 0.0  # the write before the error did not happen
    assert fn(full(2, 3)).asnumpy().tolist() == [[6.0] * 4] * 2
    assert float(net.count.asnumpy()[0]) == 1.0


def bits(x, y):
    z = x + 1
    return ops.bitwise_and(z, y)


def test_wrong_dtype_into_an_op(jit_mode):
    fn = make(bits, jit_mode)
    with pytest.raises(TypeError, match="BitwiseAnd") as info:
        fn(full(2), full(2))
    assert f'{HERE}", line {line_of(bits, "bitwise_and")}' in str(info.value)
    ints = Tensor(np.array([1, 2], np.int32))
    assert fn(ints, ints).asnumpy().tolist() == [0, 2]


def contract(x, y):
    return ops.matmul(x, y)


def test_wrong_shapes_into_an_op(jit_mode):
    fn = make(contract, jit_mode)
    with pytest.raises(ValueError, match="MatMul") as info:
        fn(full(2, 3), full(2, 3))
    assert f'{HERE}", line {line_of(contract, "ops.matmul")}' in str(info.value)
    assert fn(full(2, 3), full(3, 2)).asnumpy().tolist() == [[3.0, 3.0]] * 2


def with_try(x):
    try:
        return x.asnumpy()
    except ValueError:
        return x


def tensor_branch(x):
    if x.sum() > 0:
        return x + 1
    return x


def to_numpy(x):
    return Tensor(x.asnumpy() + 1)


@pytest.mark.parametrize("mode, fn, exc, text", [
    ("ast-O0", with_try, UnsupportedError, "try:"),
    ("ast-O0", to_numpy, (AttributeError, UnsupportedError), "x.asnumpy()"),
    ("bytecode-O0", tensor_branch, UnsupportedError, "if x.sum() > 0:"),
    ("bytecode-O0", to_numpy, UnsupportedError, "x.asnumpy()"),
])
def test_unsupported_syntax_with_fullgraph(mode, fn, exc, text):
    jitted = make(fn, mode, fullgraph=True)
    for _ in range(2):  # the second call fails the same way (no half-built cache entry)
        with pytest.raises(exc) as info:
            jitted(full(1))
        assert f'{HERE}", line {line_of(fn, text)}' in str(info.value), str(info.value)
        assert text in str(info.value)


def test_function_without_source():
    """ast compiles from source: OSError (MindSpore's type) naming the calling line;
    trace and bytecode need no source."""
    namespace = {}
    exec("def generated(x):\n    return x + 1\n", namespace)  # noqa: S102
    fn = ms.jit(namespace["generated"], capture_mode="ast")
    with pytest.raises(OSError, match="source") as info:
        fn(full(1))
    assert f'{HERE}", line' in str(info.value)
    for mode in ("trace-O0", "bytecode-O0"):
        assert make(namespace["generated"], mode)(full(1)).asnumpy().tolist() == [2.0]


def test_raise_in_the_program(mode):
    """A program's own raise (Python condition): in jit the capture fails, so the
    write before it does not happen (PyNative has already written)."""
    w = Parameter(full(1, v=0.0), name="w")

    def step(x, n):
        ops.assign_add(w, x)
        if n < 0:
            raise ValueError("n must not be negative")
        return w * n
    fn = make(step, mode)
    with pytest.raises(ValueError, match="negative"):
        fn(full(1), -1)
    assert float(w.asnumpy()[0]) == (1.0 if mode == "pynative" else 0.0)
    assert float(fn(full(1), 2).asnumpy()[0]) == float(w.asnumpy()[0]) * 2


def test_raise_under_a_tensor_condition_in_strict_ast(capfd):
    """STRICT ast stages the raise in the graph: it surfaces as a RuntimeError holding
    the user's exception, the graph's writes are dropped, later calls work."""
    w = Parameter(full(1, v=0.0), name="w")

    def step(x):
        ops.assign_add(w, x)
        if x.sum() > 5:
            raise ValueError("too big")
        return w * 1
    fn = ms.jit(step, capture_mode="ast", fullgraph=True)
    assert float(fn(full(1)).asnumpy()[0]) == 1.0
    with pytest.raises(RuntimeError, match="too big"):
        fn(full(1, v=10.0))
    assert float(w.asnumpy()[0]) == 1.0
    assert float(fn(full(1)).asnumpy()[0]) == 2.0
    capfd.readouterr()


def test_trace_concretization_leaves_everything_usable():
    w = Parameter(full(1, v=0.0), name="w")

    def step(x, flag):
        ops.assign_add(w, x)
        if flag and x.sum() > 0:
            return w + 1
        return w - 1
    fn = ms.jit(step, capture_mode="trace")
    with pytest.raises(ConcretizationError) as info:
        fn(full(1), True)
    assert f'{HERE}", line {line_of(step, "if flag and")}' in str(info.value)
    assert float(w.asnumpy()[0]) == 0.0
    assert float(fn(full(1), False).asnumpy()[0]) == 0.0 and float(w.asnumpy()[0]) == 1.0


@pytest.mark.parametrize("call, exc, pattern", [
    (lambda: ms.jit(bits, capture_mode="graph"), ValueError, "'capture_mode' must be str"),
    (lambda: ms.jit(bits, jit_level=0), ValueError, "'jit_level' must be str"),
    (lambda: ms.jit(bits, dynamic=True), ValueError, "'dynamic' must be in range"),
    (lambda: ms.jit(bits, fullgraph="yes"), TypeError, "'fullgraph' must be a bool"),
    (lambda: ms.jit(bits, backend=3), TypeError, "'backend' must be str"),
    (lambda: ms.jit(3), TypeError, "must be a function, method or Cell"),
    (lambda: JitConfig(jit_level="O3"), ValueError, "jit_level"),
    (lambda: JitConfig(jit_syntax_level="LOOSE"), ValueError, "jit_syntax_level"),
    (lambda: JitConfig(exc_mode="fast"), ValueError, "exc_mode"),
    (lambda: ms.set_context(mode=5), ValueError, "'mode'"),
    (lambda: ms.set_context(jit_syntax_level="X"), ValueError, "jit_syntax_level"),
    (lambda: ms.set_context(device_target="TPU"), ValueError, "'device_target'"),
    (lambda: ms.set_context(no_such_option=1), ValueError, "no_such_option"),
])
def test_invalid_jit_jitconfig_and_context_arguments(call, exc, pattern):
    with pytest.raises(exc, match=pattern) as info:
        call()
    frames = traceback.extract_tb(info.tb)
    assert any(f.filename == __file__ and "call()" in f.line for f in frames)
    assert ms.get_context("mode") == ms.PYNATIVE_MODE  # a refused setting changed nothing


def test_backend_error_then_the_function_still_works_with_a_valid_backend():
    fn = ms.jit(contract, backend="no_such_backend")
    with pytest.raises(RuntimeError, match="Invalid backend name"):
        fn(full(2, 3), full(3, 2))
    assert ms.jit(contract)(full(2, 3), full(3, 2)).shape == (2, 2)
