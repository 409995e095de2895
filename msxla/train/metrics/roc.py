"""``ROC``: false and true positive rates at each threshold (one curve per
class for multi-class predictions)."""
from __future__ import annotations

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.metrics.metric import Metric, binary_clf_curve, rearrange_inputs

__all__ = ["ROC"]


def _prepare(y_pred, y, class_num, pos_label):
    """Flatten binary inputs, check multi-class ones; ``(y_pred, y, classes, pos_label)``."""
    if y_pred.ndim not in (y.ndim, y.ndim + 1):
        raise ValueError("For 'ROC', predicted value (input[0]) and true value (input[1]) must "
                         "have same dimensions, or the dimension of predicted value equal the "
                         "dimension of true value add 1, but got predicted value ndim: "
                         f"{len(y_pred.shape)}, true value ndim: {len(y.shape)}.")
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError("For 'ROC', when predicted value (input[0]) and true value "
                             "(input[1]) have the same shape, the 'class_num' must be 1, but got "
                             f"{class_num}.")
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if pos_label is not None:
        raise ValueError("For 'ROC', when the dimension of predicted value (input[0]) equals the "
                         "dimension of true value (input[1]) add 1, the 'pos_label' must be None, "
                         f"but got {pos_label}.")
    if class_num != y_pred.shape[1]:
        raise ValueError("For 'ROC', the 'class_num' must equal the number of classes from "
                         f"predicted value (input[0]), but got 'class_num' {class_num}, the number "
                         f"of classes from predicted value {y_pred.shape[1]}.")
    # one column per class (MindSpore reshapes (N, C) to (C, N), which scrambles the scores
    # unless N == C; each class's column is what the curve needs)
    return y_pred, y.flatten(), class_num, pos_label


class ROC(Metric):
    """The receiver operating characteristic: ``eval()`` gives ``(fpr, tpr, thresholds)``."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = class_num if class_num is None else \
            validator.check_value_type("class_num", class_num, [int])
        self.pos_label = pos_label if pos_label is None else \
            validator.check_value_type("pos_label", pos_label, [int])
        self.clear()

    def clear(self):
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'ROC.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _prepare(
            y_pred, y, self.class_num, self.pos_label)
        self._is_update = True

    def _curve(self, y_pred, y, class_num, pos_label, sample_weights=None):
        if class_num != 1:
            curves = [self._curve(*_prepare(y_pred[:, c], y, 1, c)) for c in range(class_num)]
            return tuple(list(part) for part in zip(*curves))
        fps, tps, thresholds = binary_clf_curve(y_pred, y, sample_weights, pos_label)
        tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
        fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
        thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
        if fps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no negative samples in true value, false "
                             "positive value is meaningless.")
        if tps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no positive samples in true value, true "
                             "positive value is meaningless.")
        return fps / fps[-1], tps / tps[-1], thresholds

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._curve(np.squeeze(self.y_pred), np.squeeze(self.y), self.class_num,
                           self.pos_label)
