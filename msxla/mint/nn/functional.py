"""``mindspore.mint.nn.functional``: ``softmax`` and ``pad`` with mint's
signatures; the functions MindSpore 2.10 shares with ``ops`` come from the
path index."""
from __future__ import annotations

from msxla import ops


def softmax(input, dim=None, dtype=None):  # noqa: A002 - MindSpore's names
    """Softmax along ``dim`` (the last dim when None)."""
    x = input if dtype is None else ops.cast(input, dtype)
    return ops.softmax(x, -1 if dim is None else dim)


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    """``input`` padded by ``pad`` = (last dim's left, right, the previous dim's left,
    right, ...); ``mode`` 'constant' (with ``value``), 'reflect', 'replicate' or
    'circular'."""
    return ops.pad(input, tuple(pad), mode, value)


__all__ = ["softmax", "pad"]
