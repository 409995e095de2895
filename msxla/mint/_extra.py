"""``mint`` faces whose signatures are PyTorch's: ``index_add(input, dim, index, source,
alpha=)`` (out of place), ``cdist`` (``compute_mode`` accepted; distances are exact),
``conv2d`` (``padding`` a number, pair, ``'same'`` or ``'valid'``), ``real`` / ``imag``.
"""
from __future__ import annotations

import numbers

from msxla import ops
from msxla.common import dtype as mstype


def real(input):  # noqa: A002 - MindSpore's names
    """The real part."""
    return ops.real(input)


def imag(input):  # noqa: A002
    """The imaginary part."""
    return ops.imag(input)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """p-norm distances between the rows of ``x1`` and ``x2`` (batched)."""
    return ops.cdist(x1, x2, float(p))


def index_add(input, dim, index, source, *, alpha=1):  # noqa: A002
    """``input`` with ``alpha * source[i]`` added at ``index[i]`` along ``dim`` (a new Tensor)."""
    dim = dim % input.ndim
    src = source if alpha == 1 else source * alpha
    onehot = ops.one_hot(index.astype(mstype.int32), input.shape[dim],
                         ops.ones((), src.dtype), ops.zeros((), src.dtype))  # [k, n]
    moved = ops.moveaxis(src, dim, -1)  # [..., k]
    if mstype.is_float(src.dtype):
        added = ops.matmul(moved, onehot)
    else:
        added = ops.matmul(moved.astype(mstype.float64), onehot.astype(mstype.float64))
    return input + ops.moveaxis(added, -1, dim).astype(input.dtype)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """2-D convolution of NCHW ``input``; ``padding`` as in PyTorch."""
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For 'conv2d', 'padding' must be 'same', 'valid' or numbers, but "
                             f"got {padding!r}.")
        return ops.conv2d(input, weight, bias, stride, padding, 0, dilation, groups)
    if isinstance(padding, numbers.Number):
        pad = int(padding)
    else:
        pad = tuple(int(p) for p in padding)
        if len(pad) == 2:
            pad = (pad[0], pad[0], pad[1], pad[1])
    return ops.conv2d(input, weight, bias, stride, "pad", pad, dilation, groups)
