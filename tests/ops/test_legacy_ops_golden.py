"""The older functional names (``reduce_sum``, ``tensor_add``, ``make_range``,
``ScalarCast``, ...), the detection Primitives and DepthToSpace / SpaceToDepth
against MindSpore 2.10's results (tests/golden/legacy_ops.json), eagerly and,
for the Tensor-only Primitives, inside a jitted function."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from msxla.ops import functional as F
import golden_cases

GOLDEN = golden_cases.load("legacy_ops.json")
CASES = GOLDEN["cases"]
JITTED = [c for c in CASES if c["expr"].split("(")[0] in (
    "ops.CheckValid", "ops.IOU", "ops.BoundingBoxEncode", "ops.BoundingBoxDecode",
    "ops.NMSWithMask", "ops.DepthToSpace", "ops.SpaceToDepth", "ops.ROIAlign",
    "ops.RealDiv", "ops.Div", "ops.FloorDiv", "ops.TruncateDiv") and "out" in c]


def _namespace():
    ns = {"ms": ms, "ops": ops, "F": F, "Tensor": Tensor, "np": np}
    ns.update({k: Tensor(v) for k, v in golden_cases.inputs(GOLDEN).items()})
    return ns


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["expr"])
def test_matches_mindspore(case):
    golden_cases.run_case(case, _namespace())


@pytest.mark.parametrize("case", JITTED, ids=lambda c: c["expr"])
def test_jitted_matches_mindspore(case):
    ns = _namespace()
    prim_expr, _, args = case["expr"].rpartition(")(")
    prim = eval(prim_expr + ")", ns)  # noqa: S307
    tensors = [eval(a, ns) for a in args.rstrip(")").split(",")]  # noqa: S307
    golden_cases.check(ms.jit(lambda *xs: prim(*xs))(*tensors), case["out"], case["expr"])


def test_crop_and_resize_jitted_matches_mindspore():
    case = next(c for c in CASES if c["expr"].startswith("ops.CropAndResize()("))
    ns = _namespace()
    f = ms.jit(lambda a, b, c: ops.CropAndResize()(a, b, c, (3, 4)))
    golden_cases.check(f(ns["img4"], ns["cboxes"], ns["cidx"]), case["out"], case["expr"])
