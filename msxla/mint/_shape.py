"""``mint`` shape, indexing and matrix functions (``dim`` arguments, torch's
defaults: ``flatten`` from dim 0, ``meshgrid`` in 'ij' order, ``squeeze``
needing its ``dim``), over msxla's op rows."""
from __future__ import annotations

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor

bmm = ops.bmm
mm = ops.mm
mv = ops.mv
outer = ops.outer
einsum = ops.einsum
addmm = ops.addmm
addbmm = ops.addbmm
addmv = ops.addmv
broadcast_to = ops.broadcast_to
swapaxes = ops.swapaxes
unbind = ops.unbind
unsqueeze = ops.unsqueeze
tril = ops.tril
inverse = ops.inverse
unique_consecutive = ops.unique_consecutive


def dot(input, other):  # noqa: A002
    """The inner product of two 1-D Tensors."""
    return ops.sum(ops.mul(input, other))


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002 - MindSpore's names
    """``beta * input + alpha * (batch1 @ batch2)``."""
    return ops.baddbmm(input, batch1, batch2, beta, alpha)


def addcmul(input, tensor1, tensor2, *, value=1):  # noqa: A002
    """``input + value * tensor1 * tensor2``."""
    return ops.addcmul(input, tensor1, tensor2, value)


def addcdiv(input, tensor1, tensor2, *, value=1):  # noqa: A002
    """``input + value * tensor1 / tensor2``."""
    return ops.addcdiv(input, tensor1, tensor2, value)


def reshape(input, shape):  # noqa: A002
    """``input`` with ``shape`` (one entry may be -1)."""
    return ops.reshape(input, shape)


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    """Dims ``start_dim`` .. ``end_dim`` merged into one."""
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def transpose(input, dim0, dim1):  # noqa: A002
    """``dim0`` and ``dim1`` swapped."""
    return ops.swapaxes(input, dim0, dim1)


def t(input):  # noqa: A002
    """The transpose of a 2-D Tensor (a 0-D or 1-D one unchanged)."""
    return input if input.ndim < 2 else ops.swapaxes(input, 0, 1)


def permute(input, dims):  # noqa: A002
    """The dims of ``input`` in the order ``dims``."""
    return ops.permute(input, tuple(dims))


def squeeze(input, dim):  # noqa: A002
    """``input`` without the size-1 dims in ``dim`` (an int or tuple)."""
    return ops.squeeze(input, dim)


def split(tensor, split_size_or_sections, dim=0):
    """Pieces of ``split_size_or_sections`` elements (or the listed sizes) along ``dim``."""
    return ops.split(tensor, split_size_or_sections, dim)


def chunk(input, chunks, dim=0):  # noqa: A002
    """``chunks`` nearly equal pieces along ``dim``."""
    return ops.chunk(input, chunks, dim)


def cat(tensors, dim=0):
    """The Tensors joined along ``dim``."""
    return ops.cat(tensors, dim)


concat = cat


def stack(tensors, dim=0):
    """The Tensors stacked along a new ``dim``."""
    return ops.stack(tensors, dim)


def gather(input, dim, index):  # noqa: A002
    """``out[i][j] = input[index[i][j]][j]`` (for ``dim=0``; likewise for other dims)."""
    return ops.gather_elements(input, dim, index)


def index_select(input, dim, index):  # noqa: A002
    """The slices ``index`` (1-D) of ``input`` along ``dim``."""
    return ops.index_select(input, dim, index)


def scatter(input, dim, index, src):  # noqa: A002
    """``input`` with ``src`` (a Tensor or a number) written at ``index`` along ``dim``."""
    if not isinstance(src, Tensor):
        src = ops.full(index.shape, src, dtype=input.dtype)
    return ops.scatter(input, dim, index, src)


def scatter_add(input, dim, index, src):  # noqa: A002
    """``input`` with ``src`` added at ``index`` along ``dim``."""
    return ops.tensor_scatter_elements(input, index, src, dim, "add")


def narrow(input, dim, start, length):  # noqa: A002
    """``length`` elements from ``start`` along ``dim``."""
    return ops.narrow(input, dim, start, length)


def select(input, dim, index):  # noqa: A002
    """The slice at ``index`` along ``dim`` (that dim removed)."""
    return ops.squeeze(ops.narrow(input, dim, index % input.shape[dim], 1), dim)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):  # noqa: A002
    """Each element (slice along ``dim``) repeated ``repeats`` times."""
    return ops.repeat_interleave(input, repeats, dim)


def diag(input, diagonal=0):  # noqa: A002
    """The diagonal ``diagonal`` of a 2-D Tensor, or a 2-D Tensor with a 1-D one on it."""
    if input.ndim == 1:
        return ops.diagflat(input, diagonal)
    return ops.diagonal(input, diagonal)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids ('ij' indexing unless 'xy' is asked)."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing=indexing or "ij")


def clone(input):  # noqa: A002
    """A copy of ``input``."""
    return input.copy()


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct values (sorted), with the inverse map and counts when asked."""
    out = ops.unique_consecutive(ops.sort(ops.reshape(input, (-1,)))[0], False, True) \
        if dim is None else None
    if out is None:
        raise NotImplementedError("mint.unique with 'dim' is not supported by msxla yet.")
    values, counts = out
    if not (return_inverse or return_counts):
        return values
    result = [values]
    if return_inverse:
        result.append(ops.cast(ops.searchsorted(values, input), mstype.int64))
    if return_counts:
        result.append(counts)
    return tuple(result)
