"""ast compile errors: each names the user's file and line, shows the line with a
caret under the construct, says what went wrong in MindSpore's words, and what to
change; each is the builtin exception type MindSpore raises."""
import numpy as np
import pytest
from ast_helpers import assert_user_error, line_of

import msxla as ms
from msxla import Tensor, ops

HERE = __file__


def t(*v):
    return Tensor(np.array(v, np.float32))


def with_try(x):
    try:
        y = x + 1
    except ValueError:
        y = x
    return y


def test_try_under_fullgraph():
    with pytest.raises(RuntimeError) as info:
        ms.jit(with_try, fullgraph=True)(t(1.0))
    assert_user_error(info.value, RuntimeError, HERE, line_of(with_try, "try:"), "try:",
                      "Unsupported statement 'Try': try/except is not supported in graph "
                      "mode with fullgraph=True", caret="try:")
    assert "move it out of the jitted function, or use fullgraph=False" in str(info.value)
    assert ms.jit(with_try)(t(1.0)).asnumpy().tolist() == [2.0]  # LAX: runs as Python


def with_set(x):
    s = {k for k in range(3)}
    return x * len(s)


def with_del(x):
    y = x + 1
    del y
    return x


def test_other_statements_under_fullgraph():
    with pytest.raises(RuntimeError) as info:
        ms.jit(with_set, fullgraph=True)(t(1.0))
    assert_user_error(info.value, RuntimeError, HERE, line_of(with_set, "s = {"),
                      "s = {k for k in range(3)}", "Unsupported expression 'SetComp'",
                      caret="{k for k in range(3)}")
    with pytest.raises(RuntimeError) as info:
        ms.jit(with_del, fullgraph=True)(t(1.0))
    assert_user_error(info.value, RuntimeError, HERE, line_of(with_del, "del y"), "del y",
                      "Unsupported statement 'Delete'", caret="del y")
    assert ms.jit(with_set)(t(1.0)).asnumpy().tolist() == [3.0]
    assert ms.jit(with_del)(t(1.0)).asnumpy().tolist() == [1.0]


def generator(x):
    yield x


def test_generator_is_refused_at_every_level():
    for fullgraph in (False, True):
        with pytest.raises(RuntimeError) as info:
            ms.jit(generator, fullgraph=fullgraph)(t(1.0))
        assert_user_error(info.value, RuntimeError, HERE, line_of(generator, "yield"),
                          "yield x", "Unsupported expression 'Yield'", caret="yield x")


def reads_numpy(x):
    y = x * 2
    return Tensor(np.sin(y.asnumpy()))


def test_value_needed_under_fullgraph():
    with pytest.raises(RuntimeError) as info:
        ms.jit(reads_numpy, fullgraph=True)(t(1.0))
    assert_user_error(info.value, RuntimeError, HERE, line_of(reads_numpy, "asnumpy"),
                      "return Tensor(np.sin(y.asnumpy()))",
                      "(fullgraph=True): asnumpy needs the value of a Tensor",
                      caret="y.asnumpy()")
    assert "use fullgraph=False" in str(info.value)


def dtype_join(x):
    if x.sum() > 0:
        y = x + 1
    else:
        y = ops.ones((2,), ms.int32)
    return y


def shape_join(x):
    if x.sum() > 0:
        y = x + 1
    else:
        y = ops.ones((3,), ms.float32)
    return y


def test_branches_that_do_not_join_name_both_lines():
    with pytest.raises(TypeError) as info:
        ms.jit(dtype_join)(t(1.0, 2.0))
    msg = str(info.value)
    assert_user_error(info.value, TypeError, HERE, line_of(dtype_join, "y = x + 1"),
                      "y = x + 1", "Cannot join the values of 'y' from the two branches of a "
                      "Tensor condition (Type Join Failed): Tensor[Float32] shape (2,) in the "
                      "true branch and Tensor[Int32] shape (2,) in the false branch")
    assert f'File "{HERE}", line {line_of(dtype_join, "ops.ones")}' in msg
    with pytest.raises(ValueError) as info:
        ms.jit(shape_join)(t(1.0, 2.0))
    assert_user_error(info.value, ValueError, HERE, line_of(shape_join, "ops.ones"),
                      "y = ops.ones((3,), ms.float32)", "(Shape Join Failed)",
                      caret="y = ops.ones((3,), ms.float32)")


def return_join(x):
    if x.sum() > 0:
        return x + 1
    return ops.ones((2,), ms.int32)


def test_return_values_that_do_not_join_use_mindspores_words():
    with pytest.raises(TypeError) as info:
        ms.jit(return_join, capture_mode="ast")(t(1.0, 2.0))
    assert "Cannot join the return values of different branches of a Tensor condition " \
           "(Type Join Failed)" in str(info.value)


def one_sided(x):
    if x.sum() > 0:
        y = x + 1
    return y


def one_sided_unused(x):
    if x.sum() > 0:
        y = x + 1  # noqa: F841 - defined in one branch, never read
    return x


def test_variable_defined_in_one_branch():
    with pytest.raises(UnboundLocalError) as info:
        ms.jit(one_sided)(t(1.0))
    assert_user_error(info.value, UnboundLocalError, HERE, line_of(one_sided, "y = x + 1"),
                      "y = x + 1", "The local variable 'y' is not defined in false branch, "
                      "but defined in true branch")
    assert ms.jit(one_sided_unused)(t(-1.0)).asnumpy().tolist() == [-1.0]


def loop_changes_shape(x):
    while x.sum() < 10:
        x = ops.concat((x, x))
    return x


def loop_defines(x):
    while x.sum() < 10:
        z = x * 2
        x = x + 1
    return z


def test_graph_loop_errors():
    with pytest.raises(ValueError) as info:
        ms.jit(loop_changes_shape)(t(1.0))
    assert_user_error(info.value, ValueError, HERE, line_of(loop_changes_shape, "concat"),
                      "x = ops.concat((x, x))", "The variable 'x' changes from Tensor[Float32] "
                      "shape (1,) before the loop to Tensor[Float32] shape (2,) in its body")
    with pytest.raises(UnboundLocalError) as info:
        ms.jit(loop_defines)(t(1.0))
    assert_user_error(info.value, UnboundLocalError, HERE, line_of(loop_defines, "z = x * 2"),
                      "z = x * 2", "has no value before the loop")


def returns_sometimes(x):
    if x.sum() > 0:
        return x


def test_value_on_some_paths_only():
    with pytest.raises(RuntimeError) as info:
        ms.jit(returns_sometimes)(t(1.0))
    assert "returns a value on some paths and falls off its end" in str(info.value)
    assert f'File "{HERE}"' in str(info.value)


def appends_in_branch(x, acc):
    if x.sum() > 0:
        acc.append(x)
    return x + len(acc)


def test_list_changed_under_a_tensor_condition():
    with pytest.raises(RuntimeError) as info:
        ms.jit(appends_in_branch, fullgraph=True)(t(1.0), [])
    assert_user_error(info.value, RuntimeError, HERE, line_of(appends_in_branch, "if x.sum"),
                      "if x.sum() > 0:", "A list or dict is changed")
    acc = []
    out = ms.jit(appends_in_branch)(t(1.0), acc)  # LAX: the function runs in Python
    assert out.asnumpy().tolist() == [2.0] and len(acc) == 1


def test_source_not_available():
    namespace = {}
    exec("def typed(x):\n    return x + 1\n", namespace)  # noqa: S102 - no source file
    with pytest.raises(OSError) as info:
        ms.jit(namespace["typed"])(t(1.0))
    msg = str(info.value)
    assert "could not get the source code of 'typed'" in msg
    assert "must be defined in a .py file" in msg and "capture_mode='trace'" in msg


def bad_matmul(x):
    if x.sum() > 0:
        y = ops.matmul(x, ops.ones((3, 3), ms.float32))
    else:
        y = x
    return y


def test_op_errors_point_at_the_users_line():
    with pytest.raises(ValueError) as info:
        ms.jit(bad_matmul)(Tensor(np.ones((2, 2), np.float32)))
    assert f'File "{HERE}", line {line_of(bad_matmul, "ops.matmul")}' in str(info.value)


def raises_when_negative(x):
    if x.sum() < 0:
        raise ValueError("negative input")
    return x + 1


def asserts_positive(x):
    assert x.sum() > 0, "needs a positive sum"
    return x * 2


def test_raise_under_a_tensor_condition_raises_when_taken():
    """As in MindSpore, a ``raise`` (or ``assert``) under a Tensor condition raises only
    when the graph takes that branch. LAX runs the function in Python (PyNative's exact
    exception); STRICT raises from the graph (a RuntimeError holding the message)."""
    lax_raise, lax_assert = ms.jit(raises_when_negative), ms.jit(asserts_positive)
    assert lax_raise(t(1.0)).asnumpy().tolist() == [2.0]
    with pytest.raises(ValueError, match="negative input"):
        lax_raise(t(-1.0))
    assert lax_assert(t(1.0)).asnumpy().tolist() == [2.0]
    with pytest.raises(AssertionError, match="needs a positive sum"):
        lax_assert(t(-1.0))
    strict_raise = ms.jit(raises_when_negative, fullgraph=True)
    assert strict_raise(t(1.0)).asnumpy().tolist() == [2.0]
    with pytest.raises(RuntimeError, match="negative input"):
        strict_raise(t(-1.0))
    strict_assert = ms.jit(asserts_positive, fullgraph=True)
    assert strict_assert(t(3.0)).asnumpy().tolist() == [6.0]
    with pytest.raises(RuntimeError, match="needs a positive sum"):
        strict_assert(t(-3.0))
    assert strict_raise.stats.captures == 1


def raises_on_shape(x):
    if x.shape[0] == 1:
        raise ValueError("one element")
    return x


def test_raise_under_a_python_condition_is_a_compile_time_raise():
    with pytest.raises(ValueError, match="one element"):
        ms.jit(raises_on_shape, fullgraph=True)(t(1.0))
    assert ms.jit(raises_on_shape)(t(1.0, 2.0)).asnumpy().tolist() == [1.0, 2.0]
