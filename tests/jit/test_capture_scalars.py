"""Shared capture-mode suite: Python scalars inside graphs. ``float(t)`` /
``int(t)`` of a graph Tensor is a variable scalar that promotes like the
Python scalar (MindSpore 2.10's results in tests/golden/fidelity.json); a
scalar argument used as a shape stays a constant past the recompile brake."""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import ops
from msxla.errors import ConcretizationError
from agree import Program, agree
from modes import make
from scalar_cases import VARIABLE_SCALARS_INPUT, variable_scalars

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "fidelity.json")))


def compute_variable_scalars(x):
    return variable_scalars(ms, x)


def check_variable_scalars(mode, golden):
    x = ms.Tensor(np.array(VARIABLE_SCALARS_INPUT, np.float32))
    fn = make(compute_variable_scalars, mode)
    if mode.startswith("trace"):
        with pytest.raises(ConcretizationError):  # float(t) of a graph Tensor (documented)
            fn(x)
        return
    for i, (got, want) in enumerate(zip(fn(x), GOLDEN["variable_scalars"][golden])):
        assert str(got.dtype) == want["dtype"], (i, got.dtype, want)
        np.testing.assert_allclose(got.asnumpy(), want["value"], err_msg=str(i))


def test_variable_scalars_promote_like_python_scalars(any_mode):
    check_variable_scalars(any_mode, "graph")


def test_python_scalars_in_pynative():
    check_variable_scalars("pynative", "pynative")


def shape_uses(x, n):
    """A Python int argument used as a shape (and as a number): after the recompile
    brake's third value it would be a graph input, which a shape cannot be."""
    a = x.reshape(n, -1).sum(0)
    b = ops.tile(x, (n, 1)).sum(0) + ops.ones((n + 1, 4)).sum(0)
    return a.sum() + b * n + ops.zeros(n, ms.float32).sum()


def build_shape_uses():
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    return Program(shape_uses, [(x, n) for n in (1, 2, 4, 1, 2)], {"x": x})


def test_scalar_used_as_a_shape_stays_static(any_mode):
    agree(any_mode, build_shape_uses)
