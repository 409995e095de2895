"""Tensor ``__getitem__`` / ``__setitem__`` against MindSpore 2.10 goldens
(``golden/indexing.json``): ints, slices with steps, None, Ellipsis, bool masks,
integer lists and Tensors, mixed tuples, 0-d Tensor indices, errors, value
broadcasting and dtype casting. Each case rebuilds the same base Tensor and
must give MindSpore's result (dtype, shape, values) or raise the same builtin
exception type, except for the deviations in ``KNOWN``.
"""
import builtins
import json
import math
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor

with open(os.path.join(os.path.dirname(__file__), "golden", "indexing.json")) as f:
    GOLDEN = json.load(f)
BASES, CASES = GOLDEN["bases"], GOLDEN["cases"]
ENV = {"np": np, "Tensor": Tensor, "ms": ms}

# Where msxla knowingly differs from MindSpore: case -> what msxla does instead.
KNOWN = {
    # MindSpore's kernels fail on these valid indices; msxla gives numpy's answer.
    ("x", "Tensor(True)"): "numpy",                       # NonZero launch failure
    ("x", "slice(None, None, -1)", "Tensor(np.arange(24.0).reshape(2, 3, 4))"): "numpy",
    # MindSpore rejects numpy arrays and numpy integers as indices; msxla reads
    # them as it reads lists and ints.
    ("x", "np.array([True, False])"): "numpy", ("x", "np.array([1, 0])"): "numpy",
    ("x", "np.array([[1], [0]])"): "numpy", ("x", "(np.int64(1), np.int32(2))"): "numpy",
    ("x", "np.array(1)"): "numpy", ("y", "np.int64(2)"): "numpy",
    ("x", "0", "np.ones(4)"): "numpy",
    # MindSpore raises RuntimeError for an out-of-range index held in a Tensor;
    # msxla does not read index values (XLA clamps them).
    ("x", "Tensor([2])"): "runs",
    # MindSpore selects nothing (shape (0, 2, 3, 4)); msxla raises IndexError as for False.
    ("x", "Tensor(False)"): "IndexError",
    # MindSpore raises IndexError for a string value; msxla TypeError (as for None).
    ("x", "0", "'a'"): "TypeError",
}


def base(name):
    dtype, shape = BASES[name]
    size = int(np.prod(shape)) if shape else 1
    return np.arange(size).astype(dtype).reshape(shape)


def _plain(v):
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def describe(t):
    return {"dtype": str(t.dtype), "shape": list(t.shape), "value": _plain(t.asnumpy().tolist())}


def run(case):
    x = Tensor(base(case[0]))
    index = eval(case[1], dict(ENV))  # noqa: S307 - fixed golden expressions
    if len(case) == 2:
        return describe(x[index])
    x[index] = eval(case[2], dict(ENV))  # noqa: S307
    return describe(x)


def numpy_answer(case):
    """numpy's result for a case (for the deviations where msxla does what numpy does)."""
    x = base(case[0])
    index = eval(case[1], {**ENV, "Tensor": lambda v, *a: np.asarray(v)})  # noqa: S307
    if len(case) == 2:
        out = x[index]
    else:
        out = x.copy()
        out[index] = np.asarray(eval(case[2], {**ENV, "Tensor": lambda v, *a: np.asarray(v)}))  # noqa: S307,E501
    return describe(Tensor(np.array(out)))


@pytest.mark.parametrize("entry", CASES, ids=[" | ".join(c["case"]) for c in CASES])
def test_indexing_matches_mindspore(entry):
    case = entry["case"]
    known = KNOWN.get(tuple(case))
    if known == "numpy":
        assert run(case) == numpy_answer(case)
        return
    if known == "runs":
        run(case)
        return
    if known is not None:
        with pytest.raises(getattr(builtins, known)):
            run(case)
        return
    if "error" in entry:
        with pytest.raises(getattr(builtins, entry["error"])):
            run(case)
        return
    assert run(case) == entry["result"]
