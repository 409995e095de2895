"""``Dice``: the mean over batches of ``2 |X.Y| / (|X|^2 + |Y|^2 + smooth)``,
divided by the number of samples."""
from __future__ import annotations

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["Dice"]


class Dice(Metric):
    """The Dice coefficient of predictions and labels of the same shape."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        self.smooth = validator.check_positive_float(smooth, "smooth")
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Dice.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError("For 'Dice.update', predicted value (input[0]) and true value "
                             "(input[1]) should have same shape, but got predicted value shape: "
                             f"{y_pred.shape}, true value shape: {y.shape}.")
        p, t = y_pred.flatten(), y.flatten()
        union = np.dot(p, p) + np.dot(t, t)
        self._dice_coeff_sum += 2 * float(np.dot(p, t)) / float(union + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number "
                               "of samples is 0, please check whether your inputs(predicted value, "
                               "true value) are empty, or has called update method before calling "
                               "eval method.")
        return self._dice_coeff_sum / float(self._samples_num)
