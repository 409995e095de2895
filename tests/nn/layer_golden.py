"""Shared checks of the nn layer goldens (``tests/golden/make_nn_*.py``).

A case builds the same Cell with msxla, sets the stored Parameter values,
calls it on the stored inputs (under value_and_grad) and compares the
outputs, the Parameters after the call and the gradients with respect to the
inputs and the trainable Parameters with MindSpore's.
"""
import json
import os
import sys

import numpy as np

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_nn_layers  # noqa: E402


def load(name):
    with open(os.path.join(GOLDEN, name)) as fh:
        return json.load(fh)


def decode(tree):
    if isinstance(tree, dict) and set(tree) == {"dtype", "shape", "value"}:
        return np.asarray(tree["value"], dtype=tree["dtype"]).reshape(tree["shape"])
    if isinstance(tree, dict):
        return {k: decode(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [decode(v) for v in tree]
    return tree


def close(actual, expected, what, rtol=2e-4, atol=2e-5):
    actual = np.asarray(actual)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if expected.dtype.kind in "iub":
        np.testing.assert_array_equal(actual, expected, err_msg=what)
    else:
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


def check_case(data, name, mode, cases=None, rtol=2e-4, atol=2e-5):
    """Run case ``name`` with msxla (``mode``: 'eager' or 'jit') against its golden."""
    case = data["cases"][name]
    inputs, golden = decode(case["data"]), decode(case["result"])
    mine = make_nn_layers.run_case(ms, name, inputs, mode, cases=cases)
    assert mine["param_names"] == golden["param_names"]
    assert len(mine["out"]) == len(golden["out"])
    for i, (a, e) in enumerate(zip(mine["out"], golden["out"])):
        close(a, e, f"{name} output {i}", rtol, atol)
    for pname, e in golden["state"].items():
        close(mine["state"][pname], e, f"{name} {pname} after the call", rtol, atol)
    if golden["grads_in"] is None:  # MindSpore's CPU build has no such gradient
        return
    assert len(mine["grads_in"]) == len(golden["grads_in"])
    for i, (a, e) in enumerate(zip(mine["grads_in"], golden["grads_in"])):
        close(a, e, f"{name} grad of input {i}", rtol=max(rtol, 1e-3), atol=max(atol, 1e-4))
    assert sorted(mine["grads_w"]) == sorted(golden["grads_w"])
    for pname, e in golden["grads_w"].items():
        close(mine["grads_w"][pname], e, f"{name} grad of {pname}", rtol=max(rtol, 1e-3),
              atol=max(atol, 1e-4))


def check_error(data, code):
    expected = data["errors"][code]
    got = make_nn_layers.run_error(ms, code)
    assert got["exc"] == expected["exc"], (code, got)
    assert got["message"] == expected["message"], code


def check_repr(data, code):
    expected = data["reprs"][code]
    got = make_nn_layers.describe(ms, code)
    assert got["params"] == expected["params"]
    assert got["repr"] == expected["repr"]


def check_signature(data, cls_name):
    assert make_nn_layers.signature(ms, cls_name) == data["signatures"][cls_name]
