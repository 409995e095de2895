"""The older functional names (``reduce_sum``, ``tensor_add``, ``make_range``,
``ScalarCast``, ...), the detection Primitives and DepthToSpace / SpaceToDepth
against MindSpore 2.10's results (tests/golden/legacy_ops.json), eagerly and,
for the Tensor-only Primitives, inside a jitted function."""
import builtins
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from msxla.ops import functional as F

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "legacy_ops.json")))
CASES = GOLDEN["cases"]
JITTED = [c for c in CASES if c["expr"].split("(")[0] in (
    "ops.CheckValid", "ops.IOU", "ops.BoundingBoxEncode", "ops.BoundingBoxDecode",
    "ops.NMSWithMask", "ops.DepthToSpace", "ops.SpaceToDepth", "ops.ROIAlign",
    "ops.RealDiv", "ops.Div") and "out" in c]


def _namespace():
    ns = {"ms": ms, "ops": ops, "F": F, "Tensor": Tensor, "np": np}
    for name, spec in GOLDEN["inputs"].items():
        ns[name] = Tensor(np.array(spec["values"], dtype=spec["dtype"]))
    return ns


def _check(got, want, expr):
    if "seq" in want:
        assert isinstance(got, (tuple, list)), f"{expr}: expected a sequence, got {got!r}"
        assert len(got) == len(want["seq"]), f"{expr}: length {len(got)} != {len(want['seq'])}"
        for g, w in zip(got, want["seq"]):
            _check(g, w, expr)
        return
    if "py" in want:
        assert type(got).__name__ == want["type"] and got == want["py"], \
            f"{expr}: {got!r} != {want['py']!r}"
        return
    assert isinstance(got, Tensor), f"{expr}: expected a Tensor, got {type(got).__name__}"
    assert str(got.dtype) == want["dtype"], f"{expr}: dtype {got.dtype} != {want['dtype']}"
    assert list(got.shape) == want["shape"], f"{expr}: shape {got.shape} != {want['shape']}"
    arr = got.asnumpy()
    vals = arr.astype(np.int64 if arr.dtype == np.bool_ else np.float64).reshape(-1)
    tol = 2e-3 if want["dtype"] == "Float16" else 1e-5
    np.testing.assert_allclose(vals, np.array(want["values"]), rtol=tol, atol=tol, err_msg=expr)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["expr"])
def test_matches_mindspore(case):
    ns = _namespace()
    expr = case["expr"]
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"])):
            eval(expr, ns)  # noqa: S307 - expressions from the committed golden file
        return
    _check(eval(expr, ns), case["out"], expr)  # noqa: S307


@pytest.mark.parametrize("case", JITTED, ids=lambda c: c["expr"])
def test_jitted_matches_mindspore(case):
    ns = _namespace()
    prim_expr, _, args = case["expr"].rpartition(")(")
    prim = eval(prim_expr + ")", ns)  # noqa: S307
    tensors = [eval(a, ns) for a in args.rstrip(")").split(",")]  # noqa: S307
    _check(ms.jit(lambda *xs: prim(*xs))(*tensors), case["out"], case["expr"])


def test_crop_and_resize_jitted_matches_mindspore():
    case = next(c for c in CASES if c["expr"].startswith("ops.CropAndResize()("))
    ns = _namespace()
    f = ms.jit(lambda a, b, c: ops.CropAndResize()(a, b, c, (3, 4)))
    _check(f(ns["img4"], ns["cboxes"], ns["cidx"]), case["out"], case["expr"])
