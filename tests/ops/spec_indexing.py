"""OpSpecs: gathers, selection, one_hot, slicing, scatters, sorting and padding."""
import numpy as np

from msxla import ops
from optable import OpSpec, sample

F = (np.float32, np.float64, np.float16)
I = (np.int32, np.int64)
B = (np.bool_,)
I64, I32 = np.int64, np.int32


def _data(shape, extra=None):
    """shapes callable: a data array of ``shape`` followed by ``extra(rng)`` inputs."""
    def make(rng, dtype):
        return [sample(rng, shape, dtype)] + (list(extra(rng)) if extra else [])
    return make


def _perm_index(rng, n, shape, axis):
    """Distinct indices in [0, n) along ``axis`` (deterministic scatters)."""
    out = np.empty(shape, I64)
    moved = np.moveaxis(out, axis, -1)
    for pos in np.ndindex(moved.shape[:-1]):
        moved[pos] = rng.permutation(n)[:moved.shape[-1]]
    return out


def _gather_bd(p, i, axis=1, batch_dims=1):
    return np.stack([np.take(p[b], i[b], axis=axis - 1) for b in range(p.shape[0])])


def _scatter_ref(x, idx, src, axis=1):
    out = x.copy()
    np.put_along_axis(out, idx, src, axis=axis)
    return out


def _tse_ref(x, idx, src):
    out = x.copy()
    grid = list(np.indices(idx.shape))
    grid[1] = idx
    np.add.at(out, tuple(grid), src)
    return out


def _at(ufunc):
    def ref(x, idx, upd, **_):
        out = x.copy()
        if ufunc is None:
            out[tuple(np.moveaxis(idx, -1, 0))] = upd
        else:
            ufunc.at(out, tuple(np.moveaxis(idx, -1, 0)), upd)
        return out
    return ref


def _ref_at(ufunc):
    def ref(x, idx, upd):
        out = x.copy()
        if ufunc is None:
            out[idx] = upd
        else:
            ufunc.at(out, idx, upd)
        return out
    return ref


def _nd_inputs(unique):
    def make(rng, dtype):
        x = sample(rng, (4, 3), dtype)
        flat = rng.permutation(12)[:5] if unique else rng.integers(0, 12, 5)
        idx = np.stack(np.unravel_index(flat, (4, 3)), -1).astype(I64)
        return [x, idx, sample(rng, (5,), dtype, "positive")]
    return make


def _ref_inputs(unique):
    def make(rng, dtype):
        idx = rng.permutation(4)[:3] if unique else rng.integers(0, 4, 3)
        return [sample(rng, (4, 2), dtype), idx.astype(I64),
                sample(rng, (3, 2), dtype, "positive")]
    return make


def _one_hot(i, depth, on_value=1, off_value=0, axis=-1):
    dt = np.float32 if isinstance(on_value, float) else I64
    out = np.where(i[..., None] == np.arange(depth), on_value, off_value).astype(dt)
    return np.moveaxis(out, -1, axis)


def _unique_ref(x):
    _, first = np.unique(x, return_index=True)
    vals = x.reshape(-1)[np.sort(first)]
    pos = {v: k for k, v in enumerate(vals.tolist())}
    idx = np.array([pos[v] for v in x.reshape(-1).tolist()]).reshape(x.shape)
    return vals, idx.astype(I64 if x.dtype == I64 else I32)


def _topk(x, k, dim=None, largest=True):
    order = np.argsort(-x if largest else x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(I32)


def _strided(x, begin, end, strides, **_):
    return x[0:2, 2:0:-1, ::2]


SPECS = [
    # gathers
    OpSpec("gather", lambda p, i, axis, batch_dims=0: np.take(p, i, axis=axis),
           _data((3, 4), lambda r: [r.integers(-3, 3, (2, 2))]), kwargs=dict(axis=0),
           dtypes=F + I + B, grad=True),
    OpSpec("gather", _gather_bd, _data((2, 3, 4), lambda r: [r.integers(0, 3, (2, 5))]),
           kwargs=dict(axis=1, batch_dims=1), dtypes=(np.float32, np.int32), grad=True,
           id="batch_dims"),
    OpSpec("gather_d", lambda x, i: np.take_along_axis(x, i, 1),
           _data((3, 4), lambda r: [r.integers(0, 4, (3, 4))]),
           fn=lambda x, i: ops.gather_d(x, 1, i), dtypes=F + I, grad=True),
    OpSpec("gather_elements", lambda x, i: np.take_along_axis(x, i, 0),
           _data((3, 4), lambda r: [r.integers(0, 3, (3, 4))]),
           fn=lambda x, i: ops.gather_elements(x, 0, i), dtypes=F + I + B, grad=True),
    OpSpec("gather_nd", lambda x, i: x[tuple(np.moveaxis(i, -1, 0))],
           _data((3, 4, 2), lambda r: [np.stack([r.integers(0, 3, 5), r.integers(0, 4, 5)], -1)]),
           dtypes=F + I, grad=True),
    OpSpec("index_select", lambda x, i: np.take(x, i, 1),
           _data((3, 4), lambda r: [r.integers(0, 4, 6).astype(I32)]),
           fn=lambda x, i: ops.index_select(x, 1, i), dtypes=F + I, grad=True),
    OpSpec("take", lambda x, i: np.take(x.reshape(-1), i),
           _data((3, 4), lambda r: [r.integers(0, 12, (2, 3))]), dtypes=F + I, grad=True),
    # selection
    OpSpec("where", lambda c, x, y: np.where(c, x, y),
           lambda r, d: [r.random((2, 3)) > 0.5, sample(r, (2, 3), d), sample(r, (3,), d)],
           dtypes=F + I + B, grad=True),
    OpSpec("select", lambda c, x, y: np.where(c, x, y),
           lambda r, d: [r.random((2, 3)) > 0.5, sample(r, (2, 3), d), sample(r, (2, 3), d)],
           dtypes=F + I, grad=True),
    OpSpec("masked_fill", lambda x, m, v: np.where(m, np.asarray(v, x.dtype), x),
           lambda r, d: [sample(r, (2, 3), d), r.random((3,)) > 0.5, 2],
           dtypes=F + I + B, grad=True),
    OpSpec("masked_select", lambda x, m: np.broadcast_to(x, m.shape)[m],
           lambda r, d: [sample(r, (3,), d), r.random((2, 3)) > 0.5],
           dtypes=F + I + B, grad=True),
    OpSpec("nonzero", lambda x: np.argwhere(x).astype(I64), dtypes=F + I + B, domain="int"),
    OpSpec("argwhere", lambda x: np.argwhere(x).astype(I64), ((2, 3, 2),), dtypes=I + B),
    OpSpec("one_hot", _one_hot, lambda r, d: [r.integers(-1, 4, (2, 3)).astype(d)],
           kwargs=dict(depth=3), dtypes=I),
    OpSpec("one_hot", _one_hot, lambda r, d: [r.integers(0, 3, (4,)).astype(d)],
           kwargs=dict(depth=3, on_value=5.0, off_value=-1.0, axis=0), dtypes=I, id="values"),
    # slicing
    OpSpec("slice", lambda x, begin, size: x[1:3, 0:2, 1:],
           ((3, 4, 2),), kwargs=dict(begin=(1, 0, 1), size=(2, 2, -1)), dtypes=F + I + B,
           grad=True),
    OpSpec("strided_slice", _strided, ((3, 4, 5),),
           kwargs=dict(begin=(0, 2, 0), end=(2, 0, 5), strides=(1, -1, 2)), dtypes=F + I + B,
           grad=True),
    # scatters
    OpSpec("scatter", _scatter_ref,
           _data((3, 4), lambda r: [_perm_index(r, 4, (3, 2), 1), r.standard_normal((3, 2))]),
           fn=lambda x, i, s: ops.scatter(x, 1, i, s),
           dtypes=(np.float32, np.float64), grad=True),
    OpSpec("tensor_scatter_elements", _tse_ref,
           lambda r, d: [sample(r, (3, 4), d), r.integers(0, 4, (3, 5)), sample(r, (3, 5), d)],
           fn=lambda x, i, s: ops.tensor_scatter_elements(x, i, s, 1, "add"), dtypes=F + I,
           grad=True),
    OpSpec("scatter_nd", lambda i, u, shape: _at(np.add)(np.zeros(shape, u.dtype), i, u),
           lambda r, d: [r.integers(0, 3, (6, 1)), sample(r, (6, 2), d)],
           kwargs=dict(shape=(3, 2)), dtypes=F + I, grad=True),
    OpSpec("tensor_scatter_update", _at(None), _nd_inputs(True), dtypes=F + I + B, grad=True),
    OpSpec("tensor_scatter_add", _at(np.add), _nd_inputs(False), dtypes=F + I, grad=True),
    OpSpec("tensor_scatter_sub", _at(np.subtract), _nd_inputs(False), dtypes=F + I, grad=True),
    OpSpec("tensor_scatter_mul", _at(np.multiply), _nd_inputs(True), dtypes=F + I, grad=True),
    OpSpec("tensor_scatter_div", _at(np.divide), _nd_inputs(True), dtypes=(np.float32,
                                                                            np.float64),
           grad=True),
    OpSpec("tensor_scatter_max", _at(np.maximum), _nd_inputs(False), dtypes=F + I),
    OpSpec("tensor_scatter_min", _at(np.minimum), _nd_inputs(False), dtypes=F + I),
    OpSpec("index_add", lambda x, i, y: _ref_at(np.add)(x.T, i, y.T).T,
           lambda r, d: [sample(r, (2, 4), d), r.integers(0, 4, 3).astype(I32),
                         sample(r, (2, 3), d)],
           fn=lambda x, i, y: ops.index_add(x, i, y, 1), dtypes=F + I, grad=True),
    OpSpec("index_fill", lambda x, i: np.where(np.isin(np.arange(4), i), x.dtype.type(3), x),
           _data((2, 4), lambda r: [np.array([0, 2], I32)]),
           fn=lambda x, i: ops.index_fill(x, 1, i, 3), dtypes=F + I, grad=True),
    OpSpec("scatter_add", _ref_at(np.add), _ref_inputs(False), dtypes=F + I, grad=True),
    OpSpec("scatter_sub", _ref_at(np.subtract), _ref_inputs(False), dtypes=F + I, grad=True),
    OpSpec("scatter_mul", _ref_at(np.multiply), _ref_inputs(True), dtypes=F + I, grad=True),
    OpSpec("scatter_div", _ref_at(np.divide), _ref_inputs(True), dtypes=(np.float32,)),
    OpSpec("scatter_max", _ref_at(np.maximum), _ref_inputs(False), dtypes=F + I),
    OpSpec("scatter_min", _ref_at(np.minimum), _ref_inputs(False), dtypes=F + I),
    OpSpec("scatter_update", _ref_at(None), _ref_inputs(True), dtypes=F + I, grad=True),
    OpSpec("scatter_nd_add", _at(np.add), _nd_inputs(False), dtypes=F + I, grad=True),
    OpSpec("scatter_nd_sub", _at(np.subtract), _nd_inputs(False), dtypes=F + I),
    OpSpec("scatter_nd_update", _at(None), _nd_inputs(True), dtypes=F + I, grad=True),
    # ordering
    OpSpec("topk", _topk, ((3, 5),), kwargs=dict(k=2), dtypes=F + I, grad=True),
    OpSpec("topk", _topk, ((3, 5),), kwargs=dict(k=3, largest=False), dtypes=F + I,
           id="smallest"),
    OpSpec("sort", lambda x: (np.sort(x, -1), np.argsort(x, -1, kind="stable").astype(I32)),
           ((3, 5),), dtypes=F + I, grad=True),
    OpSpec("sort", lambda x, axis, descending: (
        -np.sort(-x, axis), np.argsort(-x, axis, kind="stable").astype(I32)),
        ((3, 5),), kwargs=dict(axis=0, descending=True), dtypes=(np.float32, np.int32),
        id="desc"),
    OpSpec("argsort", lambda x, axis=-1: np.argsort(x, axis, kind="stable").astype(I32),
           ((3, 5),), kwargs=dict(axis=0), dtypes=F + I),
    OpSpec("unique", _unique_ref, ((2, 6),), dtypes=(np.int32, np.int64, np.float32)),
    OpSpec("searchsorted", lambda s, v: np.searchsorted(s, v).astype(I64),
           lambda r, d: [np.sort(sample(r, (6,), d)), sample(r, (2, 3), d)],
           dtypes=(np.float32, np.float64, np.int32, np.int64)),
    OpSpec("bucketize", lambda x, boundaries, right=False: np.searchsorted(
        boundaries, x, side="right" if right else "left").astype(I32), ((2, 4),),
        kwargs=dict(boundaries=(-1, 0, 2), right=True), dtypes=(np.float32, np.int32)),
    OpSpec("bincount", lambda x: np.bincount(x).astype(np.float32),
           lambda r, d: [r.integers(0, 5, 8).astype(d)], dtypes=I),
    # padding
    OpSpec("pad", lambda x, padding: np.pad(x, ((0, 0), (2, 0), (1, 3))),
           ((2, 3, 4),), kwargs=dict(padding=(1, 3, 2, 0)), dtypes=F + I + B, grad=True),
    OpSpec("pad", lambda x, padding, mode: np.pad(x, ((0, 0), (1, 2)), mode="reflect"),
           ((2, 4),), kwargs=dict(padding=(1, 2), mode="reflect"), dtypes=F + I, grad=True,
           id="reflect"),
    OpSpec("pad", lambda x, padding, mode: np.pad(x, ((1, 0), (2, 1)), mode="edge"),
           ((2, 4),), kwargs=dict(padding=(2, 1, 1, 0), mode="replicate"), dtypes=F,
           grad=True, id="replicate"),
    OpSpec("pad", lambda x, padding, mode: np.pad(x, ((0, 0), (2, 1)), mode="wrap"),
           ((2, 4),), kwargs=dict(padding=(2, 1), mode="circular"), dtypes=F + I, grad=True,
           id="circular"),
]
