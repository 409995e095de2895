"""Regression found by the differential check: bytecode, nested while loops with
a Tensor condition in the outer one. The pair ``tup4 = (x, x)`` the inner loop
builds is live at the break; its item, read by ``tup4[0]``, was taken for a
Tensor from outside and baked into the piece's recipe holding a tracer of the
capture, so the calls after the first raised "a compiled graph rejected its
inputs". A Tensor holding a value of the graph is never outside state
(``capture/bytecode/tracking.py``); reduced cases are in
``tests/jit/test_capture_break_state.py``.

Found by long_run.py --seed 2312.
"""
import pytest

from differential import check_program
from program import Call, Program

SOURCE = '''\
"""Generated program."""
import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

DT = "float64"
B = 3
G0 = 0.5
G1 = 1
NET = None
SET_SCALE = None


def _init(seed, shape):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(DT))


W0 = Parameter(_init(100, (B,)), name="W0")
W1 = Parameter(_init(101, (B,)), name="W1")
W2 = Parameter(_init(103, (B + 1,)), name="W2")
T0 = _init(102, (B,))
L0, L1 = (lambda z: z * 0.5 + G0), (lambda z: ops.tanh(z) - G0)


def state():
    out = {"W0": W0, "W1": W1, "W2": W2, "T0": T0}
    if NET is not None:
        out.update({"NET." + k: p for k, p in NET.parameters_and_names()})
        out["NET.t"] = NET.t
    return out


def _helper0(u, v):
    for i2, item3 in enumerate([v, v]):
        v = v + item3 * i2
        v *= ops.tanh(v)
    return u + v


helper0 = _helper0


class Sub(nn.Cell):
    def __init__(self, seed):
        super().__init__()
        self.w = Parameter(_init(seed, (B,)), name="w")
        self.k = 0.5

    def construct(self, u):
        return ops.tanh(u * self.w) + self.k


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 1.0
        self.flag = True
        self.t = _init(18, (B,))
        self.w = Parameter(_init(11, (B,)), name="w")
        self.sub = Sub(12)
        self.layers = nn.CellList([Sub(13), Sub(14)])
        self.seq = nn.SequentialCell([Sub(15), nn.Tanh()])

    def construct(self, x, y, n, c):
        a, b = c
        k1 = 0
        while k1 < 2:
            b = ops.atanh((ops.tanh(a) * 0.9))
            pj2 = W1
            if not (y.max() > 0.13):
                pj2 = ops.tanh(y.mean(axis=(0, 1)))
            y = y * pj2 + 1.0
            k3 = 0
            while k3 < 3:
                tup4 = (x, x)
                x = tup4[0] * 0.5 + tup4[1]
                b.mul_(0.5)
                k3 += 1
            k1 += 1
        k6 = 0
        while k6 < n:
            for cell7 in self.layers:
                x = cell7(x)
            for row8 in b:
                b = b + ops.sigmoid(row8)
            k6 += 1
        ops.assign(self.sub.w, ops.tanh(self.sub.w + a.mean(axis=(0, 1))))
        dct10 = {'u': x, 'v': b}
        dct10['w'] = dct10['u'] + 1.0
        t9 = dct10['w'] - dct10['v']
        ops.assign_sub(self.sub.w, ops.sin(y).mean(axis=(0, 1)) * 0.05)
        return (t9, n)


def make_entry(jit):
    global NET, SET_SCALE
    global helper0
    helper0 = jit(_helper0)
    NET = Net()
    return jit(NET)
'''

PROGRAM = Program(SOURCE, calls=(
    Call(shape=(3, 2, 3), seed=37441, n=1, changes=()),
    Call(shape=(3, 2, 3), seed=344, n=1, changes=(('param', 'NET.w', 259),)),
    Call(shape=(2, 2, 3), seed=2541, n=1, changes=()),
    Call(shape=(2, 2, 3), seed=200, n=1, changes=(('attr', 'k', 0.5), ('param', 'NET.w', 112))),
    Call(shape=(2, 2, 3), seed=200, n=1, changes=(('attr', 'k', 0.5), ('param', 'NET.w', 112))),
), dtype='float64', container='list')


@pytest.mark.slow
def test_bytecode_inplace_in_nested_while():
    check_program(PROGRAM)
