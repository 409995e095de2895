"""Optimizer Primitives against MindSpore 2.10 (tests/golden/make_optim_prims.py): the
Parameters after one call, eagerly and in a jitted step. Where MindSpore's CPU kernel has
none (FusedWeightScaleApplyMomentum) or leaves out the documented Nesterov step
(ApplyMomentum), the reference is the documented formula in numpy."""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor
from msxla.ops import operations as P

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "optim_prims.json")))
W, M, V, G = (np.array(GOLDEN[k], np.float32) for k in "wmvg")
CALLS = {
    "AdamWeightDecay": lambda p, var, m, v: p(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.1, Tensor(G)),
    "Adam": lambda p, var, m, v: p(var, m, v, 0.9 ** 3, 0.999 ** 3, 0.01, 0.9, 0.999, 1e-8,
                                   Tensor(G)),
    "ApplyMomentum": lambda p, var, m, v: p(var, m, Tensor(np.float32(0.1)), Tensor(G),
                                            Tensor(np.float32(0.9))),
    "FusedWeightScaleApplyMomentum": lambda p, var, m, v: p(
        Tensor(np.float32(0.01)), Tensor(np.float32(0.5)), var, m, Tensor(np.float32(0.1)),
        Tensor(G), Tensor(np.float32(0.9))),
}


def _documented(name, attrs):
    if name == "FusedWeightScaleApplyMomentum":
        acc = M * 0.9 + G * 0.5 + W * 0.01
        return {"var": W - 0.1 * acc, "m": acc, "v": V}
    acc = M * 0.9 + G  # ApplyMomentum, Nesterov
    return {"var": W - 0.1 * (G + 0.9 * acc), "m": acc, "v": V}


@pytest.mark.parametrize("jitted", [False, True])
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["name"] + str(c["attrs"]))
def test_optimizer_primitive(case, jitted):
    var, m, v = (Parameter(Tensor(a), n) for a, n in ((W, "var"), (M, "m"), (V, "v")))
    prim = getattr(P, case["name"])(**case["attrs"])
    call = CALLS[case["name"]]
    if jitted:
        ms.jit(lambda: call(prim, var, m, v), capture_mode="trace")()
    else:
        call(prim, var, m, v)
    documented = "error" in case or (case["name"] == "ApplyMomentum"
                                     and case["attrs"].get("use_nesterov"))
    want = _documented(case["name"], case["attrs"]) if documented else case
    for got, key in ((var, "var"), (m, "m"), (v, "v")):
        np.testing.assert_allclose(got.asnumpy(), np.array(want[key], np.float32), rtol=1e-5,
                                   atol=1e-6, err_msg=key)
