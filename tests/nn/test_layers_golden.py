"""nn layers and losses against MindSpore 2.10 (goldens from ``tests/golden/make_nn_layers.py``).

Each case builds the same Cell with msxla, sets the stored Parameter values,
calls it on the stored inputs (under value_and_grad) and compares the
outputs, the Parameters after the call (BatchNorm moving statistics) and the
gradients with respect to the inputs and the trainable Parameters. Constructor signatures, reprs,
Parameter names and the exceptions of invalid calls are compared too.
"""
import inspect
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_nn_layers  # noqa: E402

with open(os.path.join(GOLDEN, "nn_layers.json")) as fh:
    DATA = json.load(fh)


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


# These cases run eagerly, the others under ms.jit (one compiled graph instead of one
# per op keeps the file fast; the eager and jitted paths run the same Cell code).
EAGER = {"dense_3d_relu", "conv2d_same", "convT_pad_outpad", "bn2d_train", "layernorm",
              "groupnorm", "embedding", "maxpool2d_pad_indices", "avgpool2d_pad", "gelu_tanh",
              "mha", "ce_indices", "sce_sparse_mean", "bce_logits"}


@pytest.mark.parametrize("name", sorted(DATA["cases"]))
def test_layer_matches_mindspore(name):
    case = DATA["cases"][name]
    data, golden = decode(case["data"]), decode(case["result"])
    mine = make_nn_layers.run_case(ms, name, data, "eager" if name in EAGER else "jit")
    assert mine["param_names"] == golden["param_names"]
    assert len(mine["out"]) == len(golden["out"])
    for i, (a, e) in enumerate(zip(mine["out"], golden["out"])):
        close(a, e, f"{name} output {i}")
    for pname, e in golden["state"].items():
        close(mine["state"][pname], e, f"{name} {pname} after the call")
    if golden["grads_in"] is None:  # MindSpore's CPU build has no such gradient
        return
    assert len(mine["grads_in"]) == len(golden["grads_in"])
    for i, (a, e) in enumerate(zip(mine["grads_in"], golden["grads_in"])):
        close(a, e, f"{name} grad of input {i}", rtol=1e-3, atol=1e-4)
    assert sorted(mine["grads_w"]) == sorted(golden["grads_w"])
    for pname, e in golden["grads_w"].items():
        close(mine["grads_w"][pname], e, f"{name} grad of {pname}", rtol=1e-3, atol=1e-4)


def test_goldens_cover_every_case():
    assert set(DATA["cases"]) == set(make_nn_layers.CASES)


@pytest.mark.parametrize("code", sorted(DATA["errors"]))
def test_invalid_arguments_raise_like_mindspore(code):
    expected = DATA["errors"][code]
    got = make_nn_layers.run_error(ms, code)
    assert got["exc"] == expected["exc"], (code, got)
    assert got["message"] == expected["message"], code


@pytest.mark.parametrize("code", sorted(DATA["reprs"]))
def test_repr_and_parameter_names(code):
    expected = DATA["reprs"][code]
    got = make_nn_layers.describe(ms, code)
    assert got["params"] == expected["params"]
    assert got["repr"] == expected["repr"]


@pytest.mark.parametrize("cls_name", sorted(DATA["signatures"]))
def test_constructor_signature(cls_name):
    got = make_nn_layers.signature(ms, cls_name)
    assert got == DATA["signatures"][cls_name]


def test_conv_default_weight_init_repr():
    # MindSpore prints the default HeUniform object; msxla prints its arguments.
    text = repr(ms.nn.Conv2d(2, 4, 3))
    assert "weight_init=HeUniform(negative_slope=2.23606797749979" in text
    assert inspect.signature(ms.nn.Conv2d).parameters["pad_mode"].default == "same"
