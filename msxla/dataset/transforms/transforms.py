"""``mindspore.dataset.transforms``: transforms on any column.

Every builtin transform is a ``TensorOperation``: called on numpy arrays (or
Tensors, lists, PIL images) it returns numpy arrays, the same inside a
``map`` and called directly. Random transforms draw from
``core.random_state.rng()``, the current row's generator inside a pipeline.
"""
from __future__ import annotations

import enum

import numpy as np

from msxla.dataset.core import random_state


def as_array(value):
    """A transform input as a numpy array (PIL images stay PIL images)."""
    if isinstance(value, np.ndarray):
        return value
    from msxla.common.tensor import Tensor
    if isinstance(value, Tensor):
        return value.asnumpy()
    try:
        from PIL import Image
        if isinstance(value, Image.Image):
            return value
    except ImportError:  # pragma: no cover
        pass
    return np.asarray(value)


def _np_type(data_type):
    from msxla.common import dtype as mstype
    if isinstance(data_type, mstype.Type):
        return np.dtype(mstype.dtype_to_nptype(data_type))
    return np.dtype(data_type)


class Implementation(str, enum.Enum):
    """Which implementation a transform runs (``mindspore.dataset.Implementation``):
    MindSpore's C++ one (``C``) or its Python one (``PY``). msxla has one Python
    implementation of each transform, so both select it."""

    C = "C"
    PY = "P"


class TensorOperation:
    """Base of the builtin transforms: ``op(*columns)`` -> array or tuple of arrays."""

    def __call__(self, *inputs):
        return self._apply(*(as_array(x) for x in inputs))

    def _apply(self, *arrays):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


class PyTensorOperation(TensorOperation):
    """Base of the transforms MindSpore implements in Python."""


def _run(fn, args):
    out = fn(*args)
    return out if isinstance(out, tuple) else (out,)


def _check_transforms(transforms):
    if not isinstance(transforms, (list, tuple)) or not transforms:
        raise TypeError("transforms should be a non-empty list of transforms or functions.")
    for t in transforms:
        if not callable(t):
            raise TypeError(f"transforms[{transforms.index(t)}] is not callable.")
    return list(transforms)


def _unwrap(out):
    return out[0] if len(out) == 1 else out


class Compose(TensorOperation):
    """Apply ``transforms`` in order; each one's outputs are the next one's inputs."""

    def __init__(self, transforms):
        self.transforms = _check_transforms(transforms)

    def __call__(self, *inputs):
        args = inputs
        for t in self.transforms:
            args = _run(t, args)
        return _unwrap(args)

    @staticmethod
    def reduce(operations):
        return operations


class RandomApply(TensorOperation):
    """With probability ``prob``, apply ``transforms`` in order."""

    def __init__(self, transforms, prob=0.5):
        self.transforms = _check_transforms(transforms)
        if not 0 <= prob <= 1:
            raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0].")
        self.prob = prob

    def __call__(self, *inputs):
        if random_state.rng().random() >= self.prob:
            return _unwrap(inputs)
        return Compose(self.transforms)(*inputs)


class RandomChoice(TensorOperation):
    """Apply one of ``transforms``, chosen uniformly."""

    def __init__(self, transforms):
        self.transforms = _check_transforms(transforms)

    def __call__(self, *inputs):
        t = self.transforms[int(random_state.rng().integers(len(self.transforms)))]
        return _unwrap(_run(t, inputs))


class RandomOrder(TensorOperation):
    """Apply all ``transforms`` in a random order."""

    def __init__(self, transforms):
        self.transforms = _check_transforms(transforms)

    def __call__(self, *inputs):
        order = random_state.rng().permutation(len(self.transforms))
        return Compose([self.transforms[i] for i in order])(*inputs)


class TypeCast(TensorOperation):
    """Cast to ``data_type`` (a mindspore dtype or numpy dtype)."""

    def __init__(self, data_type):
        self.data_type = _np_type(data_type)

    def _apply(self, x):
        return np.asarray(x).astype(self.data_type)


class OneHot(TensorOperation):
    """Labels to one-hot vectors of ``num_classes`` (optionally label-smoothed)."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        if not isinstance(num_classes, int) or num_classes <= 0:
            raise ValueError("num_classes should be a positive integer.")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError("smoothing_rate should be in [0.0, 1.0].")
        self.num_classes, self.smoothing_rate = num_classes, smoothing_rate

    def _apply(self, x):
        x = np.asarray(x)
        if x.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: the input must be of integer type, but got {x.dtype}.")
        if x.ndim > 1:
            raise RuntimeError("OneHot: the input must be a scalar or a 1-D array.")
        eye = np.eye(self.num_classes)[x]
        if self.smoothing_rate:
            return eye * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return eye.astype(x.dtype)


class Fill(TensorOperation):
    """An array of the input's shape and dtype, filled with ``fill_value``."""

    def __init__(self, fill_value):
        self.fill_value = fill_value

    def _apply(self, x):
        x = np.asarray(x)
        if x.dtype.kind in "US":
            return np.full(x.shape, str(self.fill_value))
        return np.full(x.shape, self.fill_value, dtype=x.dtype)


class Duplicate(TensorOperation):
    """The input and a copy of it (two columns)."""

    def _apply(self, x):
        return x, np.array(x, copy=True)


class Concatenate(TensorOperation):
    """``prepend``, the input and ``append`` joined along ``axis`` (1-D only)."""

    def __init__(self, axis=0, prepend=None, append=None):
        if axis not in (0, -1):
            raise ValueError("Concatenate only supports axis 0 or -1.")
        self.axis = axis
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim != 1:
            raise RuntimeError(f"Concatenate: only 1-D input is supported, got shape {x.shape}.")
        for name, p in (("prepend", self.prepend), ("append", self.append)):
            if p is None:
                continue
            same = (p.dtype.kind in "US") if x.dtype.kind in "US" else p.dtype == x.dtype
            if not same:
                raise RuntimeError(f"Concatenate: input datatype does not match the {name} "
                                   f"datatype, got input datatype: {x.dtype}, {name} datatype:"
                                   f"{p.dtype}")
        return np.concatenate([p for p in (self.prepend, x, self.append) if p is not None])


class Relational(enum.IntEnum):
    """Comparisons for ``Mask``."""

    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask(TensorOperation):
    """``input <operator> constant`` as ``dtype`` (bool by default)."""

    def __init__(self, operator, constant, dtype=None):
        if not isinstance(operator, Relational):
            raise TypeError("operator should be a Relational.")
        self.operator, self.constant = operator, constant
        self.dtype = np.dtype(np.bool_) if dtype is None else _np_type(dtype)

    def _apply(self, x):
        return _COMPARE[self.operator](np.asarray(x), self.constant).astype(self.dtype)


class SliceMode(enum.IntEnum):
    PAD = 0
    DROP = 1


def _index(s):
    if s is None or s is True:
        return slice(None)
    if isinstance(s, (list, tuple)):
        return list(s)
    return s


class Slice(TensorOperation):
    """Index the input with ``slices`` (one per dimension: int, list, slice, None/True: all)."""

    def __init__(self, *slices):
        self.slices = tuple(_index(s) for s in slices)

    def _apply(self, x):
        out = np.asarray(x)
        for axis, s in enumerate(self.slices):
            sel = [slice(None)] * out.ndim
            sel[axis] = [s] if isinstance(s, int) else s
            out = out[tuple(sel)]
        return out


class PadEnd(TensorOperation):
    """Pad (or cut) at the end of each dimension to ``pad_shape``."""

    def __init__(self, pad_shape, pad_value=None):
        if not isinstance(pad_shape, (list, tuple)) or not all(
                isinstance(s, int) and s > 0 for s in pad_shape):
            raise TypeError("pad_shape should be a list of positive integers.")
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim != len(self.pad_shape):
            raise RuntimeError(f"PadEnd: pad_shape {self.pad_shape} does not match the input's "
                               f"rank {x.ndim}.")
        value = self.pad_value if self.pad_value is not None else (
            "" if x.dtype.kind in "US" else 0)
        out = np.full(self.pad_shape, value, dtype=x.dtype if x.dtype.kind not in "US"
                      else np.result_type(x.dtype, np.asarray(value).dtype))
        region = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, self.pad_shape))
        out[region] = x[region]
        return out


class Unique(TensorOperation):
    """The distinct values of the flattened input (first-seen order), each element's
    index into them, and each value's count (three columns). As in MindSpore 2.10,
    the input must be at least 2-D."""

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim < 2:
            raise RuntimeError(f"Unique: input must be at least 2-D in order to do unique op, "
                               f"got rank:{x.ndim}")
        x = x.ravel()
        values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                                   return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return values[order], rank[inverse].astype(np.int32), counts[order].astype(np.int32)


class Plugin(TensorOperation):
    """MindSpore's C++ plugin loader; there are no plugins on XLA."""

    def __init__(self, lib_path, func_name, user_args=None):
        raise NotImplementedError("mindspore.dataset.transforms.Plugin loads MindSpore C++ "
                                  "plugins, which do not exist on XLA.")


__all__ = ["Compose", "RandomApply", "RandomChoice", "RandomOrder", "TypeCast", "OneHot",
           "Fill", "Duplicate", "Concatenate", "Relational", "Mask", "Slice", "PadEnd",
           "Unique", "Plugin", "TensorOperation", "PyTensorOperation"]
