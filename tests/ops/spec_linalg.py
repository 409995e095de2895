"""OpSpecs: products (matmul, bmm, dot, einsum, kron, cross, add*) and matrix functions."""
import numpy as np

from msxla import ops
from optable import OpSpec, sample

F = (np.float32, np.float64)
FI = F + (np.int32, np.int64)
H = dict(dtypes=(np.float16,), rtol=2e-2, atol=2e-2)


def _well_conditioned(*shapes):
    def make(rng, dt):
        out = []
        for s in shapes:
            n = s[-1]
            out.append((rng.standard_normal(s) + 3 * np.eye(n)).astype(dt))
        return out
    return make


def _cross_ref(a, b):
    return np.cross(a, b, axis=0)


def _cdist(p):
    def ref(a, b):
        d = np.abs(a[..., :, None, :] - b[..., None, :, :])
        if p == np.inf:
            return d.max(-1)
        return (d ** p).sum(-1) ** (1.0 / p)
    return ref


def _ints(*shapes):
    return lambda rng, dt: [sample(rng, s, dt, "int") for s in shapes]


SPECS = [
    OpSpec("matmul", np.matmul, ((2, 3), (3, 4)), dtypes=FI, grad=True),
    OpSpec("matmul", np.matmul, ((2, 3), (3, 4)), id="f16", **H),
    OpSpec("matmul", np.matmul, ((2, 1, 3, 4), (5, 4, 2)), dtypes=F, grad=True, id="broadcast"),
    OpSpec("matmul", np.matmul, ((3,), (2, 3, 4)), dtypes=F, grad=True, id="vec-mat"),
    OpSpec("matmul", np.matmul, ((4,), (4,)), dtypes=FI, id="vec-vec"),
    OpSpec("mm", np.matmul, ((2, 3), (3, 4)), dtypes=FI, grad=True),
    OpSpec("bmm", np.matmul, ((2, 3, 4), (2, 4, 5)), dtypes=FI, grad=True),
    OpSpec("dot", np.dot, ((2, 3), (3, 4)), dtypes=F, grad=True),
    OpSpec("dot", np.dot, ((2, 2, 3), (4, 3, 2)), dtypes=(np.float32,), grad=True, id="nd"),
    OpSpec("mv", np.matmul, ((2, 3), (3,)), dtypes=FI, grad=True),
    OpSpec("outer", np.outer, ((3,), (4,)), dtypes=FI, grad=True),
    OpSpec("ger", np.outer, ((3,), (4,)), dtypes=FI, grad=True),
    OpSpec("inner", np.inner, ((2, 3), (4, 3)), dtypes=FI, grad=True),
    OpSpec("inner", np.inner, ((3,), (3,)), dtypes=(np.float32,), id="vectors"),
    OpSpec("vecdot", lambda x, y: np.sum(x * y, -1), ((2, 3), (3,)), dtypes=FI, grad=True),
    OpSpec("vecdot", lambda x, y, axis: np.sum(x * y, axis), ((2, 3), (2, 3)), {"axis": 0},
           dtypes=(np.float32,), id="axis"),
    OpSpec("tensor_dot", lambda a, b: np.tensordot(a, b, ((1, 2), (0, 1))),
           ((2, 3, 4), (3, 4, 5)), fn=lambda a, b: ops.tensor_dot(a, b, [[1, 2], [0, 1]]),
           dtypes=FI, grad=True),
    OpSpec("tensor_dot", lambda a, b: np.tensordot(a, b, 1), ((2, 3), (3, 4)),
           fn=lambda a, b: ops.tensor_dot(a, b, 1), dtypes=(np.float32,), id="int-axes"),
    OpSpec("einsum", lambda a, b: np.einsum("bij,bjk->bik", a, b), ((2, 3, 4), (2, 4, 5)),
           fn=lambda a, b: ops.einsum("bij,bjk->bik", a, b), dtypes=F, grad=True),
    OpSpec("einsum", lambda a: np.einsum("ii->i", a), ((3, 3),),
           fn=lambda a: ops.einsum("ii->i", a), dtypes=(np.float32,), id="diag"),
    OpSpec("einsum", lambda a, b: np.einsum("ij,jk->ik", a, b), ((2, 3), (3, 4)),
           fn=lambda a, b: ops.einsum(a, [0, 1], b, [1, 2], [0, 2]), dtypes=(np.float32,),
           id="sublist"),
    OpSpec("kron", np.kron, ((2, 3), (2, 2)), dtypes=FI, grad=True),
    OpSpec("cross", lambda a, b: np.cross(a, b), ((4, 3), (4, 3)), dtypes=FI, grad=True),
    OpSpec("cross", _cross_ref, ((3, 4), (3, 4)), dtypes=(np.float32,), id="first-dim-3"),
    OpSpec("addmm", lambda i, a, b: 0.5 * i + 2 * (a @ b), ((2, 4), (2, 3), (3, 4)),
           fn=lambda i, a, b: ops.addmm(i, a, b, beta=0.5, alpha=2), dtypes=F, grad=True),
    OpSpec("addmm", lambda i, a, b: i + a @ b, ((2, 4), (2, 3), (3, 4)), dtypes=(np.int32,),
           id="int"),
    OpSpec("addmv", lambda i, a, v: 2 * i + a @ v, ((2,), (2, 3), (3,)),
           fn=lambda i, a, v: ops.addmv(i, a, v, beta=2), dtypes=F, grad=True),
    OpSpec("addbmm", lambda i, a, b: i + 3 * (a @ b).sum(0), ((3, 4), (2, 3, 5), (2, 5, 4)),
           fn=lambda i, a, b: ops.addbmm(i, a, b, alpha=3), dtypes=F, grad=True),
    OpSpec("baddbmm", lambda i, a, b: 2 * i + 0.5 * (a @ b), ((2, 3, 4), (2, 3, 5), (2, 5, 4)),
           fn=lambda i, a, b: ops.baddbmm(i, a, b, 2, 0.5), dtypes=F, grad=True),
    OpSpec("addr", lambda x, a, b: x + np.outer(a, b), ((3, 2), (3,), (2,)), dtypes=FI,
           grad=True),
    OpSpec("inverse", np.linalg.inv, _well_conditioned((3, 3)), dtypes=F, grad=True,
           rtol=1e-4, atol=1e-5),
    OpSpec("inverse", np.linalg.inv, _well_conditioned((2, 3, 3)), dtypes=(np.float64,),
           id="batched"),
    OpSpec("det", np.linalg.det, _well_conditioned((3, 3)), dtypes=F, grad=True, rtol=1e-4),
    OpSpec("det", np.linalg.det, _well_conditioned((2, 2, 2)), dtypes=(np.float64,),
           id="batched"),
    OpSpec("matrix_power", lambda a: np.linalg.matrix_power(a, 3), _well_conditioned((3, 3)),
           fn=lambda a: ops.matrix_power(a, 3), dtypes=F, grad=True, rtol=1e-4, atol=1e-4),
    OpSpec("matrix_power", lambda a: np.linalg.matrix_power(a, 2), _ints((3, 3)),
           fn=lambda a: ops.matrix_power(a, 2), dtypes=(np.int32,), id="int"),
    OpSpec("matrix_power", lambda a: np.linalg.matrix_power(a, -2), _well_conditioned((3, 3)),
           fn=lambda a: ops.matrix_power(a, -2), dtypes=(np.float64,), id="negative"),
    OpSpec("norm", lambda x: np.linalg.norm(x.reshape(-1)), ((2, 3, 4),), dtypes=F, grad=True),
    OpSpec("norm", lambda x: np.linalg.norm(x.reshape(-1)).astype(np.float32), ((2, 3),),
           dtypes=(np.int32,), id="int-to-float32"),
    OpSpec("norm", lambda x, ord, dim: np.linalg.norm(x, ord, dim), ((3, 4),),
           {"ord": 1, "dim": 1}, dtypes=F, grad=True, id="l1-rows"),
    OpSpec("norm", lambda x, ord, dim, keepdim: np.linalg.norm(x, ord, dim, keepdim),
           ((2, 3, 4),), {"ord": "fro", "dim": (1, 2), "keepdim": True}, dtypes=F, grad=True,
           id="fro-keepdim"),
    OpSpec("norm", lambda x, ord: np.linalg.norm(x, ord), ((3, 3),), {"ord": "nuc"}, dtypes=F,
           grad=True, rtol=1e-5, id="nuc"),
    OpSpec("norm", lambda x, ord: np.linalg.norm(x, ord), ((3, 4),), {"ord": 2}, dtypes=F,
           rtol=1e-5, id="spectral"),
    OpSpec("norm", lambda x, ord: np.linalg.norm(x, ord), ((3, 4),), {"ord": -np.inf},
           dtypes=F, id="neg-inf"),
    OpSpec("norm", lambda x, ord: np.linalg.norm(x, ord), ((5,),), {"ord": 3.5}, dtypes=F,
           grad=True, id="p-3.5"),
    OpSpec("norm", lambda x, ord: np.linalg.norm(x, ord), ((5,),), {"ord": 0}, dtypes=F,
           id="l0"),
    OpSpec("cdist", _cdist(2.0), ((2, 3, 4), (2, 5, 4)), dtypes=F, grad=True),
    OpSpec("cdist", _cdist(1.0), ((3, 4), (5, 4)), fn=lambda a, b: ops.cdist(a, b, 1.0),
           dtypes=F, grad=True, id="p1"),
    OpSpec("cdist", _cdist(np.inf), ((3, 4), (5, 4)), fn=lambda a, b: ops.cdist(a, b, np.inf),
           dtypes=(np.float32,), id="pinf"),
    OpSpec("dist", lambda a, b: np.linalg.norm((a - b).reshape(-1)), ((2, 3), (2, 3)),
           dtypes=F, grad=True),
    OpSpec("dist", lambda a, b: np.abs(a - b).sum(), ((2, 3), (3,)),
           fn=lambda a, b: ops.dist(a, b, 1), dtypes=F, grad=True, id="p1-broadcast"),
]
