"""``set_device``, ``set_deterministic``, ``get_current_device``,
``set_recursion_limit`` and the strategy-search parameters against MindSpore
2.10 (tests/golden/runtime_names.json); ``manual_seed`` / ``get_rng_state`` /
``set_rng_state`` replay the same random numbers."""
import builtins
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import device_manager, ops, parallel
from msxla.common import generator

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "golden",
                                     "runtime_names.json")))["cases"]


@pytest.fixture(autouse=True)
def _restore():
    target, det = ms.get_context("device_target"), ms.get_context("deterministic")
    yield
    ms.set_context(device_target=target, deterministic=det)
    parallel.reset_algo_parameters()


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: c["code"][:60])
def test_matches_mindspore(case):
    ns = {"ms": ms, "parallel": parallel, "device_manager": device_manager}
    *stmts, last = case["code"].split("; ")
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"])):
            for s in stmts:
                exec(s, ns)  # noqa: S102
            eval(last, ns)  # noqa: S307
        return
    for s in stmts:
        exec(s, ns)  # noqa: S102
    assert repr(eval(last, ns)) == case["repr"]  # noqa: S307


def test_manual_seed_and_rng_state_replay():
    ms.manual_seed(7)
    first = ops.rand(4).asnumpy()
    state = ms.get_rng_state()
    after = ops.rand(4).asnumpy()
    ms.manual_seed(7)
    assert np.array_equal(ops.rand(4).asnumpy(), first)
    generator.set_rng_state(state)
    assert np.array_equal(ops.rand(4).asnumpy(), after)
    assert not np.array_equal(first, after)
    assert generator.initial_seed() == 7
    with pytest.raises(TypeError):
        ms.manual_seed(1.5)
    with pytest.raises(ValueError):
        ms.set_rng_state(ms.Tensor(np.zeros(3, np.uint32)))
