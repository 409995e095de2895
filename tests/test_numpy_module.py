"""``msxla.numpy`` (``mindspore.numpy``) against MindSpore 2.10's results and numpy.

The golden cases (tests/golden/numpy_module.json) check dtype defaults (Python
ints become int32), shapes and values; the rest compare with numpy directly.
"""
import numpy as np
import pytest

import msxla as ms
import msxla.numpy as mnp
from msxla import Tensor, ops
from helpers import assert_close
import golden_cases

GOLDEN = golden_cases.load("numpy_module.json")
# Reductions and elementwise math belong to other op families; their mnp wrappers are
# checked only once those rows exist.
NEEDS = {"sum": "sum", "mean": "mean", "max": "amax", "amax": "amax", "min": "amin",
         "amin": "amin", "argmax": "argmax", "argmin": "argmin", "std": "std", "var": "var",
         "cumsum": "cumsum", "ptp": "amax", "average": "mean", "count_nonzero": "count_nonzero",
         "where": "where", "clip": "clip", "take": "gather", "exp": "exp", "isnan": "isnan"}


def _namespace():
    ns = {"ms": ms, "ops": ops, "Tensor": Tensor, "np": np, "mnp": mnp}
    ns.update({k: Tensor(v) for k, v in golden_cases.inputs(GOLDEN).items()})
    return ns


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["expr"])
def test_matches_mindspore_numpy(case):
    fn = case["expr"].split("(")[0].replace("mnp.", "")
    if fn in NEEDS and not hasattr(ops, NEEDS[fn]):
        pytest.skip(f"ops.{NEEDS[fn]} is not available yet")
    golden_cases.run_case(case, _namespace(), nan_as_zero=True)


RNG = np.random.default_rng(5)
F = RNG.standard_normal((3, 4)).astype(np.float32)


@pytest.mark.parametrize("name, args", [
    ("reshape", ((4, 3),)), ("transpose", ()), ("ravel", ()), ("flip", ()), ("fliplr", ()),
    ("rot90", (3,)), ("roll", (2, 1)), ("tril", (-1,)), ("triu", (1,)), ("diagonal", (1,)),
    ("trace", ()), ("expand_dims", (1,)), ("swapaxes", (0, 1)), ("moveaxis", (0, 1)),
    ("tile", ((2, 1),)), ("repeat", (2, 0)), ("atleast_3d", ()), ("diag", ()),
])
def test_unary_array_functions_match_numpy(name, args):
    want = getattr(np, name)(F, *args)
    got = getattr(mnp, name)(Tensor(F), *args)
    assert_close(got, np.asarray(want, dtype=want.dtype if want.dtype != np.float64 else
                                 np.float32), rtol=1e-5, atol=1e-5)


def test_array_like_inputs_are_accepted():
    assert_close(mnp.concatenate(([1, 2], [3])), np.array([1, 2, 3], np.int32))
    assert_close(mnp.stack([F, F]), np.stack([F, F]))
    assert_close(mnp.matmul(F, F.T), F @ F.T, rtol=1e-5, atol=1e-5)
    assert mnp.asarray(np.arange(3)).dtype is ms.int64  # numpy arrays keep their dtype


def test_split_with_unequal_sections_raises():
    with pytest.raises(ValueError, match="equal division"):
        mnp.split(mnp.arange(5), 2)


def test_module_imports_without_other_families():
    import importlib
    import msxla.numpy.math_ops as math_ops
    importlib.reload(math_ops)
    assert callable(math_ops.sum) and math_ops.sum.__module__ == "msxla.numpy.math_ops"
