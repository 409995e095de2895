"""OpSpecs: regression, ranking and embedding losses against numpy."""
import numpy as np

import msxla as ms
from optable import OpSpec

F = (np.float32, np.float64)


def _red(loss, reduction):
    out = {"mean": np.mean, "sum": np.sum}.get(reduction, lambda a: a)(loss)
    return np.asarray(out)


def _same(fn):
    """A reference returned in the first input's dtype."""
    def ref(x, *rest, **kw):
        return fn(x.astype(np.float64), *rest, **kw).astype(x.dtype)
    return ref


def _smooth_l1(x, y, beta=1.0, reduction="none"):
    d = np.abs(x - y)
    return _red(np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


def _huber(x, y, reduction="mean", delta=1.0):
    d = np.abs(x - y)
    return _red(np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction)


def _gauss(x, t, var, full=False, eps=1e-6, reduction="mean"):
    v = np.maximum(var, eps)
    loss = 0.5 * (np.log(v) + (x - t) ** 2 / v) + (0.5 * np.log(2 * np.pi) if full else 0)
    return _red(loss, reduction)


def _signs(*shapes):
    def make(rng, dt):
        out = [rng.standard_normal(s).astype(dt) for s in shapes[:-1]]
        return out + [np.where(rng.random(shapes[-1]) > 0.5, 1, -1).astype(dt)]
    return make


def _cosine(x1, x2, t, margin=0.0, reduction="mean"):
    cos = (x1 * x2).sum(-1) / np.sqrt(((x1 ** 2).sum(-1) + 1e-12) * ((x2 ** 2).sum(-1) + 1e-12))
    return _red(np.where(t == 1, 1 - cos, np.maximum(cos - margin, 0)), reduction)


def _triplet(a, p, n, margin=1.0, pn=2, eps=1e-6, swap=False, reduction="mean"):
    def d(u, v):
        return (np.abs(u - v + eps) ** pn).sum(-1) ** (1 / pn)
    dan = d(a, n)
    if swap:
        dan = np.minimum(dan, d(p, n))
    return _red(np.maximum(d(a, p) - dan + margin, 0), reduction)


SPECS = [
    OpSpec("mse_loss", _same(lambda x, y, reduction="mean": _red((x - y) ** 2, reduction)),
           ((3, 4), (3, 4)), dtypes=F + (np.float16,), grad=True),
    OpSpec("mse_loss", _same(lambda x, y, reduction="mean": _red((x - y) ** 2, reduction)),
           ((3, 4), (4,)), kwargs={"reduction": "none"}, dtypes=F, grad=True, id="none"),
    OpSpec("l1_loss", _same(lambda x, y, reduction="mean": _red(np.abs(x - y), reduction)),
           ((3, 4), (3, 4)), kwargs={"reduction": "sum"}, dtypes=F, grad=True),
    OpSpec("smooth_l1_loss", _same(_smooth_l1), ((3, 4), (3, 4)), kwargs={"beta": 0.5},
           dtypes=F, grad=True),
    OpSpec("smooth_l1_loss", _same(lambda x, y: _smooth_l1(x, y, 0.5, "mean")),
           ((3, 4), (3, 4)), dtypes=F, grad=True, id="SmoothL1Loss-prim",
           fn=lambda x, y: ms.ops.SmoothL1Loss(0.5, "mean")(x, y)),
    OpSpec("huber_loss", _same(_huber), ((3, 4), (3, 4)), kwargs={"delta": 0.5}, dtypes=F,
           grad=True),
    OpSpec("gaussian_nll_loss", _same(_gauss),
           lambda rng, dt: [rng.standard_normal((3, 4)).astype(dt),
                            rng.standard_normal((3, 4)).astype(dt),
                            rng.uniform(0.5, 2, (3, 4)).astype(dt)],
           kwargs={"full": True}, dtypes=F, grad=True),
    OpSpec("soft_margin_loss", _same(lambda x, y, reduction="mean": _red(
        np.log1p(np.exp(-y * x)), reduction)), _signs((3, 4), (3, 4)), dtypes=F, grad=True,
        grad_inputs=(0,)),
    OpSpec("soft_margin_loss", _same(lambda x, y: _red(np.log1p(np.exp(-y * x)), "sum")),
           _signs((3, 4), (3, 4)), dtypes=F, id="SoftMarginLoss-prim",
           fn=lambda x, y: ms.ops.SoftMarginLoss("sum")(x, y)),
    OpSpec("margin_ranking_loss", _same(lambda a, b, t, margin=0.0, reduction="mean": _red(
        np.maximum(-t * (a - b) + margin, 0), reduction)), _signs((5,), (5,), (5,)),
        kwargs={"margin": 0.3}, dtypes=F, grad=True, grad_inputs=(0, 1)),
    OpSpec("hinge_embedding_loss", _same(lambda x, t, margin=1.0, reduction="mean": _red(
        np.where(t == 1, x, np.maximum(margin - x, 0)), reduction)), _signs((3, 4), (3, 4)),
        dtypes=F, grad=True, grad_inputs=(0,)),
    OpSpec("cosine_embedding_loss", _same(_cosine), _signs((4, 3), (4, 3), (4,)),
           kwargs={"margin": 0.1}, dtypes=F, grad=True, grad_inputs=(0, 1)),
    OpSpec("triplet_margin_loss", _same(_triplet), ((4, 3), (4, 3), (4, 3)), dtypes=F,
           grad=True),
    OpSpec("triplet_margin_loss", _same(lambda a, p, n: _triplet(a, p, n, 0.5, 1, swap=True,
                                                                 reduction="none")),
           ((4, 3), (4, 3), (4, 3)), dtypes=F, grad=True, id="p1-swap",
           fn=lambda a, p, n: ms.ops.triplet_margin_loss(a, p, n, 0.5, 1, swap=True,
                                                         reduction="none")),
    OpSpec("l2_loss", _same(lambda x: np.asarray((x ** 2).sum() / 2)), ((3, 4),), dtypes=F,
           grad=True, fn=lambda x: ms.ops.L2Loss()(x)),
]
