"""Writes nn_ops.json: MindSpore 2.10's results for neural-network ops whose exact
definition numpy cannot settle (interpolation kernels, gelu's tanh form, cross entropy
with label smoothing and ignore_index, batch_norm's training outputs and running-stat
updates, ceil-mode pooling, adaptive pools over sizes that do not divide, ...).

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_nn_ops.py``.

Each case is a Python expression over the inputs below (built from a fixed seed and
stored in the JSON). For each it records the output (dtype, shape and values; tuples
too) or the builtin exception class MindSpore raised. Calls whose CPU kernel is missing
in MindSpore 2.10 ("unregistered", a bare RuntimeError) are left out and reported.
``tests/ops/test_nn_ops_golden.py`` evaluates the same expressions with msxla.
"""
import builtins
import json
import os

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, ops

ms.set_context(pynative_synchronize=True)

RNG = np.random.default_rng(11)


def _n(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


ARRAYS = {
    "a": _n(3, 7),
    "a16": _n(2, 5).astype(np.float16),
    "x1": _n(2, 3, 7),
    "x2": _n(2, 3, 5, 6),
    "x3": _n(1, 2, 3, 4, 5),
    "img": (np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4) ** 1.5),
    "w1": _n(4, 3, 3),
    "w2": _n(4, 3, 3, 3),
    "w2g": _n(4, 1, 3, 2),
    "w3": _n(2, 2, 2, 2, 2),
    "dy": _n(1, 4, 3, 3),
    "wt": _n(4, 3, 3, 3),
    "wt3": _n(2, 3, 2, 2, 2),
    "bias4": _n(4),
    "logits": _n(6, 5),
    "logits3": _n(2, 4, 3),
    "labels": np.array([0, 4, 2, 2, 1, 3], np.int32),
    "labels_ign": np.array([0, 4, -1, 2, 1, -1], np.int32),
    "labels3": np.array([[0, 3, 1], [2, 2, 0]], np.int64),
    "cw": np.array([0.5, 1.0, 2.0, 1.5, 0.7], np.float32),
    "probs": np.abs(_n(6, 5)) / np.abs(_n(6, 5)).sum(1, keepdims=True),
    "p01": RNG.uniform(0.05, 0.95, (3, 4)).astype(np.float32),
    "t01": RNG.uniform(0, 1, (3, 4)).astype(np.float32),
    "pw": np.array([1.0, 2.0, 0.5, 3.0], np.float32),
    "sgn": np.where(RNG.random((3, 4)) > 0.5, 1, -1).astype(np.float32),
    "sgn3": np.array([1, -1, 1], np.int32),
    "var": RNG.uniform(0.2, 2, (3, 4)).astype(np.float32),
    "bn": _n(4, 3, 2, 2) * 2 + 1,
    "bn2": _n(5, 3),
    "zeros3": np.zeros(3, np.float32),
    "ones3": np.ones(3, np.float32),
    "gamma3": np.array([1.0, 0.5, 2.0], np.float32),
    "beta3": np.array([0.1, -0.2, 0.3], np.float32),
    "ln": _n(2, 3, 4),
    "ln_w": _n(4),
    "ln_b": _n(4),
    "gn": _n(2, 6, 3),
    "gn_w": _n(6),
    "gn_b": _n(6),
    "pool": _n(1, 2, 7, 8),
    "pool3": _n(1, 1, 5, 6, 7),
    "lrn": _n(1, 5, 2, 2),
    "ps": _n(1, 8, 2, 3),
    "pos": RNG.uniform(0.5, 2, (1, 2, 5, 6)).astype(np.float32),
    "mlt": np.array([[1, 0, 0, 1], [0, 1, 1, 1], [1, 1, 0, 0]], np.float32),
    "theta": _n(2, 2, 3),
    "grid": RNG.uniform(-1.4, 1.4, (2, 3, 4, 2)).astype(np.float32),
    "up": _n(1, 2, 2, 3),
    "upi": np.array([[[[0, 3, 4], [13, 22, 23]], [[1, 10, 5], [12, 15, 23]]]], np.int64),
}

CASES = """
ops.gelu(a, approximate='tanh')
ops.gelu(a)
ops.gelu(a16, approximate='tanh')
ops.fast_gelu(a)
ops.mish(a)
ops.selu(a)
ops.celu(a, 1.5)
ops.softplus(a, 2, 1.5)
ops.hardswish(a)
ops.hardsigmoid(a)
ops.logsigmoid(a)
ops.softshrink(a, 0.3)
ops.hardtanh(a, -0.5, 0.8)
ops.silu(a)
ops.softmin(a, 0)
ops.log_softmax(a16)
ops.glu(a[:, :6])
ops.threshold(a, 0.2, -1.0)
ops.sigmoid(ms.Tensor([1, 2]))
ops.interpolate(x1, size=11)
ops.interpolate(x1, size=4)
ops.interpolate(x1, size=11, mode='nearest-exact')
ops.interpolate(x1, size=11, mode='linear')
ops.interpolate(x1, size=4, mode='linear', align_corners=True)
ops.interpolate(x1, scale_factor=1.6, mode='linear', recompute_scale_factor=True)
ops.interpolate(x2, size=(7, 9))
ops.interpolate(x2, size=(3, 4))
ops.interpolate(x2, size=(7, 9), mode='nearest-exact')
ops.interpolate(x2, size=(7, 9), mode='bilinear')
ops.interpolate(x2, size=(3, 4), mode='bilinear')
ops.interpolate(x2, size=(7, 9), mode='bilinear', align_corners=True)
ops.interpolate(x2, scale_factor=(1.5, 2.0), mode='bilinear', recompute_scale_factor=True)
ops.interpolate(x2, size=(7, 9), mode='bicubic')
ops.interpolate(x2, size=(3, 4), mode='bicubic')
ops.interpolate(x2, size=(7, 9), mode='bicubic', align_corners=True)
ops.interpolate(x2, size=(2, 3), mode='area')
ops.interpolate(x3, size=(4, 5, 3), mode='trilinear')
ops.interpolate(x3, size=(4, 5, 3), mode='trilinear', align_corners=True)
ops.interpolate(x3, scale_factor=(1.5, 1.5, 0.6), mode='trilinear')
ops.interpolate(x3, scale_factor=(1.5, 1.5, 0.6), mode='nearest')
ops.interpolate(x3, size=(4, 5, 3))
ops.upsample(img, size=(5, 7), mode='bilinear')
ops.ResizeNearestNeighbor((5, 7))(img)
ops.ResizeNearestNeighbor((5, 7), True)(img)
ops.ResizeBilinearV2()(img, (5, 7))
ops.ResizeBilinearV2(True)(img, (5, 7))
ops.ResizeBilinearV2(False, True)(img, (5, 7))
ops.interpolate(x2, size=(7, 9), mode='bad')
ops.interpolate(x2, scale_factor=2.0, mode='bilinear')
ops.interpolate(x2, size=(7, 9), mode='nearest', align_corners=True)
ops.interpolate(x2, size=(7, 9), scale_factor=2.0)
ops.conv2d(x2, w2, pad_mode='same', stride=2, dilation=1)
ops.conv2d(x2, w2, bias4, pad_mode='same', dilation=2)
ops.conv2d(x2, w2, pad_mode='pad', padding=(1, 2), stride=(2, 1))
ops.conv2d(x2[:, :2], w2g, groups=2, pad_mode='pad', padding=1)
ops.conv1d(x1, w1, pad_mode='same', stride=2)
ops.conv3d(x3, w3, pad_mode='pad', padding=1, stride=(1, 2, 2))
ops.conv2d(x2, w2, padding=1)
ops.Conv2D(4, 3, pad_mode='pad', pad=(1, 0, 2, 1))(x2, w2)
ops.Conv2D(4, 3, pad_mode='same', stride=2)(x2, w2)
ops.Conv2DBackpropInput(4, 3, pad_mode='same', stride=2)(dy, wt, (1, 3, 6, 5))
ops.Conv2DBackpropInput(4, 3, pad_mode='valid')(dy, wt, (1, 3, 5, 5))
ops.Conv2DBackpropInput(4, 3, pad_mode='pad', pad=1, stride=2)(dy, wt, (1, 3, 6, 6))
ops.Conv3DTranspose(2, 3, 2, stride=2)(x3[:, :, :2, :2, :2], wt3)
ops.Conv3DTranspose(2, 3, 2, pad_mode='pad', pad=1, stride=2)(x3[:, :, :2, :2, :2], wt3)
ops.max_pool2d(pool, 3, 2, 1, ceil_mode=True, return_indices=True)
ops.max_pool2d(pool, 2, ceil_mode=True, return_indices=True)
ops.max_pool2d(pool, (3, 2), (2, 3), (1, 1), ceil_mode=True)
ops.max_pool2d(pool, 2, 1, 0, 2, return_indices=True)
ops.max_pool3d(pool3, 2, 2, 1, ceil_mode=True, return_indices=True)
ops.avg_pool2d(pool, 3, 2, 1, ceil_mode=True)
ops.avg_pool2d(pool, 3, 2, 1, ceil_mode=True, count_include_pad=False)
ops.avg_pool2d(pool, 2, 3, 0, ceil_mode=True)
ops.avg_pool2d(pool, 3, 2, 1, divisor_override=4)
ops.avg_pool1d(x1, 3, 2, 1, ceil_mode=True)
ops.avg_pool1d(x1, 3, 2, 1, ceil_mode=True, count_include_pad=False)
ops.avg_pool3d(pool3, 2, 2, 1, ceil_mode=True, count_include_pad=False)
ops.lp_pool2d(pos, 2, 2, ceil_mode=True)
ops.lp_pool1d(pos[0], 3, 2)
ops.MaxPool(3, 2, 'same')(pool)
ops.AvgPool(3, 2, 'same')(pool)
ops.MaxPool(2, 2, 'valid')(pool)
ops.AvgPool(3, 2, 'valid')(pool)
ops.MaxPool3D(2, 2, 'same')(pool3)
ops.AvgPool3D(2, 2, 'pad', pad=1, ceil_mode=True, count_include_pad=False)(pool3)
ops.adaptive_avg_pool2d(pool, (3, 5))
ops.adaptive_avg_pool2d(pool, (None, 3))
ops.adaptive_avg_pool3d(pool3, (2, 4, 3))
ops.adaptive_max_pool2d(pool, (3, 5), True)
ops.adaptive_max_pool3d(pool3, (2, 4, 3), True)
ops.adaptive_avg_pool1d(x1, 7)
ops.adaptive_avg_pool1d(x1, 3)
ops.AdaptiveMaxPool2D((3, 5))(pool)
ops.cross_entropy(logits, labels)
ops.cross_entropy(logits, labels, reduction='sum')
ops.cross_entropy(logits, labels, cw, reduction='none')
ops.cross_entropy(logits, labels, label_smoothing=0.1)
ops.cross_entropy(logits, labels_ign, cw, ignore_index=-1, label_smoothing=0.2)
ops.cross_entropy(logits, labels_ign, cw, ignore_index=-1, label_smoothing=0.2, reduction='none')
ops.cross_entropy(logits, labels_ign, ignore_index=-1, reduction='sum', label_smoothing=0.3)
ops.cross_entropy(logits, probs)
ops.cross_entropy(logits, probs, cw, label_smoothing=0.2)
ops.cross_entropy(logits, probs, reduction='none', label_smoothing=0.2)
ops.cross_entropy(logits3, labels3, label_smoothing=0.1)
ops.cross_entropy(logits3, labels3, reduction='none')
ops.nll_loss(ops.log_softmax(logits), labels_ign, cw, ignore_index=-1)
ops.nll_loss(ops.log_softmax(logits), labels, label_smoothing=0.1)
ops.NLLLoss('sum', -1)(ops.log_softmax(logits), labels_ign, cw)
ops.SoftmaxCrossEntropyWithLogits()(logits, probs)
ops.SparseSoftmaxCrossEntropyWithLogits()(logits, labels)
ops.SparseSoftmaxCrossEntropyWithLogits(True)(logits, labels)
ops.binary_cross_entropy(p01, t01, pw.tile((3, 1)))
ops.binary_cross_entropy(p01, t01, reduction='none')
ops.binary_cross_entropy_with_logits(a[:, :4], t01, pw, pw)
ops.binary_cross_entropy_with_logits(a[:, :4], t01, reduction='sum')
ops.BCEWithLogitsLoss('none')(a[:, :4], t01, pw, pw)
ops.SigmoidCrossEntropyWithLogits()(a[:, :4], t01)
ops.kl_div(ops.log_softmax(logits), probs, 'batchmean')
ops.kl_div(ops.log_softmax(logits), probs, 'sum')
ops.smooth_l1_loss(a, a * 0.5, 0.3, 'mean')
ops.huber_loss(a, a * 0.1, 'sum', 0.4)
ops.gaussian_nll_loss(a[:, :4], t01, var, True)
ops.gaussian_nll_loss(a[:, :4], t01, var, reduction='none')
ops.multi_margin_loss(logits, labels.astype(ms.int64), 2, 0.5, cw)
ops.multi_margin_loss(logits, labels.astype(ms.int64), 2, 2, cw, 'sum')
ops.multi_margin_loss(logits, labels.astype(ms.int64))
ops.multilabel_soft_margin_loss(a[:, :4], mlt, pw)
ops.hinge_embedding_loss(a[:, :4], sgn, 0.5)
ops.margin_ranking_loss(a[:, :4], t01, sgn, 0.2)
ops.cosine_embedding_loss(ln[0], ln[1], sgn3, 0.1)
ops.mse_loss(a, a * 0.3, 'none')
ops.l1_loss(a, a * 0.3, 'sum')
ops.SmoothL1Loss(0.5, 'sum')(a, a * 0.2)
ops.MultiMarginLoss(1, 0.7, 'none')(logits, labels.astype(ms.int64), cw)
ops.l1_loss(a, a, 'bad')
(ops.batch_norm(bn, rm, rv, gamma3, beta3, True, 0.1), rm, rv)
(ops.batch_norm(bn2, rm, rv, gamma3, beta3, True, 0.3, 1e-3), rm, rv)
ops.batch_norm(bn, beta3, gamma3, gamma3, beta3)
(ops.BatchNorm(True, 1e-5, 0.2)(bn, gamma3, beta3, rm, rv)[0], rm, rv)
ops.layer_norm(ln, (4,), ln_w, ln_b)
ops.layer_norm(ln, (3, 4), eps=1e-3)
ops.LayerNorm(1, 1)(ln, ln[0] * 0 + 1, ln[0] * 0)[:2]
ops.LayerNorm(-1, -1)(ln, ln_w, ln_b)[:2]
ops.group_norm(gn, 3, gn_w, gn_b)
ops.group_norm(gn, 2)
ops.L2Normalize(axis=1)(ln)
ops.L2Normalize(axis=(1, 2), epsilon=1e-2)(ln)
ops.LRN(depth_radius=1, bias=1.5, alpha=0.3, beta=0.75)(lrn)
ops.LRN()(lrn)
ops.pixel_shuffle(ps, 2)
ops.pixel_unshuffle(pos, 1)
ops.unfold(x2, (2, 3), dilation=(1, 2), padding=1, stride=2)
ops.fold(ops.unfold(x2, 2), ms.Tensor([5, 6], ms.int32), 2)
ops.cosine_similarity(ln[0], ln[1], dim=-1)
ops.cosine_similarity(ln, ln * 0, dim=0)
ops.bias_add(x2, ln[0, :3, 0])
ops.dense(ln, ln_w.reshape(1, 4).tile((5, 1)), bias4.tile((2,))[:5])
ops.prelu(x2, ln[0, :3, 0])
ops.affine_grid(theta, (2, 3, 3, 4))
ops.affine_grid(theta, (2, 3, 3, 4), True)
ops.grid_sample(x2[:, :, :4, :5], grid)
ops.grid_sample(x2[:, :, :4, :5], grid, 'bilinear', 'border', True)
ops.grid_sample(x2[:, :, :4, :5], grid, 'bilinear', 'reflection', False)
ops.grid_sample(x2[:, :, :4, :5], grid, 'bilinear', 'reflection', True)
ops.grid_sample(x2[:, :, :4, :5], grid, 'nearest', 'zeros', False)
ops.max_unpool2d(up, upi, 2, output_size=(1, 2, 4, 9))
ops.max_unpool2d(up, upi, 2, output_size=(1, 2, 5, 7))
ops.max_unpool2d(up, upi, 2)
ops.max_unpool2d(up, upi, 3, 2, 1)
ops.pdist(a)
ops.pdist(a, 1.5)
ops.bidense(a[:2, :3], a[:2, 3:], x1[:, :, :4], bias4[:2])
ops.channel_shuffle(x2, 3)
ops.lrn(lrn, 2, 0.5, 0.2, 0.6)
ops.swiglu(a[:, :6])
ops.adaptive_avg_pool2d_ext(pool, (3, 5))
"""


def _encode(out):
    if isinstance(out, (tuple, list)):
        return {"seq": [_encode(o) for o in out]}
    arr = out.asnumpy()
    vals = arr.astype(np.int64 if arr.dtype == np.bool_ else np.float64)
    return {"dtype": str(out.dtype), "shape": list(arr.shape),
            "values": np.nan_to_num(vals, nan=0.0).reshape(-1).tolist()}


def main():
    ns0 = {"ms": ms, "ops": ops, "Tensor": Tensor, "Parameter": Parameter, "np": np}
    cases, skipped = [], []
    for expr in [line.strip() for line in CASES.strip().split("\n") if line.strip()]:
        ns = dict(ns0, **{k: Tensor(v) for k, v in ARRAYS.items()})
        # fresh running statistics for the batch_norm cases, read back after the call
        ns["rm"] = Parameter(Tensor(np.zeros(3, np.float32)), name="rm")
        ns["rv"] = Parameter(Tensor(np.ones(3, np.float32)), name="rv")
        try:
            cases.append({"expr": expr, "out": _encode(eval(expr, ns))})  # noqa: S307
        except Exception as err:  # noqa: BLE001 - recording MindSpore's behaviour
            kind = type(err).__name__
            if kind == "RuntimeError" or not hasattr(builtins, kind):
                skipped.append((expr, kind, str(err).split("\n")[0][:120]))
                continue
            cases.append({"expr": expr, "error": kind})
    inputs = {k: {"dtype": str(v.dtype), "values": v.reshape(-1).tolist(), "shape": list(v.shape)}
              for k, v in ARRAYS.items()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn_ops.json")
    with open(path, "w") as f:
        json.dump({"inputs": inputs, "cases": cases}, f)
    print(f"wrote {len(cases)} cases to {path}")
    for s in skipped:
        print("skipped (no MindSpore CPU kernel or internal error):", *s)


if __name__ == "__main__":
    main()
