"""OpSpecs: losses, against numpy written from the loss formulas."""
import numpy as np

import msxla as ms
from optable import OpSpec

F = (np.float32, np.float64)


def _red(loss, reduction):
    return {"mean": np.mean, "sum": np.sum}.get(reduction, lambda a: a)(loss)


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _sig(x):
    return 1 / (1 + np.exp(-x))


def ce_ref(x, t, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0,
           log_input=False):
    """Cross entropy with class indices, looping over samples (class axis 1)."""
    lp = x if log_input else _log_softmax(x.astype(np.float64), 1)
    lp = np.moveaxis(lp, 1, -1).reshape(-1, x.shape[1])
    t = t.reshape(-1)
    c = x.shape[1]
    w = np.ones(c) if weight is None else weight.astype(np.float64)
    loss, total = np.zeros(len(t)), 0.0
    for i, ti in enumerate(t):
        if ti == ignore_index:
            continue
        total += w[ti]
        loss[i] = (1 - label_smoothing) * -w[ti] * lp[i, ti]
        loss[i] += label_smoothing / c * -(w * lp[i]).sum()
    if reduction == "mean":
        return np.asarray(loss.sum() / total).astype(x.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum()).astype(x.dtype)
    return loss.reshape((x.shape[0],) + x.shape[2:]).astype(x.dtype)


def ce_prob_ref(x, t, label_smoothing=0.0, reduction="mean"):
    c = x.shape[1]
    t = t * (1 - label_smoothing) + label_smoothing / c
    loss = -(t * _log_softmax(x.astype(np.float64), 1)).sum(1)
    return np.asarray(_red(loss, reduction)).astype(x.dtype)


def _cls(n, c, extra=(), ignore=False):
    def make(rng, dt):
        t = rng.integers(0, c, (n,) + extra)
        if ignore:
            t[0] = -1
        return [rng.standard_normal((n, c) + extra).astype(dt), t.astype(np.int32),
                rng.uniform(0.5, 2, c).astype(dt)]
    return make


def _probs(rng, dt):
    x = rng.standard_normal((4, 3))
    return [x.astype(dt), np.exp(_log_softmax(rng.standard_normal((4, 3)), 1)).astype(dt)]


def bce_ref(x, y, w=None, reduction="mean"):
    loss = -(y * np.log(x) + (1 - y) * np.log(1 - x))
    return np.asarray(_red(loss * (1 if w is None else w), reduction)).astype(x.dtype)


def bce_logits_ref(x, y, w=None, pw=None, reduction="mean"):
    pw = 1 if pw is None else pw
    loss = -(pw * y * np.log(_sig(x)) + (1 - y) * np.log(1 - _sig(x)))
    return np.asarray(_red(loss * (1 if w is None else w), reduction)).astype(x.dtype)


def _bce_inputs(rng, dt):
    return [rng.uniform(0.1, 0.9, (3, 4)).astype(dt), rng.uniform(0, 1, (3, 4)).astype(dt),
            rng.uniform(0.5, 2, (4,)).astype(dt)]


def _bcel_inputs(rng, dt):
    return [rng.standard_normal((3, 4)).astype(dt), rng.uniform(0, 1, (3, 4)).astype(dt),
            rng.uniform(0.5, 2, (4,)).astype(dt), rng.uniform(0.5, 2, (4,)).astype(dt)]


def kl_ref(x, y, reduction="mean"):
    loss = y * (np.log(y) - x)
    if reduction == "batchmean":
        return np.asarray(loss.sum() / x.shape[0]).astype(x.dtype)
    return np.asarray(_red(loss, reduction)).astype(x.dtype)


def multi_margin_ref(x, t, p=1, margin=1, weight=None, reduction="mean"):
    n, c = x.shape
    loss = np.zeros(n)
    for i in range(n):
        for j in range(c):
            if j != t[i]:
                term = max(0.0, margin - x[i, t[i]] + x[i, j]) ** p
                loss[i] += term * (1 if weight is None else weight[t[i]])
    return np.asarray(_red(loss / c, reduction)).astype(x.dtype)


def multilabel_margin_ref(x, t, reduction="mean"):
    n, c = x.shape
    loss = np.zeros(n)
    for i in range(n):
        tg = []
        for v in t[i]:
            if v < 0:
                break
            tg.append(v)
        for j in tg:
            for k in range(c):
                if k not in tg:
                    loss[i] += max(0.0, 1 - (x[i, j] - x[i, k]))
    return np.asarray(_red(loss / c, reduction)).astype(x.dtype)


def _ml_inputs(rng, dt):
    return [rng.standard_normal((3, 4)).astype(dt),
            np.array([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 0, 0, 0]], np.int32)]


def _mlsm_ref(x, y, w=None, reduction="mean"):
    loss = -(y * np.log(_sig(x)) + (1 - y) * np.log(_sig(-x))) * (1 if w is None else w)
    return np.asarray(_red(loss.mean(-1), reduction)).astype(x.dtype)


def _sparse_ce(x, t):
    return ce_ref(x, t)


SPECS = [
    OpSpec("cross_entropy", lambda x, t, w: ce_ref(x, t), _cls(5, 4), dtypes=F, grad=True,
           grad_inputs=(0,), fn=lambda x, t, w: ms.ops.cross_entropy(x, t)),
    OpSpec("cross_entropy", lambda x, t, w: ce_ref(x, t, w, ignore_index=-1, label_smoothing=0.2),
           _cls(5, 4, ignore=True), dtypes=F, grad=True, grad_inputs=(0, 2), id="w-ignore-ls",
           fn=lambda x, t, w: ms.ops.cross_entropy(x, t, w, ignore_index=-1,
                                                   label_smoothing=0.2)),
    OpSpec("cross_entropy", lambda x, t, w: ce_ref(x, t, w, reduction="none"),
           _cls(2, 3, (4,)), dtypes=F, grad=True, grad_inputs=(0,), id="spatial-none",
           fn=lambda x, t, w: ms.ops.cross_entropy(x, t, w, reduction="none")),
    OpSpec("cross_entropy", lambda x, t: ce_prob_ref(x, t, 0.1), _probs, dtypes=F, grad=True,
           id="probs", fn=lambda x, t: ms.ops.cross_entropy(x, t, label_smoothing=0.1)),
    OpSpec("nll_loss", lambda x, t, w: ce_ref(x, t, w, reduction="sum", log_input=True),
           _cls(5, 4), dtypes=F, grad=True, grad_inputs=(0, 2),
           fn=lambda x, t, w: ms.ops.nll_loss(x, t, w, reduction="sum")),
    OpSpec("nll_loss", lambda x, t, w: (ce_ref(x, t, w, ignore_index=-1, log_input=True),
                                        np.asarray(w[t[1:]].sum(), x.dtype)),
           _cls(5, 4, ignore=True), dtypes=F, id="NLLLoss-prim",
           fn=lambda x, t, w: ms.ops.NLLLoss(ignore_index=-1)(x, t, w)),
    OpSpec("binary_cross_entropy", bce_ref, _bce_inputs, dtypes=F, grad=True,
           grad_inputs=(0,)),
    OpSpec("binary_cross_entropy_with_logits", bce_logits_ref, _bcel_inputs, dtypes=F,
           grad=True, grad_inputs=(0,), kwargs={"reduction": "sum"}),
    OpSpec("binary_cross_entropy_with_logits", lambda x, y: bce_logits_ref(x, y, reduction="none"),
           lambda rng, dt: _bcel_inputs(rng, dt)[:2], dtypes=F, grad=True,
           id="SigmoidCrossEntropyWithLogits",
           fn=lambda x, y: ms.ops.SigmoidCrossEntropyWithLogits()(x, y)),
    OpSpec("kl_div", kl_ref, _probs, dtypes=F, grad=True, grad_inputs=(0,)),
    OpSpec("kl_div", kl_ref, _probs, kwargs={"reduction": "batchmean"}, dtypes=F, grad=True,
           id="batchmean"),
    OpSpec("multi_margin_loss", multi_margin_ref, lambda rng, dt: _cls(5, 4)(rng, dt)[:2],
           dtypes=F, grad=True),
    OpSpec("multi_margin_loss", lambda x, t, w: multi_margin_ref(x, t, 2, 2, w, "sum"),
           _cls(5, 4), dtypes=F, grad=True, grad_inputs=(0,), id="p2-weight",
           fn=lambda x, t, w: ms.ops.multi_margin_loss(x, t, 2, 2, w, "sum")),
    OpSpec("multi_margin_loss", lambda x, t, w: multi_margin_ref(x, t, 1, 0.7, w, "none"),
           _cls(5, 4), dtypes=F, grad=True, grad_inputs=(0,), id="MultiMarginLoss-prim",
           fn=lambda x, t, w: ms.ops.MultiMarginLoss(1, 0.7, "none")(x, t, w)),
    OpSpec("multilabel_margin_loss", multilabel_margin_ref, _ml_inputs, dtypes=F, grad=True),
    OpSpec("multilabel_soft_margin_loss", _mlsm_ref,
           lambda rng, dt: [rng.standard_normal((3, 4)).astype(dt),
                            (rng.random((3, 4)) > 0.5).astype(dt),
                            rng.uniform(0.5, 2, 4).astype(dt)],
           dtypes=F, grad=True, grad_inputs=(0,)),
    OpSpec("sparse_softmax_cross_entropy_with_logits", _sparse_ce,
           lambda rng, dt: _cls(5, 4)(rng, dt)[:2], dtypes=F, grad=True,
           fn=lambda x, t: ms.ops.SparseSoftmaxCrossEntropyWithLogits()(x, t)),
]
