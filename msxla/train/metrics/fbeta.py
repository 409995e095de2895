"""``Fbeta`` and ``F1``: the weighted harmonic mean of precision and recall,
per class: ``(1 + b^2) * TP / (b^2 * actual positives + predicted positives)``."""
from __future__ import annotations

from msxla.nn import _checkparam as validator
from msxla.train.metrics._counts import EPS, one_hot
from msxla.train.metrics.metric import Metric, check_class_num, is_onehot, rearrange_inputs

__all__ = ["Fbeta", "F1"]


class Fbeta(Metric):
    """F-beta score per class (``eval(average=True)``: the mean over classes)."""

    def __init__(self, beta):
        super().__init__()
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got "
                             f"{beta}.")
        self.beta = beta
        self.clear()

    def clear(self):
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Fbeta.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and is_onehot(y):
            y = y.argmax(axis=1)
        classes = check_class_num(self, "Fbeta", y_pred)
        if y.max() + 1 > classes:
            raise ValueError("For 'Fbeta.update', predicted value(inputs[0]) and true value"
                             "(inputs[1]) should contain same classes, but got predicted value "
                             f"contains {classes} classes and true value contains {y.max() + 1} "
                             "classes.")
        y_pred, y = one_hot(y_pred, y, classes, "Fbeta", "")
        self._true_positives += (y * y_pred).sum(axis=0)
        self._positives += y_pred.sum(axis=0)
        self._actual_positives += y.sum(axis=0)

    def eval(self, average=False):
        validator.check_value_type("average", average, [bool], type(self).__name__)
        if self._class_num == 0:
            raise RuntimeError("The 'Fbeta' can not be calculated, because the number of samples "
                               "is 0, please check whether your inputs(predicted value, true "
                               "value) are empty, or has called update method before calling eval "
                               "method.")
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives +
                                                     self._positives + EPS)
        return float(fbeta.mean()) if average else fbeta


class F1(Fbeta):
    """F1 score (``beta = 1``)."""

    def __init__(self):
        super().__init__(1.0)
