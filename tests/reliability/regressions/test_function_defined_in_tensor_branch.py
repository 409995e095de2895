"""Regression found by the differential check: a function defined in a Tensor ``if``

ast capture raised "the branches of a Tensor `if` keep changing": a helper
function (and a loop variable) defined in a branch and not used after it were
branch outputs, and each trace made a new function object, so the plan never
settled. Fixed in ``msxla/capture/ast/plan.py`` (variables dead after the
construct are not handed on).
"""
from differential import check_program
from program import Call, Program

SOURCE = '''\
"""Generated program."""
import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

DT = "float32"
B = 2
G0 = 0.5
G1 = 1
NET = None
SET_SCALE = None


def _init(seed, shape):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(DT))


W0 = Parameter(_init(100, (B,)), name="W0")
W1 = Parameter(_init(101, (B,)), name="W1")


def state():
    out = {"W0": W0, "W1": W1}
    if NET is not None:
        out.update({"NET." + k: p for k, p in NET.parameters_and_names()})
    return out


def make_prog():
    scale = 1.0

    def prog(x, y, n, c):
        a, b = c
        t1 = ops.abs(ops.clamp(x, -3.0, 3.0))
        x = ops.abs(ops.clamp(x, -3.0, 3.0))
        x = ops.stack([x, x]).mean(0)
        while ops.abs(y).sum() < 5.0:
            y = ops.abs(y) * 1.5 + 0.5
        if x.sum() > -0.37:
            for row4 in x:
                x = x + ops.tanh(row4)
            x = ops.stack([x, x]).mean(0)
            def inner5(z):
                return z * 1.5 + a
            y = inner5(x)
        return (t1 * t1).mean() + ops.tanh(t1).sum() * 0.1

    def set_scale(v):
        nonlocal scale
        scale = v

    return prog, set_scale


def make_entry(jit):
    global NET, SET_SCALE
    prog, SET_SCALE = make_prog()
    return ms.value_and_grad(jit(prog), (0, 1), [W0, W1])
'''

PROGRAM = Program(SOURCE, calls=(
    Call(shape=(2, 2), seed=524288, n=1, changes=()),
    Call(shape=(2, 2), seed=301, n=1, changes=(('closure', 0.25),)),
), dtype='float32', container='tuple')


def test_function_defined_in_tensor_branch():
    check_program(PROGRAM)
