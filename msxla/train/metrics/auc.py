"""``auc``: the area under a curve given by points ``(x, y)``, by the trapezoidal
rule (``x`` monotonic, or sorted first with ``reorder=True``)."""
from __future__ import annotations

import numpy as np

__all__ = ["auc"]


def _length(x):
    if hasattr(x, "fit") and callable(x.fit):
        raise TypeError(f"Expected sequence or array-like, got estimator {x}.")
    if not hasattr(x, "__len__") and not hasattr(x, "shape"):
        if not hasattr(x, "__array__"):
            raise TypeError(f"Expected sequence or array-like, got {type(x)}.")
        x = np.asarray(x)
    if hasattr(x, "shape"):
        if x.ndim == 0:
            raise TypeError(f"Singleton array {x} cannot be considered as a valid collection.")
        return x.shape[0]
    return x.size


def _as_1d(y):
    shape = np.shape(y)
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return np.ravel(y)
    raise ValueError("For 'auc', the input must be a 1-dimensional array, or a 2-dimensional "
                     f"array with the second dimension of 1, but got shape {shape}.")


def auc(x, y, reorder=False):
    """Area under the curve through the points ``(x[i], y[i])``."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError("For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got "
                        f"{type(x)}, {type(y)}")
    lengths = [_length(x), _length(y)]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{[int(n) for n in lengths]}.")
    x, y = _as_1d(x), _as_1d(y)
    if x.shape[0] < 2:
        raise ValueError("For 'auc', the shape of the argument 'x' in axis 0 must be greater than "
                         f"2, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError("For 'auc', if the argument is False, the argument 'x' array must "
                                 f"be increasing or decreasing, but got 'x': {x}")
            direction = -1
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    area = direction * trapezoid(y, x)
    if isinstance(area, np.memmap):
        area = area.dtype.type(area)
    return area
