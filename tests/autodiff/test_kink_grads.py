"""Gradients of piecewise ops at their kinks against MindSpore 2.10's
(tests/golden/kink_grads.json): relu's 0, relu6's 0 and 6, clamp's bounds,
hardswish's and hardsigmoid's -3 and 3, abs at 0, leaky_relu and elu at 0, a max
along an axis with ties (the first index takes it all), and the ops whose tie is
split (maximum, hardtanh, clip_by_value, a max over all elements). In PyNative
and, all cases in one function, in every capture mode at O0 and O1."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn, ops
import golden_cases
from modes import make

GOLDEN = golden_cases.load("kink_grads.json")
RELU, RELU6, HSWISH, HSIGMOID, LEAKY = (nn.ReLU(), nn.ReLU6(), nn.HSwish(), nn.HSigmoid(),
                                        nn.LeakyReLU(0.2))
W = Tensor(np.array([0.25], np.float32))
T2 = Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))

# the golden expressions, as functions of v (same order as in the file)
FNS = {
    "ops.relu(v)": lambda v: ops.relu(v),
    "ops.relu6(v)": lambda v: ops.relu6(v),
    "nn.ReLU()(v)": lambda v: RELU(v),
    "nn.ReLU6()(v)": lambda v: RELU6(v),
    "ops.clamp(v, 0.0, 6.0)": lambda v: ops.clamp(v, 0.0, 6.0),
    "ops.clamp(v, -1.0, 1.0)": lambda v: ops.clamp(v, -1.0, 1.0),
    "ops.clip_by_value(v, Tensor(-1.0), Tensor(1.0))":
        lambda v: ops.clip_by_value(v, Tensor(-1.0), Tensor(1.0)),
    "ops.hardtanh(v, -1.0, 1.0)": lambda v: ops.hardtanh(v, -1.0, 1.0),
    "ops.hardswish(v)": lambda v: ops.hardswish(v),
    "ops.hardsigmoid(v)": lambda v: ops.hardsigmoid(v),
    "nn.HSwish()(v)": lambda v: HSWISH(v),
    "nn.HSigmoid()(v)": lambda v: HSIGMOID(v),
    "ops.leaky_relu(v, 0.2)": lambda v: ops.leaky_relu(v, 0.2),
    "nn.LeakyReLU(0.2)(v)": lambda v: LEAKY(v),
    "ops.elu(v)": lambda v: ops.elu(v),
    "ops.abs(v)": lambda v: ops.abs(v),
    "ops.maximum(v, ops.full_like(v, 0.5))": lambda v: ops.maximum(v, ops.full_like(v, 0.5)),
    "ops.minimum(v, ops.full_like(v, 0.5))": lambda v: ops.minimum(v, ops.full_like(v, 0.5)),
    "ops.softshrink(v, 0.5)": lambda v: ops.softshrink(v, 0.5),
    "ops.hardshrink(v, 0.5)": lambda v: ops.hardshrink(v, 0.5),
    "ops.threshold(v, 0.5, 9.0)": lambda v: ops.threshold(v, 0.5, 9.0),
    "ops.prelu(v, Tensor(np.array([0.25], np.float32)))": lambda v: ops.prelu(v, W),
    "ops.amax(v)": lambda v: ops.amax(v),
    "ops.max(v)[0]": lambda v: ops.max(v)[0],
    "ops.ReduceMax()(v)": lambda v: ops.ReduceMax()(v),
    "ops.amin(-v)": lambda v: ops.amin(-v),
    "ops.max(v, axis=0)[0]": lambda v: ops.max(v, axis=0)[0],
    "ops.min(-v, axis=0)[0]": lambda v: ops.min(-v, axis=0)[0],
    "ops.ArgMaxWithValue()(v)[1]": lambda v: ops.ArgMaxWithValue()(v)[1],
    "ops.maximum(v, Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)))":
        lambda v: ops.maximum(v, T2),
    "v.max()": lambda v: v.max(),
}
CASES = GOLDEN["cases"]
PLAN = [(c["input"], FNS[c["expr"]]) for c in CASES]


def _input(name):
    return Tensor(np.array(GOLDEN["inputs"][name], np.float32))


def test_every_golden_expression_has_its_function():
    assert {c["expr"] for c in CASES} == set(FNS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['input']}:{c['expr']}")
def test_pynative_gradient_matches_mindspore(case):
    fn = FNS[case["expr"]]
    got = ms.grad(lambda v: fn(v).sum())(_input(case["input"]))
    np.testing.assert_allclose(got.asnumpy(), case["grad"], rtol=1e-5, atol=1e-7,
                               err_msg=case["expr"])


def all_grads(kinks, ties):
    return tuple(ms.grad(lambda v, fn=fn: fn(v).sum())(kinks if name == "kinks" else ties)
                 for name, fn in PLAN)


def test_jitted_gradients_match_mindspore(jit_mode):
    got = make(all_grads, jit_mode)(_input("kinks"), _input("ties"))
    for case, g in zip(CASES, got):
        np.testing.assert_allclose(g.asnumpy(), case["grad"], rtol=1e-5, atol=1e-7,
                                   err_msg=f"{jit_mode}: {case['expr']}")
