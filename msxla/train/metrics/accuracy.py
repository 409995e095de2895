"""``Accuracy``: the fraction of samples classified correctly (classification:
argmax of the prediction equals the label; multilabel: every label matches)."""
from __future__ import annotations

import numpy as np

from msxla.train.metrics.metric import EvaluationBase, check_class_num, rearrange_inputs

__all__ = ["Accuracy"]


class Accuracy(EvaluationBase):
    """Accuracy for classification and multilabel data."""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Accuracy.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}")
        y_pred, y = self._inputs("Accuracy", inputs)
        classes = check_class_num(self, "Accuracy", y_pred)
        if self._type == "classification":
            result = (np.equal(y_pred.argmax(axis=1), y) * 1).reshape(-1)
        else:
            last = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, last).reshape(-1, classes)
            y = y.swapaxes(1, last).reshape(-1, classes)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of "
                               "samples is 0, please check whether your inputs(predicted value, "
                               "true value) are empty, or has called update method before calling "
                               "eval method.")
        return float(self._correct_num / self._total_num)
