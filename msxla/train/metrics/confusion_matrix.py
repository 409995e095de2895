"""``ConfusionMatrix``: counts of (true class, predicted class) pairs, optionally
normalised over targets (rows), predictions (columns) or all entries.
Predictions with one more dimension than the labels are argmax-ed; float
predictions of the labels' shape are thresholded at ``threshold``."""
from __future__ import annotations

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix"]
_NORMALIZE = ("target", "prediction", "all", "no_norm")


class ConfusionMatrix(Metric):
    """The confusion matrix of ``num_classes`` classes."""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        self.num_classes = validator.check_value_type("num_classes", num_classes, [int])
        if normalize not in _NORMALIZE:
            raise ValueError("For 'ConfusionMatrix', the argument 'normalize' must be in ['all', "
                             f"'prediction', 'label', 'no_norm'(None)], but got {normalize}.")
        self.normalize = normalize
        self.threshold = validator.check_value_type("threshold", threshold, [float])
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'ConfusionMatrix.update', it needs 2 inputs (predicted value, "
                             f"true value), but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError("For 'ConfusionMatrix.update', predicted value (input[0]) and true "
                             "value (input[1]) should have same dimensions, or the dimension of "
                             "predicted value equals the dimension of true value add 1, but got "
                             f"predicted value ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        if y_pred.ndim == y.ndim and y_pred.dtype in (np.float16, np.float32, np.float64):
            y_pred = (y_pred >= self.threshold).astype(int)
        n = self.num_classes
        pairs = (y.reshape(-1) * n + y_pred.reshape(-1)).astype(int)
        self.confusion_matrix += np.bincount(pairs, minlength=n ** 2).reshape(n, n)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                matrix = matrix / matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = matrix / matrix.sum(axis=0, keepdims=True)
            else:
                matrix = matrix / matrix.sum()
        matrix[np.isnan(matrix)] = 0
        return matrix
