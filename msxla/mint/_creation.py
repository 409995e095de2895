"""``mint`` creation and random functions: sizes as ints, tuples or lists
(``zeros(2, 3)`` too where MindSpore takes ``*size``), float32 by default,
keyword ``dtype``; ``generator`` may only be None (msxla draws every random
op from its one stream, ``mindspore.manual_seed`` / ``set_seed``)."""
from __future__ import annotations

import numpy as np

from msxla import ops
from msxla.common import dtype as mstype


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _no_generator(generator, who):
    if generator is not None:
        raise TypeError(f"For 'mint.{who}', msxla supports only generator=None (seed with "
                        "mindspore.manual_seed).")


def zeros(size, *, dtype=None):
    """Zeros of shape ``size`` (float32 unless ``dtype``)."""
    return ops.zeros(_size((size,)), dtype or mstype.float32)


def ones(size, *, dtype=None):
    """Ones of shape ``size``."""
    return ops.ones(_size((size,)), dtype or mstype.float32)


def full(size, fill_value, *, dtype=None):
    """``fill_value`` in every element of shape ``size`` (dtype from the value unless given)."""
    return ops.full(_size((size,)), fill_value, dtype=dtype)


def empty(*size, dtype=None, device=None):
    """A Tensor of shape ``size`` (msxla fills it with zeros)."""
    return ops.zeros(_size(size), dtype or mstype.float32)


def empty_like(input, *, dtype=None, device=None):  # noqa: A002 - MindSpore's names
    """A Tensor shaped like ``input`` (zeros)."""
    return ops.zeros_like(input, dtype=dtype)


zeros_like = ops.zeros_like
ones_like = ops.ones_like
full_like = ops.full_like
arange = ops.arange


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from ``start`` to ``end``."""
    out = ops.linspace(float(start), float(end), steps)
    return out if dtype is None else ops.cast(out, dtype)


def rand(*size, generator=None, dtype=None, device=None):
    """Uniform numbers in [0, 1) of shape ``size``."""
    _no_generator(generator, "rand")
    return ops.rand(*_size(size), dtype=dtype)


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal numbers of shape ``size``."""
    _no_generator(generator, "randn")
    return ops.randn(*_size(size), dtype=dtype)


def rand_like(input, *, dtype=None, device=None):  # noqa: A002
    """Uniform numbers shaped like ``input``."""
    return ops.rand_like(input, dtype=dtype)


def randn_like(input, *, dtype=None, device=None):  # noqa: A002
    """Standard normal numbers shaped like ``input``."""
    return ops.randn_like(input, dtype=dtype)


def randint(*args, generator=None, dtype=None, device=None):
    """``randint(high, size)`` or ``randint(low, high, size)``: integers in [low, high)."""
    _no_generator(generator, "randint")
    low, high, size = (0,) + args if len(args) == 2 else args
    return ops.randint(low, high, _size((size,)), dtype=dtype or mstype.int64)


def randperm(n, *, generator=None, dtype=mstype.int64):
    """A random permutation of ``0 .. n-1``."""
    _no_generator(generator, "randperm")
    return ops.randperm(n, dtype=dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal numbers with ``mean`` and ``std`` (Tensors broadcast, or floats with ``size``)."""
    _no_generator(generator, "normal")
    shape = _size((size,)) if size is not None else np.broadcast_shapes(
        tuple(getattr(mean, "shape", ())), tuple(getattr(std, "shape", ())))
    return ops.normal(shape, mean, std)


def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    """``num_samples`` category indices per row, drawn with the weights ``input``."""
    _no_generator(generator, "multinomial")
    return ops.multinomial(input, num_samples, replacement)


def bernoulli(input, *, generator=None):  # noqa: A002
    """0/1 draws with the probabilities ``input``."""
    _no_generator(generator, "bernoulli")
    return ops.bernoulli(input, input)
