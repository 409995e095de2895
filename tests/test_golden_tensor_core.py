"""Core Tensor behaviour against MindSpore 2.10 goldens (``golden/tensor_core.json``).

Each golden case is a Python expression over ``ms``, ``np``, ``Tensor``,
``Parameter`` and ``operator`` with what MindSpore evaluated it to; here the
same expression runs with msxla as ``ms`` and must give the same description
(kind, dtype, shape, values) or raise the same builtin exception type.
"""
import builtins
import json
import math
import operator
import os

import numpy as np
import pytest

import msxla as ms

with open(os.path.join(os.path.dirname(__file__), "golden", "tensor_core.json")) as f:
    CASES = json.load(f)["cases"]

# cases overflow and drop imaginary parts on purpose (what MindSpore gives then is the golden)
pytestmark = [pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:Casting complex values to real")]

ENV = {"ms": ms, "np": np, "Tensor": ms.Tensor, "Parameter": ms.Parameter, "operator": operator}


def describe(obj):
    """The description ``make_tensor_core.py`` records, over msxla values."""
    if isinstance(obj, ms.Tensor):
        t = obj.astype(ms.float32) if obj.dtype == ms.bfloat16 else obj
        return {"kind": "Tensor", "dtype": str(obj.dtype), "shape": list(obj.shape),
                "value": _plain(t.asnumpy().tolist())}
    if isinstance(obj, ms.dtype.Type):
        return {"kind": "dtype", "value": str(obj)}
    if isinstance(obj, (tuple, list)):
        return {"kind": type(obj).__name__, "items": [describe(x) for x in obj]}
    if obj is None or isinstance(obj, (bool, int, float, complex, str)):
        return {"kind": type(obj).__name__, "value": _plain(obj)}
    return {"kind": "other", "value": f"{type(obj).__module__}.{type(obj).__name__}"}


def _plain(v):
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, complex):
        return [v.real, v.imag]
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] for c in CASES])
def test_tensor_core_matches_mindspore(case):
    expr = case["expr"]
    if "error" in case:
        exc = getattr(builtins, case["error"])
        with pytest.raises(exc):
            eval(expr, dict(ENV))  # noqa: S307 - fixed golden expressions
        return
    got = describe(eval(expr, dict(ENV)))  # noqa: S307
    assert got == case["result"], f"{expr}: {got} != {case['result']}"
