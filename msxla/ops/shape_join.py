"""Op rows: joining tensors and splitting them apart.

concat/cat, stack, hstack/vstack/row_stack/dstack/column_stack, split, chunk,
tensor_split, hsplit/vsplit/dsplit, unbind, meshgrid and cartesian_prod, with their
Primitive classes (Concat, Stack, Split, Unstack, Meshgrid). Joins promote
mixed dtypes; splits return tuples of Tensors.
"""
from __future__ import annotations

import math
import numbers

import jax.numpy as jnp

from msxla.ops._shape_util import ArgTypeError, norm_axis, op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


def _seq(tensors, opname):
    if not isinstance(tensors, (tuple, list)):
        kind = "Tensor" if hasattr(tensors, "shape") else type(tensors).__name__
        raise ArgTypeError(f"the input of '{opname}' must be a tuple or list of Tensors, but "
                           f"got {kind}.")
    if not tensors:
        raise ValueError(f"For '{opname}', the input must hold at least one Tensor.")
    return [jnp.asarray(t) for t in tensors]


def _concat(arrays, axis):
    ranks = {a.ndim for a in arrays}
    if len(ranks) != 1:
        raise ValueError(f"all inputs must have the same rank, but got shapes "
                         f"{[tuple(a.shape) for a in arrays]}.")
    ax = norm_axis(axis, arrays[0].ndim)
    base = arrays[0].shape
    for a in arrays[1:]:
        if any(a.shape[i] != base[i] for i in range(a.ndim) if i != ax):
            raise ValueError(f"all inputs must have the same shape except along axis {axis}, "
                             f"but got shapes {[tuple(x.shape) for x in arrays]}.")
    return jnp.concatenate(arrays, axis=ax)


@op(static=("axis",), dtype="promote", prim="Concat",
    primitive=PrimDef(init=(("axis", 0),), call=lambda prim, tensors: concat(tensors, prim.axis)))
def concat(tensors, axis=0):
    """Join ``tensors`` (same rank, same sizes except along ``axis``) along ``axis``."""
    return _concat(_seq(tensors, "concat"), axis)


@op(static=("axis",), dtype="promote", prim="Concat")
def cat(tensors, axis=0):
    """Join ``tensors`` along ``axis`` (``concat``)."""
    return _concat(_seq(tensors, "cat"), axis)


@op(static=("axis",), dtype="promote", prim="Stack",
    primitive=(PrimDef(init=(("axis", 0),),
                       call=lambda prim, *args: stack(_one_seq(args), prim.axis)),
               PrimDef("Pack", init=(("axis", 0),),
                       call=lambda prim, *args: stack(_one_seq(args), prim.axis))))
def stack(tensors, axis=0):
    """Stack same-shape ``tensors`` along a new axis ``axis`` (in ``[-ndim-1, ndim]``)."""
    arrays = _seq(tensors, "stack")
    shapes = {tuple(a.shape) for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"all inputs must have the same shape, but got shapes "
                         f"{[tuple(a.shape) for a in arrays]}.")
    n = arrays[0].ndim + 1
    if not -n <= axis < n:
        raise ValueError(f"the 'axis' must be in range [{-n}, {n}), but got {axis}.")
    return jnp.stack(arrays, axis=axis % n)


@op(dtype="promote", prim="Concat")
def hstack(tensors):
    """Join column-wise: along axis 1, or axis 0 for 1-D inputs (0-d become 1-D)."""
    arrays = [a.reshape(1) if a.ndim == 0 else a for a in _seq(tensors, "hstack")]
    return _concat(arrays, 0 if arrays[0].ndim == 1 else 1)


@op(dtype="promote", prim="Concat")
def vstack(inputs):
    """Join row-wise along axis 0; 0-d and 1-D inputs become rows (1, N)."""
    arrays = [a.reshape((1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a
              for a in _seq(inputs, "vstack")]
    return _concat(arrays, 0)


@op(dtype="promote", prim="Concat")
def row_stack(tensors):
    """Join row-wise along axis 0 (``vstack``)."""
    arrays = [a.reshape((1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a
              for a in _seq(tensors, "row_stack")]
    return _concat(arrays, 0)


@op(dtype="promote", prim="Concat")
def dstack(tensors):
    """Join depth-wise along axis 2: (N,) -> (1, N, 1), (M, N) -> (M, N, 1) first."""
    def up(a):
        if a.ndim == 0:
            return a.reshape(1, 1, 1)
        if a.ndim == 1:
            return a[None, :, None]
        return a[:, :, None] if a.ndim == 2 else a
    return _concat([up(a) for a in _seq(tensors, "dstack")], 2)


@op(dtype="promote", prim="Concat")
def column_stack(tensors):
    """Join 1-D inputs as columns (N,) -> (N, 1) along axis 1."""
    def up(a):
        if a.ndim == 0:
            a = a.reshape(1)
        return a[:, None] if a.ndim == 1 else a
    return _concat([up(a) for a in _seq(tensors, "column_stack")], 1)


def _pieces(x, axis, sizes):
    out, start = [], 0
    for s in sizes:
        out.append(_slice(x, axis, start, s))
        start += s
    return tuple(out)


def _slice(x, axis, start, length):
    idx = [slice(None)] * x.ndim
    idx[axis] = slice(start, start + length)
    return x[tuple(idx)]


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _split_prim(prim, x):
    ax = norm_axis(prim.axis, x.ndim)
    n = prim.output_num
    if x.shape[ax] % n:
        raise ValueError(f"For 'Split', the size of axis {prim.axis} ({x.shape[ax]}) must be "
                         f"divisible by output_num {n}.")
    return split(x, x.shape[ax] // n if x.shape[ax] else 1, prim.axis)


@op(static=("split_size_or_sections", "axis"), prim="Split",
    primitive=PrimDef(init=(("axis", 0), ("output_num", 1)), call=_split_prim))
def split(tensor, split_size_or_sections, axis=0):
    """Split into pieces of ``split_size_or_sections`` (an int: equal pieces and a shorter last
    one; a sequence: the sizes, which must sum to the axis length)."""
    ax = norm_axis(axis, tensor.ndim)
    length = tensor.shape[ax]
    s = split_size_or_sections
    if _is_int(s):
        if s <= 0:
            raise ValueError(f"the value of 'split_size_or_sections' must be more than zero, "
                             f"but got {s}.")
        sizes = [s] * (length // s) + ([length % s] if length % s else [])
        return _pieces(tensor, ax, sizes or [0])
    if isinstance(s, (tuple, list)):
        if not all(_is_int(v) and v >= 0 for v in s):
            raise ArgTypeError(f"each element of 'split_size_or_sections' must be a non-negative "
                            f"int, but got {s}.")
        if sum(s) != length:
            raise ValueError(f"the sum of 'split_size_or_sections' should be equal to {length}, "
                             f"but got {sum(s)}.")
        return _pieces(tensor, ax, list(s))
    raise ArgTypeError(f"'split_size_or_sections' must be an int, tuple(int) or list(int), but "
                    f"got {type(s).__name__}.")


@op(static=("chunks", "axis"), prim="Split")
def chunk(input, chunks, axis=0):
    """Split into at most ``chunks`` pieces of ``ceil(length / chunks)`` (the last shorter)."""
    if not _is_int(chunks):
        raise ArgTypeError(f"the argument 'chunks' must be an int, but got "
                           f"{type(chunks).__name__}.")
    if chunks <= 0:
        raise ValueError(f"the argument 'chunks' must be greater than 0, but got {chunks}.")
    ax = norm_axis(axis, input.ndim)
    length = input.shape[ax]
    if length == 0:
        return (input,)
    block = math.ceil(length / chunks)
    sizes = [block] * (length // block) + ([length % block] if length % block else [])
    return _pieces(input, ax, sizes)


def _tensor_split(x, indices_or_sections, axis):
    ax = norm_axis(axis, x.ndim)
    length = x.shape[ax]
    ios = indices_or_sections
    if _is_int(ios):
        if ios <= 0:
            raise ValueError(f"the value of 'indices_or_sections' must be more than zero, but "
                             f"got {ios}.")
        q, r = divmod(length, ios)
        return _pieces(x, ax, [q + 1] * r + [q] * (ios - r))
    if isinstance(ios, (tuple, list)):
        if not all(_is_int(v) for v in ios):
            raise ArgTypeError(f"each element of 'indices_or_sections' must be an int, but got "
                               f"{ios}.")
        bounds = [min(max(i if i >= 0 else i + length, 0), length) for i in ios]
        edges = [0] + bounds + [length]
        return _pieces(x, ax, [max(b - a, 0) for a, b in zip(edges[:-1], edges[1:])])
    raise ArgTypeError(f"'indices_or_sections' must be an int, tuple(int) or list(int), but got "
                    f"{type(ios).__name__}.")


@op(static=("indices_or_sections", "axis"), method="tensor_split", prim="Split")
def tensor_split(input, indices_or_sections, axis=0):
    """Split into ``n`` near-equal pieces (the first ``length % n`` one longer), or at the
    given indices."""
    return _tensor_split(input, indices_or_sections, axis)


def _split_min_rank(x, n, opname):
    if x.ndim < n:
        raise ValueError(f"'{opname}' expects a Tensor with at least {n} dimension(s), but got "
                         f"{x.ndim}.")


@op(static=("indices_or_sections",), method="hsplit", prim="Split")
def hsplit(input, indices_or_sections):
    """``tensor_split`` along axis 1."""
    _split_min_rank(input, 2, "hsplit")
    return _tensor_split(input, indices_or_sections, 1)


@op(static=("indices_or_sections",), method="vsplit", prim="Split")
def vsplit(input, indices_or_sections):
    """``tensor_split`` along axis 0."""
    _split_min_rank(input, 1, "vsplit")
    return _tensor_split(input, indices_or_sections, 0)


@op(static=("indices_or_sections",), method="dsplit", prim="Split")
def dsplit(input, indices_or_sections):
    """``tensor_split`` along axis 2."""
    _split_min_rank(input, 3, "dsplit")
    return _tensor_split(input, indices_or_sections, 2)


@op(static=("dim",), prim="Unstack",
    primitive=(PrimDef(init=(("axis", 0), ("num", None)),
                       call=lambda prim, x: unbind(x, prim.axis)),
               PrimDef("Unpack", init=(("axis", 0),), call=lambda prim, x: unbind(x, prim.axis))))
def unbind(input, dim=0):
    """The slices of ``input`` along ``dim``, that dimension removed."""
    ax = norm_axis(dim, input.ndim, "dim")
    return tuple(jnp.moveaxis(input, ax, 0))


@op(static=("indexing",), prim="Meshgrid",
    primitive=PrimDef(init=(("indexing", "xy"),),
                      call=lambda prim, inputs: meshgrid(*inputs, indexing=prim.indexing)))
def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D inputs; ``indexing`` 'xy' (Cartesian) or 'ij' (matrix).
    Each grid keeps its input's dtype."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = inputs[0]  # the row passes the varargs as one tuple
    if indexing not in ("xy", "ij"):
        raise ValueError(f"the 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    if len(inputs) < 2:
        raise ValueError(f"the number of inputs must be at least 2, but got {len(inputs)}.")
    if any(jnp.ndim(a) != 1 for a in inputs):
        raise ValueError(f"each input must be 1-D, but got shapes "
                         f"{[tuple(jnp.shape(a)) for a in inputs]}.")
    return tuple(jnp.meshgrid(*inputs, indexing=indexing))


@op(dtype="promote", prim="CartesianProd")
def cartesian_prod(*inputs):
    """All combinations of the elements of 1-D inputs, one per row: shape (N1 * N2 ..., k)."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = inputs[0]  # the row passes the varargs as one tuple
    if any(jnp.ndim(a) != 1 for a in inputs):
        raise ValueError(f"each input must be 1-D, but got shapes "
                         f"{[tuple(jnp.shape(a)) for a in inputs]}.")
    if len(inputs) == 1:
        return inputs[0]
    grids = jnp.meshgrid(*inputs, indexing="ij")
    return jnp.stack([g.reshape(-1) for g in grids], axis=1)


def _one_seq(args):
    return args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args


__all__ = exports(__name__)
