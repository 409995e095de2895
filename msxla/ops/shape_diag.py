"""Op rows: diagonals and triangles of matrices.

diag, diagonal, diag_embed, diagflat, tril, triu, trace, matrix_band_part,
block_diag and tril_indices/triu_indices, with the Diag, Tril, Triu, Trace,
MatrixBandPart, TrilIndices and TriuIndices Primitive classes, and
``trace_along`` (numpy-style trace used by ``Tensor.trace`` and
``mindspore.numpy.trace``).
"""
from __future__ import annotations

import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import wrap
from msxla.errors import DTypeError, user_error
from msxla.ops._shape_util import as_dtype, norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


def _no_bool(opname):
    def rule(key):
        if any(k is mstype.bool_ for k in key):
            raise user_error(DTypeError, f"For '{opname}', the input must be a numeric Tensor, "
                                         "but got Bool.")
        return None
    rule.__name__ = f"no_bool_{opname}"
    return rule


@op(dtype=_no_bool("Diag"), prim="Diag", primitive=True)
def diag(input):
    """A tensor of shape ``input.shape + input.shape`` with ``input`` on its diagonal
    (a 1-D input gives the square matrix with it on the main diagonal)."""
    if input.ndim < 1:
        raise ValueError(f"the input rank must be greater than or equal to 1, but got "
                         f"{input.ndim}.")
    return jnp.diag(jnp.reshape(input, (-1,))).reshape(input.shape + input.shape)


def _diagonal(x, offset, dim1, dim2):
    a, b = norm_axis(dim1, x.ndim, "dim1"), norm_axis(dim2, x.ndim, "dim2")
    if a == b:
        raise ValueError(f"dim1 and dim2 cannot be identical, but got dim1={dim1} and "
                         f"dim2={dim2}.")
    if x.ndim < 2:
        raise ValueError(f"the input must have at least 2 dimensions, but got {x.ndim}.")
    return jnp.diagonal(x, offset, a, b)


@op(static=("offset", "dim1", "dim2"), prim="Diagonal")
def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal ``offset`` of the planes (``dim1``, ``dim2``), appended as the last axis."""
    return _diagonal(input, offset, dim1, dim2)


@op(static=("offset", "dim1", "dim2"), prim="DiagEmbed")
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Place the last axis of ``input`` on diagonal ``offset`` of new planes (``dim1``,
    ``dim2``) of the (rank + 1)-D output."""
    n = input.ndim + 1
    a, b = norm_axis(dim1, n, "dim1"), norm_axis(dim2, n, "dim2")
    if a == b:
        raise ValueError(f"dim1 and dim2 cannot be identical, but got dim1={dim1} and "
                         f"dim2={dim2}.")
    k = input.shape[-1] if input.ndim else 1
    m = k + abs(offset)
    x = jnp.reshape(input, input.shape if input.ndim else (1,))
    i = jnp.arange(k)
    rows, cols = (i, i + offset) if offset >= 0 else (i - offset, i)
    out = jnp.zeros(x.shape[:-1] + (m, m), x.dtype).at[..., rows, cols].set(x)
    return jnp.moveaxis(out, (-2, -1), (a, b))


@op(static=("offset",), method="diagflat", prim="Diagflat")
def diagflat(input, offset=0):
    """A square matrix with the flattened ``input`` on diagonal ``offset``."""
    flat = jnp.reshape(input, (-1,))
    k = flat.shape[0]
    i = jnp.arange(k)
    rows, cols = (i, i + offset) if offset >= 0 else (i - offset, i)
    m = k + abs(offset)
    return jnp.zeros((m, m), flat.dtype).at[rows, cols].set(flat)


def _tri(x, diagonal, fn):
    if x.ndim < 2:
        raise ValueError(f"the input rank must be greater than or equal to 2, but got "
                         f"{x.ndim}.")
    return fn(x, diagonal)


@op(static=("diagonal",), method="tril", prim="Tril",
    primitive=PrimDef(init=(("diagonal", 0),), call=lambda prim, x: tril(x, prim.diagonal)))
def tril(input, diagonal=0):
    """Zero the elements above diagonal ``diagonal`` of the last two axes."""
    return _tri(input, diagonal, jnp.tril)


@op(static=("diagonal",), method="triu", prim="Triu",
    primitive=PrimDef(init=(("diagonal", 0),), call=lambda prim, x: triu(x, prim.diagonal)))
def triu(input, diagonal=0):
    """Zero the elements below diagonal ``diagonal`` of the last two axes."""
    return _tri(input, diagonal, jnp.triu)


@op(dtype=_no_bool("Trace"), prim="Trace", primitive=True)
def trace(input):
    """The sum of the main diagonal of a 2-D ``input``, in its dtype."""
    if input.ndim != 2:
        raise ValueError(f"the rank of the input must be 2, but got {input.ndim}.")
    return jnp.trace(input).astype(input.dtype)


@op(static=("lower", "upper"), prim="MatrixBandPart", primitive=True)
def matrix_band_part(x, lower, upper):
    """Keep ``lower`` sub-diagonals and ``upper`` super-diagonals of the last two axes
    (a negative count keeps the whole triangle); zero the rest."""
    if x.ndim < 2:
        raise ValueError(f"the input rank must be at least 2, but got {x.ndim}.")
    i = jnp.arange(x.shape[-2])[:, None]
    j = jnp.arange(x.shape[-1])[None, :]
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return jnp.where(keep, x, jnp.zeros((), x.dtype))


@op(dtype="promote", prim="BlockDiag")
def block_diag(*inputs):
    """A block-diagonal matrix of the inputs (0-d and 1-D inputs are 1 x N blocks)."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = inputs[0]  # the row passes the varargs as one tuple
    blocks = []
    for a in inputs:
        if a.ndim > 2:
            raise ValueError(f"each input must have at most 2 dimensions, but got shape "
                             f"{tuple(a.shape)}.")
        blocks.append(jnp.reshape(a, (1, -1)) if a.ndim < 2 else a)
    return jsl.block_diag(*blocks)


def _tri_indices(row, col, offset, dtype, fn):
    r, c = fn(row, offset, col)
    return jnp.asarray(np.stack([r, c]), as_dtype(dtype).np_dtype)


@op(static=("row", "col", "offset", "dtype"), prim="TrilIndices", differentiable=False,
    primitive=PrimDef(init=(("row", 1), ("col", 1), ("offset", 0), ("dtype", mstype.int32)),
                      call=lambda prim: tril_indices(prim.row, prim.col, prim.offset,
                                                     dtype=prim.dtype)))
def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The (2, N) row/column indices of the lower triangle (diagonal ``offset``) of a
    ``row`` x ``col`` matrix."""
    return _tri_indices(row, col, offset, dtype, np.tril_indices)


@op(static=("row", "col", "offset", "dtype"), prim="TriuIndices", differentiable=False,
    primitive=PrimDef(init=(("row", 1), ("col", 1), ("offset", 0), ("dtype", mstype.int32)),
                      call=lambda prim: triu_indices(prim.row, prim.col, prim.offset,
                                                     dtype=prim.dtype)))
def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The (2, N) row/column indices of the upper triangle (diagonal ``offset``) of a
    ``row`` x ``col`` matrix."""
    return _tri_indices(row, col, offset, dtype, np.triu_indices)


def trace_along(x, offset=0, axis1=0, axis2=1, dtype=None):
    """numpy's ``trace``: sums of diagonal ``offset`` of the planes (``axis1``, ``axis2``);
    integer inputs sum in int64 unless ``dtype`` is given."""
    d = diagonal(x, offset, axis1, axis2)
    if dtype is not None:
        out_np = as_dtype(dtype).np_dtype
    elif mstype.is_int(d.dtype):
        out_np = mstype.int64.np_dtype
    else:
        out_np = d.dtype.np_dtype
    data = d._data
    if data.dtype == jnp.bool_ and dtype is None:
        return wrap(jnp.any(data, axis=-1))
    return wrap(jnp.sum(data.astype(out_np), axis=-1))


__all__ = exports(__name__)
