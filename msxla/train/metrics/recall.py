"""``Recall``: per class, true positives over actual positives."""
from __future__ import annotations

from msxla.train.metrics.precision import Precision

__all__ = ["Recall"]


class Recall(Precision):
    """Recall for classification and multilabel data; ``eval(average=True)``
    averages over classes."""

    _denominator = "actual"
