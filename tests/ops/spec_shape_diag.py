"""OpSpecs: diagonals, triangles and bands (diag ... trace, matrix_band_part, block_diag)."""
import numpy as np

import scipy.linalg

import msxla as ms
from msxla import ops
from optable import OpSpec

F = (np.float32, np.float64, np.float16)
FI = (np.float32, np.float64, np.int32, np.int64)


def _diag_tf(x):
    return np.diag(x.reshape(-1)).reshape(x.shape + x.shape)


def _diag_embed(x, offset=0, dim1=-2, dim2=-1):
    k = x.shape[-1]
    m = k + abs(offset)
    out = np.zeros(x.shape[:-1] + (m, m), x.dtype)
    for i in range(k):
        r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
        out[..., r, c] = x[..., i]
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


def _band(x, lower, upper):
    i, j = np.indices(x.shape[-2:])
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, x, 0).astype(x.dtype)


def _tri_idx(fn, *args, dtype=np.int64):
    return np.stack(fn(*args)).astype(dtype)


SPECS = [
    OpSpec("diag", np.diag, ((4,),), dtypes=FI, grad=True),
    OpSpec("diag", _diag_tf, ((2, 3),), dtypes=(np.float32, np.int32), grad=True, id="2d"),
    OpSpec("diagonal", np.diagonal, ((3, 4),), dtypes=FI + (np.bool_,), grad=True),
    OpSpec("diagonal", lambda x, offset, dim1, dim2: np.diagonal(x, offset, dim1, dim2),
           ((3, 4, 5),), {"offset": 1, "dim1": 2, "dim2": 0}, dtypes=(np.float32,), grad=True,
           id="offset-dims"),
    OpSpec("diagonal", lambda x, offset: np.diagonal(x, offset), ((3, 4),), {"offset": -2},
           dtypes=(np.int32,), id="below"),
    OpSpec("diag_embed", _diag_embed, ((2, 3),), dtypes=FI, grad=True),
    OpSpec("diag_embed", _diag_embed, ((2, 3),), {"offset": -1, "dim1": 0, "dim2": 2},
           dtypes=(np.float32,), grad=True, id="offset-dims"),
    OpSpec("tril", np.tril, ((3, 4),), dtypes=FI + (np.bool_, np.float16), grad=True),
    OpSpec("tril", lambda x, diagonal: np.tril(x, diagonal), ((2, 3, 4),), {"diagonal": 1},
           dtypes=(np.float32,), id="batched"),
    OpSpec("triu", np.triu, ((3, 4),), dtypes=FI + (np.bool_, np.float16), grad=True),
    OpSpec("triu", lambda x, diagonal: np.triu(x, diagonal), ((2, 4, 3),), {"diagonal": -1},
           dtypes=(np.int64,), id="batched"),
    OpSpec("trace", lambda x: np.trace(x).astype(x.dtype), ((3, 4),),
           dtypes=FI + (np.float16, np.int8), grad=True),
    OpSpec("diagflat", lambda x: np.diagflat(x), ((2, 2),), dtypes=FI, grad=True),
    OpSpec("diagflat", lambda x, offset: np.diagflat(x, offset), ((3,),), {"offset": -1},
           dtypes=(np.float32,), id="offset"),
    OpSpec("matrix_band_part", _band, ((2, 4, 5),), {"lower": 1, "upper": 2},
           dtypes=FI + (np.bool_,), grad=True),
    OpSpec("matrix_band_part", _band, ((4, 4),), {"lower": -1, "upper": 0},
           dtypes=(np.float32,), id="whole-lower"),
    OpSpec("block_diag", lambda a, b, c: scipy.linalg.block_diag(a, b, c),
           ((2, 3), (1, 1), (2, 2)), fn=ops.block_diag, dtypes=FI, grad=True),
    OpSpec("block_diag", lambda a, b: scipy.linalg.block_diag(a.reshape(1, -1), b),
           ((3,), (2, 2)), fn=ops.block_diag, dtypes=(np.float32,), id="vector"),
    OpSpec("tril_indices", lambda: _tri_idx(np.tril_indices, 3, 1, 4), lambda rng, dt: [],
           fn=lambda: ops.tril_indices(3, 4, 1)),
    OpSpec("tril_indices", lambda: _tri_idx(np.tril_indices, 4, -1, 3, dtype=np.int32),
           lambda rng, dt: [], fn=lambda: ops.tril_indices(4, 3, -1, dtype=ms.int32),
           id="int32"),
    OpSpec("triu_indices", lambda: _tri_idx(np.triu_indices, 3, 0, 3), lambda rng, dt: [],
           fn=lambda: ops.triu_indices(3, 3)),
]
