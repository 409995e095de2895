"""Type promotion against MindSpore 2.10 goldens (``golden/promotion.json``).

Every golden case (``a + b``, ``a * b``, ``a / b``, ``ops.add``, ``ops.mul``,
``ops.div`` over all pairs of 14 dtypes, 0-d and n-d Tensors, and Python
scalars) runs through msxla's op abstractly (``jax.eval_shape``: the dtype
rules run, nothing compiles). msxla must give MindSpore's result dtype, the
dtype MindSpore infers where its CPU build has no kernel, or raise TypeError
where MindSpore does, except for the deviations listed in ``_known``.
"""
import json
import os

import jax
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from msxla.common import dtype as mstype

with open(os.path.join(os.path.dirname(__file__), "golden", "promotion.json")) as f:
    GOLDEN = json.load(f)["cases"]

SCALARS = {"bool": True, "int": 2, "float": 2.5, "complex": complex(1, 2)}
FNS = {"a+b": lambda a, b: a + b, "a*b": lambda a, b: a * b, "a/b": lambda a, b: a / b,
       "ops.add": ops.add, "ops.mul": ops.mul, "ops.div": ops.div}


def operand(text):
    kind, _, arg = text.partition(":")
    if kind == "py":
        return SCALARS[arg]
    ndim = int(arg)
    vals = ([True, False, True] if ndim else True) if kind == "bool" else ([1, 2, 3] if ndim else 2)
    if kind == "bfloat16":
        return Tensor(np.array(vals, np.float32), ms.bfloat16)
    return Tensor(np.array(vals, dtype=kind))


def outcome(key, expect_error=False):
    """msxla's result dtype name for a case, or "error:TypeError"."""
    op, a, b = key.split("|")
    x, y = operand(a), operand(b)
    try:
        if expect_error:  # the dtype rule raises before anything compiles
            out = FNS[op](x, y)._data
        else:
            out = jax.eval_shape(lambda: FNS[op](x, y)._data)
    except TypeError:
        return "error:TypeError"
    return str(mstype.from_np(out.dtype))


def _known(key, want):
    """The outcome msxla gives where it knowingly differs from MindSpore (or None)."""
    op, a, b = key.split("|")
    if op in ("a*b", "a/b", "ops.div") and (a.endswith(":0") or b.endswith(":0")):
        # MindSpore's Mul and Div treat a 0-d Tensor like a scalar (f16 * f64 0-d Tensor
        # is f16); msxla's dtype rules see dtypes only and promote it like any Tensor.
        nd = GOLDEN[f"{op}|{a[:-2]}:1|{b[:-2]}:1"]
        return nd.split(":")[-1] if nd.startswith("nokernel") else nd
    if key == "a/b|py:complex|bfloat16:1":
        # MindSpore takes a complex scalar here only (divided by bfloat16); msxla takes
        # complex scalars nowhere.
        return "error:TypeError"
    if op == "a+b" and (want == "Bool"):
        # msxla's ``+`` runs ops.add's row, which rejects bool + bool as ops.add does
        # (MindSpore's operator accepts it).
        return "error:TypeError"
    return None


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_promotion_matches_mindspore(key):
    want = GOLDEN[key]
    if want == "crash":
        pytest.skip("MindSpore's process crashes on this case")
    expected = want[len("nokernel:"):] if want.startswith("nokernel:") else want
    known = _known(key, want)
    got = outcome(key, expect_error=expected.startswith("error"))
    if known is not None and got == known:
        return
    assert got == expected, f"{key}: msxla {got}, MindSpore {want}"


def test_golden_shows_the_rules():
    """A few facts the table holds (so a regenerated golden cannot silently change them)."""
    assert GOLDEN["a+b|uint8:1|int8:1"] == "Int16"
    assert GOLDEN["a+b|float16:1|bfloat16:1"] == "Float32"
    assert GOLDEN["a+b|float64:1|complex64:1"] == "Complex128"
    assert GOLDEN["a+b|uint16:1|int8:1"] == "error:TypeError"
    assert GOLDEN["a+b|float64:0|float16:1"] == "Float64"  # 0-d is a Tensor for add
    assert GOLDEN["a*b|float64:0|float16:1"] == "Float16"  # ... but like a scalar for mul
    assert GOLDEN["a+b|int32:1|py:float"] == "Float32"
    assert GOLDEN["a/b|int8:1|int8:1"] == "Float32"


def test_result_type_api():
    f32, i64, u16 = mstype.float32, mstype.int64, mstype.uint16
    assert mstype.result_type((mstype.bool_, int)) is i64
    assert mstype.result_type((int, float)) is f32
    assert mstype.result_type((mstype.float64, mstype.complex64)) is mstype.complex128
    assert mstype.mul_result_type((u16, int)) is u16
    assert mstype.promote_types(u16, mstype.int8) is mstype.int32  # mindspore.numpy's answer
    with pytest.raises(TypeError, match="implicit conversion"):
        mstype.result_type((u16, int))
    with pytest.raises(TypeError, match="implicit conversion"):
        mstype.result_type((u16, mstype.int8))
    with pytest.raises(TypeError):
        mstype.mul_result_type((mstype.bool_, u16))
