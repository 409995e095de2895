"""Regression found by the differential check: a global read by f under jit(value_and_grad(f))

``jit(value_and_grad(prog))`` with the global ``G0`` changed between calls
returned the first call's values in every mode: the function jit received was
msxla's, so ``prog``'s globals were never guarded. Fixed in
``msxla/capture/discover.py`` (closures of msxla-made functions are walked).
"""
from differential import check_program
from program import Call, Program

SOURCE = '''\
import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

NET = None
G0 = 0.5


def state():
    out = {}
    if NET is not None:
        out.update({"NET." + k: p for k, p in NET.parameters_and_names()})
    return out


def prog(x, y, n, c):
    return (x * G0 + y).sum() + c[0].mean()


def make_entry(jit):
    return jit(ms.value_and_grad(prog, (0, 1)))
'''

PROGRAM = Program(SOURCE, calls=(
    Call(shape=(2, 2), seed=1, n=0, changes=()),
    Call(shape=(2, 2), seed=1, n=0, changes=(('global', 'G0', 2.0),)),
), dtype='float32', container='tuple')


def test_global_read_under_jit_of_value_and_grad():
    check_program(PROGRAM)
