"""``mindspore.mint`` against MindSpore 2.10 (tests/golden/mint.json) and, where
MindSpore's CPU build has no kernel for a mint function, against numpy."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, mint
import golden_cases

GOLDEN = golden_cases.load("mint.json")
INPUTS = golden_cases.inputs(GOLDEN)
# MindSpore's CPU build has no kernel for these (RuntimeError) or fails inside its own
# dispatch (kthvalue's "should not come here"): they are checked against numpy below.
CASES = [c for c in GOLDEN["cases"] if not (c.get("error") == "RuntimeError"
                                            or c["expr"].startswith("mint.kthvalue"))]


def _namespace():
    ns = {"ms": ms, "mint": mint, "Tensor": Tensor, "np": np}
    ns.update({k: Tensor(a) for k, a in INPUTS.items()})
    return ns


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["expr"])
def test_matches_mindspore(case):
    golden_cases.run_case(case, _namespace())


x, y, z, i, v, m, bm, u = (INPUTS[k] for k in ("x", "y", "z", "i", "v", "m", "bm", "u"))
idx, rows = INPUTS["idx"], INPUTS["rows"]


def _scatter(dst, index, src, add):
    out = dst.copy()
    for r in range(index.shape[0]):
        for c in range(index.shape[1]):
            if add:
                out[r, index[r, c]] += src[r, c]
            else:
                out[r, index[r, c]] = src[r, c]
    return out


# mint calls MindSpore 2.10's CPU build has no kernel for: (expression, numpy result)
NUMPY = [
    ("mint.div(i, 2, rounding_mode='floor')", np.floor_divide(i, 2)),
    ("mint.floor_divide(i, 3)", np.floor_divide(i, 3)),
    ("mint.where(b)", np.nonzero(INPUTS["b"])),
    ("mint.argmax(x)", np.argmax(x)),
    ("mint.argmax(x, dim=1, keepdim=True)", np.argmax(x, 1)[:, None]),
    ("mint.argmin(i, 0)", np.argmin(i, 0)),
    ("mint.std(x)", np.std(x, ddof=1)),
    ("mint.std(x, 1, correction=0, keepdim=True)", np.std(x, 1, keepdims=True)),
    ("mint.var(z, (0, 2))", np.var(z, (0, 2), ddof=1)),
    ("mint.std_mean(x, 0)", (np.std(x, 0, ddof=1), np.mean(x, 0))),
    ("mint.logsumexp(x, 1)", np.log(np.exp(x).sum(1))),
    ("mint.cumsum(x, 1)", np.cumsum(x, 1)),
    ("mint.cummin(x, 0)[0]", np.minimum.accumulate(x, 0)),
    ("mint.topk(x, 2)", (-np.sort(-x, 1)[:, :2], np.argsort(-x, 1)[:, :2])),
    ("mint.topk(x, 2, dim=0, largest=False)", (np.sort(x, 0)[:2], np.argsort(x, 0)[:2])),
    ("mint.sort(i, dim=0, descending=True)[0]", -np.sort(-i, 0)),
    ("mint.sort(x)", (np.sort(x), np.argsort(x))),
    ("mint.argsort(x)", np.argsort(x)),
    ("mint.count_nonzero(i)", np.count_nonzero(i)),
    ("mint.count_nonzero(INPUTS_b, 1)", np.count_nonzero(INPUTS["b"], 1)),
    ("mint.median(i)", np.sort(i.ravel())[(i.size - 1) // 2]),
    ("mint.median(x, 1)[0]", np.sort(x, 1)[:, 1]),
    ("mint.kthvalue(x, 2, 1)", (np.sort(x, 1)[:, 1], np.argsort(x, 1)[:, 1])),
    ("mint.stack((x, y), dim=2)", np.stack((x, y), 2)),
    ("mint.index_select(x, 1, rows)", x[:, rows]),
    ("mint.scatter(x, 1, idx, y)", _scatter(x, idx, y, False)),
    ("mint.scatter_add(x, 1, idx, y)", _scatter(x, idx, y, True)),
    ("mint.repeat_interleave(x, 2, 0)", np.repeat(x, 2, 0)),
    ("mint.repeat_interleave(x, Tensor([1, 0, 2]), dim=0)", np.repeat(x, [1, 0, 2], 0)),
    ("mint.tril(x, -1)", np.tril(x, -1)),
    ("mint.diag(v)", np.diag(v)),
    ("mint.diag(x, 1)", np.diag(x, 1)),
    ("mint.mm(x, m)", x @ m),
    ("mint.mv(x[:, :3], v)", x[:, :3] @ v),
    ("mint.dot(v, v)", v @ v),
    ("mint.outer(v, v)", np.outer(v, v)),
    ("mint.baddbmm(z[:, :3, :3], bm[:, :3], bm[:, :3].swapaxes(1, 2), beta=0.5, alpha=2)",
     0.5 * z[:, :3, :3] + 2 * bm[:, :3] @ bm[:, :3].swapaxes(1, 2)),
    ("mint.addmm(x[:, :2], x, m, beta=2)", 2 * x[:, :2] + x @ m),
    ("mint.clone(x)", x),
    ("mint.full((2, 2), 7)", np.full((2, 2), 7, np.int64)),
    ("mint.full((2, 2), 1.5, dtype=ms.float64)", np.full((2, 2), 1.5)),
    ("mint.zeros_like(i)", np.zeros_like(i)),
    ("mint.ones_like(x, dtype=ms.int32)", np.ones(x.shape, np.int32)),
    ("mint.arange(1, 4, 0.5)", np.arange(1, 4, 0.5, dtype=np.float32)),
    ("mint.linspace(0, 1, 5)", np.linspace(0, 1, 5, dtype=np.float32)),
    ("mint.equal(x, x)", True),
    ("mint.frac(x)", x - np.trunc(x)),
    ("mint.logaddexp(x, y)", np.logaddexp(x, y)),
    ("mint.unique(u)", np.unique(u)),
    ("mint.unique(u, return_inverse=True, return_counts=True)",
     np.unique(u, return_inverse=True, return_counts=True)[:3]),
    ("mint.vdot(v, v)", np.vdot(v, v)),
    ("mint.norm(x)", np.linalg.norm(x)),
    ("mint.norm(x, 1, 1)", np.abs(x).sum(1)),
    ("mint.norm(x, dim=0, keepdim=True)", np.sqrt((x ** 2).sum(0, keepdims=True))),
    ("mint.histc(v, 3, 0, 3)", np.histogram(v, 3, (0, 3))[0].astype(np.float32)),
    ("mint.trace(x[:, :3])", np.trace(x[:, :3])),
    ("mint.bincount(u)", np.bincount(u)),
    ("mint.log2(v)", np.log2(v)),
    ("mint.exp2(v)", np.exp2(v)),
    ("mint.acos(x / 4)", np.arccos(x / 4)),
    ("mint.arctan2(x, y)", np.arctan2(x, y)),
    ("mint.bitwise_and(i, 6)", np.bitwise_and(i, 6)),
    ("mint.nn.functional.pad(x, (1, 1, 2, 0), value=3.0)",
     np.pad(x, ((2, 0), (1, 1)), constant_values=3.0)),
    ("mint.nn.functional.pad(x, (1, 1), mode='reflect')", np.pad(x, ((0, 0), (1, 1)), "reflect")),
]


def _cross_entropy(logits, target, smoothing=0.0):
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    n = logits.shape[1]
    onehot = np.eye(n)[target] * (1 - smoothing) + smoothing / n
    return -(onehot * logp).sum(1)


NUMPY += [
    ("mint.nn.CrossEntropyLoss()(x, Tensor([1, 0, 3], ms.int32))",
     _cross_entropy(x, [1, 0, 3]).mean()),
    ("mint.nn.CrossEntropyLoss(reduction='none', label_smoothing=0.1)(x, "
     "Tensor([1, 0, 3], ms.int32))", _cross_entropy(x, [1, 0, 3], 0.1)),
    ("mint.nn.SiLU()(x)", x / (1 + np.exp(-x))),
]


def _compare(got, want, expr):
    if isinstance(want, tuple):
        assert len(got) == len(want), expr
        for g, w in zip(got, want):
            _compare(g, w, expr)
        return
    got = got.asnumpy() if isinstance(got, Tensor) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{expr}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=expr)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=expr)


@pytest.mark.parametrize("expr,want", NUMPY, ids=[e for e, _ in NUMPY])
def test_matches_numpy_where_mindspore_cpu_has_no_kernel(expr, want):
    ns = _namespace()
    ns["INPUTS_b"] = ns["b"]
    _compare(eval(expr, ns), want, expr)  # noqa: S307


def test_random_creation_shapes_and_dtypes():
    assert mint.rand(2, 3).shape == (2, 3) and str(mint.rand(2, 3).dtype) == "Float32"
    assert mint.randn((4,)).shape == (4,)
    r = mint.randint(3, 10, (50,)).asnumpy()
    assert r.dtype == np.int64 and r.min() >= 3 and r.max() < 10
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    assert mint.normal(1.0, 2.0, (3, 2)).shape == (3, 2)
    with pytest.raises(TypeError):
        mint.rand(2, generator=object())


def test_in_a_jitted_function():
    @ms.jit
    def f(a, b):
        values, indices = mint.max(a, 1)
        return mint.add(values, mint.sum(b, 1), alpha=2), indices

    got = f(Tensor(x), Tensor(y))
    np.testing.assert_allclose(got[0].asnumpy(), x.max(1) + 2 * y.sum(1), rtol=1e-5)
    np.testing.assert_array_equal(got[1].asnumpy(), x.argmax(1))
