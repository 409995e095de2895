"""Found by the differential check (seed 2): a gradient differed at O1.

In every capture mode at O1 (not at O0), the gradient of this program with respect
to its second argument had 0.0 where PyNative gives 0.1668. XLA recomputed the
operand of ``ops.hypot``'s internal min/max in two fusions that rounded it
differently (an FMA contracted one way in one kernel, the other way in the
other), and jax's max/min derivative routes the tangent by testing the operand
bitwise against the result, so neither side got it. Fixed by
``msxla/_max_min_jvp.py`` (the winner is decided by comparing the operands).
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


def _helper0(u, v):
    dct1 = {'u': u, 'v': v}
    dct1['w'] = dct1['u'] + 1.0
    u = dct1['w'] - dct1['v']
    lst3 = [u]
    lst3.append(u * 0.5)
    t2 = lst3[0] + lst3[-1]
    t4 = ops.abs(ops.clamp(u, -3.0, 3.0))
    return u + v


helper0 = _helper0


def make_prog():
    scale = 1.0

    def prog(x, y, n, c):
        a, b = c
        a = a * ops.tanh(a.max())
        a += ops.stack([b, y]).mean(0)
        y = helper0(x, b)
        for i2, item3 in enumerate([y, b]):
            x = x + item3 * i2
            for row4 in b:
                b = b + ops.tanh(row4)
            k5 = 0
            while k5 < 2:
                x = ops.hypot(ops.clamp(x, -3.0, 3.0), ops.clamp(a, -3.0, 3.0))
                def inner6(z):
                    return z * i2 + y
                a = inner6(b)
                k5 += 1
        t0 = x + y
        return (t0 * t0).mean() + ops.tanh(b).sum() * 0.1

    def set_scale(v):
        nonlocal scale
        scale = v

    return prog, set_scale


def make_entry(jit):
    global NET, SET_SCALE
    prog, SET_SCALE = make_prog()
    return jit(ms.value_and_grad(prog, (0, 1), [W0, W1]))
'''

PROGRAM = Program(SOURCE, calls=(
    Call(shape=(1, 2), seed=601964, n=1, changes=()),
    Call(shape=(1, 2), seed=146, n=1, changes=(('param', 'W0', 60),)),
), dtype='float32', container='tuple')


def test_o1_gradient_through_hypot_and_max():
    check_program(PROGRAM)
