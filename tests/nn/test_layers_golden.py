"""nn layers and losses against MindSpore 2.10 (goldens from ``tests/golden/make_nn_layers.py``).

Each case builds the same Cell with msxla, sets the stored Parameter values,
calls it on the stored inputs (under value_and_grad) and compares the
outputs, the Parameters after the call (BatchNorm moving statistics) and the
gradients with respect to the inputs and the trainable Parameters. Constructor signatures, reprs,
Parameter names and the exceptions of invalid calls are compared too.
"""
import inspect

import pytest

import msxla as ms
from layer_golden import (check_case, check_error, check_repr, check_signature, load,
                          make_nn_layers)

DATA = load("nn_layers.json")

# These cases run eagerly, the others under ms.jit (one compiled graph instead of one
# per op keeps the file fast; the eager and jitted paths run the same Cell code).
EAGER = {"dense_3d_relu", "conv2d_same", "convT_pad_outpad", "bn2d_train", "layernorm",
         "groupnorm", "embedding", "maxpool2d_pad_indices", "avgpool2d_pad", "gelu_tanh",
         "mha", "ce_indices", "sce_sparse_mean", "bce_logits"}


@pytest.mark.parametrize("name", sorted(DATA["cases"]))
def test_layer_matches_mindspore(name):
    check_case(DATA, name, "eager" if name in EAGER else "jit")


def test_goldens_cover_every_case():
    assert set(DATA["cases"]) == set(make_nn_layers.CASES)


@pytest.mark.parametrize("code", sorted(DATA["errors"]))
def test_invalid_arguments_raise_like_mindspore(code):
    check_error(DATA, code)


@pytest.mark.parametrize("code", sorted(DATA["reprs"]))
def test_repr_and_parameter_names(code):
    check_repr(DATA, code)


@pytest.mark.parametrize("cls_name", sorted(DATA["signatures"]))
def test_constructor_signature(cls_name):
    check_signature(DATA, cls_name)


def test_conv_default_weight_init_repr():
    # MindSpore prints the default HeUniform object; msxla prints its arguments.
    text = repr(ms.nn.Conv2d(2, 4, 3))
    assert "weight_init=HeUniform(negative_slope=2.23606797749979" in text
    assert inspect.signature(ms.nn.Conv2d).parameters["pad_mode"].default == "same"
