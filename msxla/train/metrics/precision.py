"""``Precision``: per class, true positives over predicted positives."""
from __future__ import annotations

from msxla.train.metrics._counts import RatioOfCounts, columns, one_hot
from msxla.train.metrics.metric import EvaluationBase, check_class_num, rearrange_inputs

__all__ = ["Precision"]


class Precision(EvaluationBase):
    """Precision for classification and multilabel data; ``eval(average=True)``
    averages over classes."""

    _denominator = "predicted"

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self._counts = RatioOfCounts(eval_type == "multilabel")
        self.clear()

    def clear(self):
        self._class_num = 0
        self._counts.reset()

    @rearrange_inputs
    def update(self, *inputs):
        name = type(self).__name__
        y_pred, y = self._inputs(name, inputs)
        classes = check_class_num(self, name, y_pred)
        if self._type == "classification":
            y_pred, y = one_hot(y_pred, y, classes, name,
                                "(input[0]) should have the same classes number as true value "
                                "(input[1])")
        else:
            y_pred, y = columns(y_pred, y, classes)
        positives = y_pred if self._denominator == "predicted" else y
        self._counts.add((y * y_pred).sum(axis=0), positives.sum(axis=0))

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the "
                               "number of samples is 0, please check whether your inputs "
                               "(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        return self._counts.result(average, type(self).__name__)
