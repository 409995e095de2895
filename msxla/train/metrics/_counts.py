"""Per-class counts shared by Precision, Recall and Fbeta.

Classification inputs become one-hot rows (the argmax of the prediction and
the label); multilabel inputs are regrouped so each class is a column.
"""
from __future__ import annotations

import sys

import numpy as np

from msxla.nn import _checkparam as validator

EPS = sys.float_info.min


def one_hot(y_pred, y, classes, name, what):
    """``(y_pred, y)`` as one-hot ``(N, classes)`` rows."""
    if y.max() + 1 > classes:
        raise ValueError(f"For '{name}.update', predicted value {what}, but got predicted value "
                         f"classes {classes}, true value classes {y.max() + 1}.")
    y = np.eye(classes)[y.reshape(-1)]
    return np.eye(classes)[y_pred.argmax(axis=1).reshape(-1)], y


def columns(y_pred, y, classes):
    """Multilabel inputs with one column per class."""
    return y_pred.swapaxes(1, 0).reshape(classes, -1), y.swapaxes(1, 0).reshape(classes, -1)


class RatioOfCounts:
    """``true_positives / denominator`` per class (Precision: predicted positives;
    Recall: actual positives), accumulated over batches; multilabel also keeps the
    per-batch ratio sums for ``eval(average=True)``."""

    _name = ""
    _what = ("(input[0]) should have the same classes number as true value (input[1])")

    def __init__(self, multilabel):
        self._multilabel = multilabel
        self.reset()

    def reset(self):
        self.classes = 0
        if self._multilabel:
            self.tp, self.den = np.empty(0), np.empty(0)
            self.tp_average, self.den_average = 0, 0
        else:
            self.tp, self.den = 0, 0

    def add(self, true_positives, denominator):
        if self._multilabel:
            self.tp_average += np.sum(true_positives / (denominator + EPS))
            self.den_average += len(denominator)
            self.tp = np.concatenate((self.tp, true_positives), axis=0)
            self.den = np.concatenate((self.den, denominator), axis=0)
        else:
            self.tp = self.tp + true_positives
            self.den = self.den + denominator

    def result(self, average, owner):
        validator.check_value_type("average", average, [bool], owner)
        result = self.tp / (self.den + EPS)
        if average:
            if self._multilabel:
                result = self.tp_average / (self.den_average + EPS)
            return float(result.mean())
        return result
