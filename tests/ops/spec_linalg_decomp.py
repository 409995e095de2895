"""OpSpecs: decompositions and solvers (svd, qr, cholesky, solves, slogdet, pinv, expm, cond).

Factors are only unique up to signs, so the specs check sign-free quantities
(singular values, reconstructions, |R|) rather than raw factors.
"""
import numpy as np
import scipy.linalg

from msxla import ops
from optable import OpSpec

F = (np.float32, np.float64)
TOL = dict(rtol=1e-4, atol=1e-5)


def _spd(n, batch=()):
    def make(rng, dt):
        a = rng.standard_normal(batch + (n, n))
        return [(a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dt)]
    return make


def _spd_and_rhs(n, k):
    def make(rng, dt):
        (a,) = _spd(n)(rng, dt)
        return [rng.standard_normal((n, k)).astype(dt), np.linalg.cholesky(a).astype(dt)]
    return make


def _square(n, batch=()):
    def make(rng, dt):
        return [(rng.standard_normal(batch + (n, n)) + 2 * np.eye(n)).astype(dt)]
    return make


def _svd_rebuild(a):
    s, u, v = ops.svd(a)
    return ops.matmul(u * ops.expand_dims(s, -2), ops.swapaxes(v, -1, -2))


def _qr_rebuild(a):
    q, r = ops.qr(a)
    return ops.matmul(q, r)


def _pinv_half(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    s_inv = np.where(s > 0.5 * s.max(), 1 / s, 0)
    return (vh.T * s_inv) @ u.T


def _chol_solve(b, low):
    low = np.tril(low)  # the factor's upper triangle is never read
    return np.linalg.solve(low @ low.T, b)


def _sym(a):
    return (a + np.swapaxes(a, -1, -2)) / 2


def _chol_sym(a):
    # symmetrised first: numerical gradients then perturb A and A^T together
    return ops.cholesky((a + ops.swapaxes(a, -1, -2)) / 2)


SPECS = [
    OpSpec("svd", lambda a: np.linalg.svd(a, compute_uv=False), ((4, 3),),
           fn=lambda a: ops.svd(a, compute_uv=False), dtypes=F, grad=True, **TOL),
    OpSpec("svd", lambda a: a, ((2, 4, 3),), fn=_svd_rebuild, dtypes=F, grad=True,
           id="rebuild", **TOL),
    OpSpec("svd", lambda a: np.abs(np.linalg.svd(a)[0]), ((3, 3),),
           fn=lambda a: ops.abs(ops.svd(a, full_matrices=True)[1]), dtypes=(np.float64,),
           id="full-u"),
    OpSpec("qr", lambda a: a, ((4, 3),), fn=_qr_rebuild, dtypes=F, grad=True, **TOL),
    OpSpec("qr", lambda a: np.abs(np.linalg.qr(a, "complete")[1]), ((4, 3),),
           fn=lambda a: ops.abs(ops.qr(a, "complete")[1]), dtypes=(np.float64,), id="complete"),
    OpSpec("cholesky", lambda a: np.linalg.cholesky(_sym(a)), _spd(3), fn=_chol_sym, dtypes=F,
           grad=True, **TOL),
    OpSpec("cholesky", lambda a: np.swapaxes(np.linalg.cholesky(a), -1, -2), _spd(3, (2,)),
           fn=lambda a: ops.cholesky(a, upper=True), dtypes=(np.float64,), id="upper-batched"),
    OpSpec("cholesky_solve", _chol_solve, _spd_and_rhs(3, 2), dtypes=F, grad=True, **TOL),
    OpSpec("matrix_solve", np.linalg.solve, lambda rng, dt: _square(3)(rng, dt) + [
        rng.standard_normal((3, 2)).astype(dt)], dtypes=F, grad=True, **TOL),
    OpSpec("lstsq", lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0],
           lambda rng, dt: [rng.standard_normal((5, 3)).astype(dt),
                            rng.standard_normal((5, 2)).astype(dt)], dtypes=F, **TOL),
    OpSpec("slogdet", lambda a: tuple(np.linalg.slogdet(a)), _square(3, (2,)), dtypes=F,
           **TOL),
    OpSpec("logdet", lambda a: np.log(np.linalg.det(a)), _spd(3), dtypes=F, grad=True, **TOL),
    OpSpec("pinv", np.linalg.pinv, ((4, 3),), dtypes=F, grad=True, **TOL),
    OpSpec("pinv", _pinv_half, ((3, 4),),
           fn=lambda a: ops.pinv(a, rtol=0.5), dtypes=(np.float64,), id="rtol"),
    OpSpec("matrix_exp", scipy.linalg.expm, ((3, 3),), dtypes=F, grad=True, **TOL),
    OpSpec("matrix_exp", lambda a: np.stack([scipy.linalg.expm(m) for m in a]), ((2, 2, 2),),
           dtypes=(np.float64,), id="batched"),
    OpSpec("cond", np.linalg.cond, _square(3), dtypes=F, **TOL),
    OpSpec("cond", lambda a: np.linalg.cond(a, 1), _square(3), fn=lambda a: ops.cond(a, 1),
           dtypes=(np.float64,), id="p1"),
]
