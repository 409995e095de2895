"""Writes legacy_ops.json: MindSpore 2.10's results for the older functional names
(``reduce_sum``, ``tensor_add``, ``make_range``, ``ScalarCast``, ...), the
detection Primitives (``CheckValid``, ``IOU``, ``BoundingBoxEncode`` /
``BoundingBoxDecode``, ``NMSWithMask``, ``ROIAlign``, ``CropAndResize``) and
``DepthToSpace`` / ``SpaceToDepth``.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_legacy_ops.py``.

Each case is a Python expression over the inputs below (stored in the JSON);
the output (dtype, shape and values; tuples; Python values) or the builtin
exception class is recorded. ``tests/ops/test_legacy_ops_golden.py`` evaluates
the same expressions with ``import msxla as ms``.
"""
import functools

import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import functional as F

import expr_cases

ms.set_context(pynative_synchronize=True)

RNG = np.random.default_rng(11)
_XY = RNG.uniform(0, 30, (6, 2))
_WH = RNG.uniform(2, 15, (6, 2))
ARRAYS = {
    "x": np.arange(24, dtype=np.float32).reshape(2, 3, 4),
    "xi": np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 7,
    "a": np.array([1, 2, 3], np.int32),
    "f": np.array([2.0, 2.0, -2.0], np.float32),
    "bb": np.array([[1, 1, 5, 5], [0, 0, 20, 5], [2, 3, 1, 4], [-1, 0, 3, 3], [0, 0, 9, 9],
                    [0, 0, 9.5, 9], [0, 0, 9, 10], [3, 3, 8, 9.2]], np.float32),
    "meta": np.array([10, 10, 1.0], np.float32),
    "meta2": np.array([8, 12, 0.5], np.float32),
    "anc": np.concatenate([_XY, _XY + _WH], 1).astype(np.float32),
    "gt": np.concatenate([_XY + 1.5, _XY + _WH * 1.2], 1).astype(np.float32),
    "gt3": np.array([[0, 0, 10, 10], [5, 5, 15, 15], [2, 8, 9, 20]], np.float32),
    "deltas": np.array([[0.1, -0.2, 0.3, -0.1], [0.0, 0.0, 5.0, -5.0], [-0.5, 0.4, 0.0, 0.2],
                        [1.0, 1.0, 0.1, 0.1], [0.2, 0.2, -0.3, 0.4], [0, 0, 0, 0]], np.float32),
    "dets": np.array([[0, 0, 10, 10, 0.9], [1, 1, 11, 11, 0.8], [20, 20, 30, 30, 0.85],
                      [21, 19, 31, 29, 0.95], [0, 0, 4, 4, 0.7], [2, 2, 9, 9, 0.6]], np.float32),
    "img": np.arange(32, dtype=np.float32).reshape(1, 8, 2, 2),
    "sp": np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4),
    "feat": RNG.standard_normal((2, 3, 8, 10)).astype(np.float32),
    "img4": RNG.standard_normal((2, 6, 8, 3)).astype(np.float32),
    "cboxes": np.array([[0.1, 0.2, 0.7, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.2, 0.5, 0.6, 1.3],
                        [0.8, 0.7, 0.2, 0.1]], np.float32),
    "cidx": np.array([0, 1, 1, 0], np.int32),
    "rois": np.array([[0, 1.0, 1.0, 6.0, 5.0], [1, 0.0, 2.0, 9.0, 7.5], [0, 2.5, 0.5, 4.0, 3.0],
                      [1, -2.0, -1.0, 3.0, 12.0]], np.float32),
    # integer division by zero
    "zi": np.array([5, -5, 0, 7], np.int32),
    "zd": np.array([0, 0, 0, 2], np.int32),
    "zl": np.array([5, -5, 0, 7], np.int64),
    "zld": np.array([0, 0, 0, 2], np.int64),
    "zu": np.array([5, 251, 0, 7], np.uint8),
    "zud": np.array([0, 0, 0, 2], np.uint8),
}

CASES = """
ops.reduce_sum(x)
ops.reduce_sum(x, 1)
ops.reduce_sum(xi, (0, 2))
ops.reduce_mean(x, (0, 2))
ops.reduce_max(x, -1)
ops.reduce_min(xi, 0)
ops.unstack(x, 1)
ops.unstack(xi)
ops.tensor_add(a, f)
ops.tensor_sub(a, f)
ops.tensor_mul(a, f)
ops.tensor_div(a, f)
ops.tensor_div(a, a)
ops.tensor_div(xi, 4)
ops.RealDiv()(xi, 4)
ops.RealDiv()(xi, a[0:1] + 1)
ops.RealDiv()(a, f)
ops.RealDiv()(x, f[0:1])
ops.Div()(xi, 4)
ops.floor_divide(zi, zd)
zi // zd
ops.div(zi, zd, rounding_mode='floor')
ops.truncate_div(zi, zd)
ops.remainder(zi, zd)
ops.fmod(zi, zd)
ops.floor_divide(zl, zld)
ops.truncate_div(zl, zld)
ops.remainder(zl, zld)
ops.floor_divide(zu, zud)
ops.remainder(zu, zud)
ops.FloorDiv()(zi, zd)
ops.TruncateDiv()(zi, zd)
ops.tensor_floordiv(a, f)
ops.floordiv(xi, 4)
ops.tensor_mod(a, f)
ops.floormod(xi, 5)
ops.pows(a, 2)
ops.tensor_pow(f, a)
ops.tensor_exp(f)
ops.tensor_expm1(f)
ops.tensor_ge(a, f)
ops.tensor_le(a, 2)
F.make_range(5)
F.make_range(1, 5)
F.make_range(1, 8, 3)
F.make_range(5, 1, -2)
F.make_range(2.5)
ops.tuple_len((1, 2, 3))
ops.scalar_cast(2.7, ms.int64)
ops.ScalarCast()(2.7, ms.int64)
ops.ScalarCast()(3, ms.float64)
ops.ScalarCast()(0, ms.bool_)
ops.ScalarCast()(2.7, ms.int32)
F.mixed_precision_cast(ms.float16, f)
F.mixed_precision_cast(ms.float16, (f, a))
F.mixed_precision_cast(ms.float16, 3)
ops.CheckValid()(bb, meta)
ops.CheckValid()(bb, meta2)
ops.IOU()(anc, gt)
ops.IOU()(gt3, anc)
ops.IOU('iof')(anc, gt)
ops.IOU(mode='iof')(gt3, gt3)
ops.BoundingBoxEncode()(anc, gt)
ops.BoundingBoxEncode(means=(0.0, 0.1, 0.0, -0.1), stds=(0.1, 0.1, 0.2, 0.2))(anc, gt)
ops.BoundingBoxDecode((40, 50))(anc, deltas)
ops.BoundingBoxDecode((25, 30), means=(0.0, 0.1, 0.0, -0.1), stds=(0.1, 0.1, 0.2, 0.2))(anc, deltas)
ops.BoundingBoxDecode((40, 50), wh_ratio_clip=0.2)(anc, deltas)
ops.NMSWithMask(0.1)(dets)
ops.NMSWithMask(0.5)(dets)
ops.NMSWithMask(0.05)(dets)
ops.DepthToSpace(2)(img)
ops.SpaceToDepth(2)(sp)
ops.ROIAlign(2, 2, 1.0, 2, 1)(feat, rois)
ops.ROIAlign(2, 2, 1.0, 2, 0)(feat, rois)
ops.ROIAlign(3, 2, 0.5, 1, 1)(feat, rois)
ops.ROIAlign(4, 4, 0.25, 3)(feat, rois)
ops.CropAndResize()(img4, cboxes, cidx, (3, 4))
ops.CropAndResize(method='nearest')(img4, cboxes, cidx, (3, 4))
ops.CropAndResize(extrapolation_value=5.0)(img4, cboxes, cidx, (1, 5))
ops.crop_and_resize(img4, cboxes, cidx, (4, 1), 'bilinear', 2.0)
"""


def main():
    ns = {"ms": ms, "ops": ops, "F": F, "Tensor": Tensor, "np": np}
    ns.update({k: Tensor(a) for k, a in ARRAYS.items()})
    rec = functools.partial(expr_cases.record, tensor=Tensor, py_type=True)
    cases = expr_cases.evaluate([(None, CASES)], ns, rec)
    expr_cases.write("legacy_ops.json", expr_cases.plain_inputs(ARRAYS), cases)


if __name__ == "__main__":
    main()
