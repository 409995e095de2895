"""Shared capture-mode suite: lambdas and nested functions. Lambdas are found
by their code object: several on one source line (or a ``def`` and a lambda)
each run their own body, jitted directly or called from a jitted function. A
nested function closing over a Tensor changed in place survives a graph
break (bytecode rebuilds it after the graph piece)."""
import numpy as np

from msxla import Tensor
from agree import Program, agree
from modes import make

FA, FB = (lambda x: x + 100), (lambda x: x * -1)
G1, G2 = (lambda x: x + 1), (lambda x, y: x * y - 2)
OUTER = lambda x: (lambda y: y * 3)(x) + 1  # noqa: E731
FS = [lambda x, k=k: x * k + 0.5 for k in range(3)]
OPS = {"sub": lambda x: x - 1, "double": lambda x: x * 2}
COND, PLAIN = (lambda x: x * 2 if x.sum() > 0 else x - 7), (lambda x: x / 4)


def with_lambda(x): return (lambda y: y + 0.25)(x) * 2  # noqa: E704


def use_lambdas(x):
    return (FA(x), FB(x), G1(x), G2(x, x), OUTER(x), FS[2](x), OPS["double"](x),
            OPS["sub"](x), COND(x), PLAIN(x), with_lambda(x))


def build_use_lambdas():
    x, neg = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([-3.0, 1.0], np.float32))
    return Program(use_lambdas, [(x,), (neg,)], {"x": x})


def test_lambdas_called_from_a_jitted_function(any_mode):
    agree(any_mode, build_use_lambdas, tensor_control=True)


def test_jit_of_a_lambda_runs_its_own_body(jit_mode):
    x = Tensor(np.array([1.0, 2.0], np.float32))
    for fn, expected in ((FB, [-1.0, -2.0]), (FA, [101.0, 102.0]), (PLAIN, [0.25, 0.5]),
                         (OPS["sub"], [0.0, 1.0])):
        np.testing.assert_allclose(make(fn, jit_mode)(x).asnumpy(), expected)
    np.testing.assert_allclose(make(G2, jit_mode)(x, x).asnumpy(), [-1.0, 2.0])


BASE = None


def closure_over_changed_copy(x):
    g = BASE.copy()
    g.add_(1.0)
    h = BASE * 1
    h[0] = 5.0

    def inner(y):
        return y + g

    k = lambda y: y * h  # noqa: E731
    if x.sum() > 0:          # a graph break in bytecode: inner and k are rebuilt after it
        x = x * 2
    print("x", x)             # another break (a print of a graph value)
    return inner(x), k(x), g, h


def build_closures():
    global BASE
    BASE = Tensor(np.array([0.5, 1.0], np.float32))
    x, neg = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([-3.0, 1.0], np.float32))
    return Program(closure_over_changed_copy, [(x,), (neg,), (x,)],
                   {"x": x, "BASE": lambda: BASE})


def test_nested_functions_over_changed_tensors(any_mode, capfd):
    agree(any_mode, build_closures, tensor_control=True)
