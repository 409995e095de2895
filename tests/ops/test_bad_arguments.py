"""Arguments of a type no op takes (a string, None, a list of strings, a dict)
raise MindSpore's TypeError with MindSpore's wording and nothing of jax's:
every op row fed each bad value in each input position, eagerly; a set of
calls against MindSpore 2.10's own messages (tests/golden/fidelity.json); the
same inside jit."""
import json
import os
import re
import sys

import numpy as np
import pytest

import msxla as ms
from test_op_table import SPECS, _to_tensor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "jit"))
from modes import make  # noqa: E402
from scalar_cases import BAD_VALUES, bad_calls  # noqa: E402

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "fidelity.json")))["bad_arguments"]["pynative"]
JAX_WORDS = re.compile(r"jax|jnp|\blax\b|pytree|abstract array|static_arg|tracer|ShapedArray|"
                       r"jaxpr|_make_jitted|<function|XLA|ndarray or scalar", re.IGNORECASE)
MINDSPORE_STYLE = re.compile(r"^(Failed calling \w+ with |For '[\w.]+', )")
# calls whose MindSpore 2.10 message msxla reproduces word for word
EXACT = {"Tensor + v | string", "Tensor + v | dict", "v - Tensor | string", "v - Tensor | None",
         "v - Tensor | dict", "Tensor.add | string", "Tensor.add | dict"} | {
    f"{op} | {label}" for op in ("ops.add", "ops.mul", "ops.maximum", "ops.exp", "ops.where")
    for label in BAD_VALUES}


def first_specs():
    """One spec per op that calls the op itself (a spec's own ``fn`` may do
    arithmetic on the inputs first)."""
    seen = {}
    for spec in SPECS:
        if spec.fn is None:
            seen.setdefault(spec.name, spec)
    return list(seen.values())


def check_message(err, where):
    text = str(err)
    assert isinstance(err, (TypeError, ValueError)), f"{where}: {type(err).__name__}: {text}"
    assert not JAX_WORDS.search(text), f"{where}: {text}"
    assert MINDSPORE_STYLE.match(text), f"{where}: {text}"


@pytest.mark.parametrize("spec", first_specs(), ids=lambda s: s.name)
def test_every_op_refuses_bad_arguments_in_mindspore_words(spec):
    inputs = spec.make_inputs(np.random.default_rng(0), spec.dtypes[0])
    for i in range(len(inputs)):
        for label, bad in BAD_VALUES.items():
            args = [_to_tensor(x) for x in inputs]
            args[i] = bad
            try:
                spec.call()(*args, **spec.kwargs)
            except Exception as err:  # noqa: BLE001 - checked
                check_message(err, f"{spec.name} input {i} = {label}")
            else:  # None may be an optional argument; nothing else is taken
                assert bad is None, f"{spec.name} took {label} as input {i}"


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_bad_arguments_as_mindspore_reports_them(case):
    name, label = case.split(" | ")
    x = ms.Tensor(np.ones((2, 2), np.float32))
    want = GOLDEN[case]
    with pytest.raises(TypeError) as info:
        bad_calls(ms, x)[name](BAD_VALUES[label])
    assert want["raises"] == "TypeError"
    check_message(info.value, case)
    if case in EXACT:
        assert str(info.value).split("\n")[0] == want["first_line"]


def add_text(x):
    return x + "abc"


def test_bad_argument_inside_jit(jit_mode):
    with pytest.raises(TypeError) as info:
        make(add_text, jit_mode)(ms.Tensor(np.ones(2, np.float32)))
    check_message(info.value, jit_mode)
    assert str(info.value).split("\n")[0] == GOLDEN["Tensor + v | string"]["first_line"]
    assert "add_text" in str(info.value)  # the user's line
