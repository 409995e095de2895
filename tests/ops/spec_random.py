"""OpSpecs: random rows, checked by sample statistics (mean, std, bounds) over many draws.

Each spec draws N samples and compares summary statistics with the
distribution's; tolerances are several standard errors wide.
"""
import numpy as np

import msxla as ms
from msxla import Tensor, ops
from optable import OpSpec

N = 20000


def _stats(t):
    a = np.asarray(t.asnumpy(), np.float64).ravel()
    return np.array([a.mean(), a.std()])


def stat_spec(name, draw, mean, std, atol=0.04, id=""):
    """``draw()`` returns a Tensor of samples; its (mean, std) must match."""
    return OpSpec(name, lambda: np.array([mean, std]), shapes=(), dtypes=(np.float64,),
                  fn=lambda: _stats(draw()), atol=atol, rtol=0, id=id)


def _f32(v):
    return Tensor(np.asarray(v, np.float32))


def _perm_check(draw, n):
    def fn():
        p = np.sort(draw().asnumpy())
        return p.astype(np.float64)
    return OpSpec("randperm", lambda: np.arange(n, dtype=np.float64), shapes=(),
                  dtypes=(np.float64,), fn=fn, check_dtype=True)


def _shuffle_check():
    x = np.arange(12).reshape(6, 2)

    def fn():
        out = ops.shuffle(Tensor(x)).asnumpy()
        return out[np.argsort(out[:, 0])].astype(np.float64)
    return OpSpec("shuffle", lambda: x.astype(np.float64), shapes=(), dtypes=(np.float64,),
                  fn=fn)


def _categorical_freqs(draw, probs):
    def fn():
        s = draw().asnumpy().ravel()
        return np.bincount(s, minlength=len(probs)) / s.size
    return fn


PROBS = np.array([0.1, 0.2, 0.7])

SPECS = [
    stat_spec("uniform", lambda: ops.uniform((N,), _f32(1.0), _f32(3.0)), 2.0, 2 / 12 ** 0.5),
    stat_spec("uniform", lambda: ops.uniform((N,), Tensor(2, ms.int32), Tensor(6, ms.int32),
                                             dtype=ms.int32), 3.5, (15 / 12) ** 0.5, id="int"),
    stat_spec("normal", lambda: ops.normal((N,), _f32(1.5), _f32(2.0)), 1.5, 2.0, atol=0.06),
    stat_spec("standard_normal", lambda: ops.standard_normal((N,)), 0.0, 1.0),
    stat_spec("standard_normal", lambda: ops.randn(100, N // 100, dtype=ms.float64), 0.0, 1.0,
              id="randn"),
    stat_spec("rand", lambda: ops.rand(N), 0.5, 12 ** -0.5, atol=0.02),
    stat_spec("truncated_normal", lambda: ops.TruncatedNormal()(Tensor([100, N // 100])), 0.0,
              0.8796, atol=0.03),
    OpSpec("truncated_normal", lambda: np.array([2.0]), shapes=(), dtypes=(np.float64,),
           fn=lambda: np.array([np.abs(ops.TruncatedNormal()((N, 1)).asnumpy()).max()], np.float64),
           atol=0.1, rtol=0, id="bounds"),
    stat_spec("gamma", lambda: ops.gamma((N,), _f32([3.0]), _f32([2.0])), 1.5, 3 ** 0.5 / 2),
    stat_spec("random_gamma", lambda: ops.random_gamma((N,), _f32([0.5])), 0.5, 0.5 ** 0.5),
    stat_spec("standard_laplace", lambda: ops.standard_laplace((N,)), 0.0, 2 ** 0.5, atol=0.06),
    stat_spec("laplace", lambda: ops.laplace((N,), _f32(1.0), _f32(0.5)), 1.0, 0.5 * 2 ** 0.5,
              atol=0.04),
    stat_spec("randint", lambda: ops.randint(-3, 5, (N,)), 0.5, (63 / 12) ** 0.5, atol=0.08),
    stat_spec("bernoulli", lambda: ops.bernoulli(Tensor(np.zeros(N, np.float32)), 0.3), 0.3,
              (0.21) ** 0.5, atol=0.02),
    stat_spec("poisson", lambda: ops.poisson((N,), _f32([4.0])), 4.0, 2.0, atol=0.08),
    stat_spec("random_poisson", lambda: ops.random_poisson((N,), _f32([2.0])), 2.0, 2 ** 0.5,
              atol=0.06),
    OpSpec("multinomial", lambda: PROBS, shapes=(), dtypes=(np.float64,), atol=0.02, rtol=0,
           fn=_categorical_freqs(lambda: ops.multinomial(_f32(PROBS * 10), N), PROBS)),
    OpSpec("random_categorical", lambda: PROBS, shapes=(), dtypes=(np.float64,), atol=0.02,
           rtol=0, fn=_categorical_freqs(
               lambda: ops.random_categorical(_f32(np.log(PROBS))[None], N), PROBS)),
    _perm_check(lambda: ops.randperm(50), 50),
    _shuffle_check(),
]
